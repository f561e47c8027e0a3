// bench_load FILE...: times loadAny and summarize on each file and prints a markdown table. Each file is
// loaded in a fresh child process (three times; the run with the median load time is shown), so the peak
// RSS (getrusage) is that load's alone. CPU ms is the child's user + system time (all threads): on a busy
// machine it moves less than the wall-clock times. "B/cand." is the resident memory after loading over the
// candidates (the run as held in memory; programs and analyses of run files stay in the file), and a second
// table gives the in-memory sizes of the model's structs.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/formats/huge_pages.h"
#include "core/formats/load.h"
#include "core/stats/speedup_stats.h"

namespace {

constexpr int kRuns = 3;

struct Sample {
  double loadMs = 0, summarizeMs = 0, cpuMs = 0, peakRssMiB = 0, rssMiB = 0;
  std::size_t tasks = 0, candidates = 0, issues = 0;
};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// VmRSS of this process, MiB.
double residentMiB() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (!status) return 0;
  char line[256];
  double kib = 0;
  while (std::fgets(line, sizeof line, status))
    if (std::sscanf(line, "VmRSS: %lf kB", &kib) == 1) break;
  std::fclose(status);
  return kib / 1024;
}

// Runs in the child: loads, summarizes and writes the sample to `fd`.
void measure(const char* path, int fd) {
  Sample s;
  auto start = std::chrono::steady_clock::now();
  const ks::RunFile run = ks::loadAny(path);
  s.loadMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  const ks::RunSummary summary = ks::summarize(run);
  s.summarizeMs = millisecondsSince(start);
  s.tasks = run.tasks.size();
  s.candidates = run.candidateCount();
  s.issues = run.issues.size() + (summary.overall.count == s.candidates ? 0 : 1);
  s.rssMiB = residentMiB();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  s.peakRssMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
  for (const timeval& t : {usage.ru_utime, usage.ru_stime})
    s.cpuMs += static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  if (write(fd, &s, sizeof s) != static_cast<ssize_t>(sizeof s)) _exit(1);
}

bool sampleInChild(const char* path, Sample& out) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    measure(path, fds[1]);
    _exit(0);
  }
  close(fds[1]);
  const bool ok = pid > 0 && read(fds[0], &out, sizeof out) == static_cast<ssize_t>(sizeof out);
  close(fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  ks::preferHugePages(argv);  // as the GUI does (core/formats/huge_pages.h)
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_load FILE...\n");
    return 2;
  }
  std::printf(
      "| file | size MiB | tasks | candidates | issues | load ms | summarize ms | CPU ms | peak RSS MiB | "
      "B/cand. |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<Sample> samples(kRuns);
    bool ok = true;
    for (Sample& s : samples) ok = ok && sampleInChild(argv[i], s);
    if (!ok) {
      std::fprintf(stderr, "bench_load: measuring %s failed\n", argv[i]);
      ++failures;
      continue;
    }
    std::sort(samples.begin(), samples.end(),
              [](const Sample& a, const Sample& b) { return a.loadMs < b.loadMs; });
    const Sample& median = samples[kRuns / 2];
    double peak = 0;
    for (const Sample& s : samples) peak = std::max(peak, s.peakRssMiB);
    std::error_code ec;
    std::uintmax_t bytes = 0;  // a folder (KernelBench, CUDA-L2, good-kernels): its files together
    if (std::filesystem::is_directory(argv[i], ec)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i], ec))
        if (entry.is_regular_file(ec)) bytes += entry.file_size(ec);
    } else {
      bytes = std::filesystem::file_size(argv[i], ec);
    }
    const double sizeMiB = ec ? 0.0 : static_cast<double>(bytes) / (1 << 20);
    const double perCandidate =
        median.candidates ? median.rssMiB * 1024 * 1024 / static_cast<double>(median.candidates) : 0;
    std::printf("| %s | %.1f | %zu | %zu | %zu | %.0f | %.1f | %.0f | %.0f | %.0f |\n",
                std::filesystem::path(argv[i]).filename().c_str(), sizeMiB, median.tasks, median.candidates,
                median.issues, median.loadMs, median.summarizeMs, median.cpuMs, peak, perCandidate);
    std::fflush(stdout);
  }
  std::printf(
      "\n| struct | bytes |\n|---|---:|\n| Candidate | %zu |\n| Measurement | %zu |\n| ProgramText | %zu |\n",
      sizeof(ks::Candidate), sizeof(ks::Measurement), sizeof(ks::ProgramText));
  return failures == 0 ? 0 : 1;
}
