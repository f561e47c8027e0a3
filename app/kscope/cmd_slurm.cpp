// kscope slurm FILE --tasks N [--gpus-per-task G] [--timing-jobs J] [--partition P] [--time T] [--build-nodes M] [--dry-run]:
// re-times FILE on a Slurm cluster with Slurm's own job arrays. Writes into --dir (a folder every
// node sees) an sbatch script for an array of N timing tasks, each `kscope batch FILE --shard i/N` into
// shard-<i>.jsonl, and with --build-nodes M first a CPU-only array of M `--build-only` shards that fill the
// build cache (DIR/cache, shared by all nodes; entries are published by atomic rename), which the timing
// array waits for (--dependency=afterany). Submits them with sbatch unless --dry-run.
// kscope slurm --status JOBID: the array's task states (sacct, else squeue) and each shard's progress.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/kscope/batch_shards.h"
#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "core/hash/sha256.h"
#include "core/json/nesting.h"
#include "core/nvcc/process_run.h"
#include "core/cluster/slurm_states.h"

namespace ks::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct SlurmOptions {
  std::string file, dir, partition, time, device, arch, kscope, runner, status, account;
  int tasks = 1, gpusPerTask = 1, buildNodes = 0, cpusPerTask = 0, trials = 0, seeds = 0, timingJobs = 0;
  bool dryRun = false;
};

// 'text' for a POSIX shell.
std::string quote(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string thisExecutable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "kscope" : self.string();
}

// The lines common to both arrays' headers.
std::string header(const SlurmOptions& o, const std::string& file, const std::string& name, int count,
                   const fs::path& dir) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Written by kscope slurm for " << file << " (docs/cluster.md). Re-submitting it re-runs only\n"
    << "# what the shards' outputs do not hold yet.\n"
    << "#SBATCH --job-name=kscope-" << name << "\n"
    << "#SBATCH --array=0-" << count - 1 << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --output=" << (dir / "logs" / (name + "-%A_%a.log")).string() << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  if (!o.account.empty()) s << "#SBATCH --account=" << o.account << "\n";
  return s.str();
}

// The batch arguments both arrays share.
std::string batchArguments(const SlurmOptions& o) {
  std::string a;
  if (!o.device.empty()) a += " --device " + o.device;
  if (!o.arch.empty()) a += " --arch " + quote(o.arch);
  if (!o.runner.empty()) a += " --runner " + quote(o.runner);
  if (o.trials) a += " --trials " + std::to_string(o.trials);
  if (o.seeds) a += " --seeds " + std::to_string(o.seeds);
  return a;
}

std::string environmentLines(const fs::path& dir) {
  return "set -eu\n"
         "# The build cache on a path every node sees (kscope-runner builds into $XDG_CACHE_HOME/kernelscope).\n"
         "export XDG_CACHE_HOME=" +
         quote((dir / "cache").string()) + "\n";
}

std::string buildScript(const SlurmOptions& o, const fs::path& dir, const std::string& file) {
  std::ostringstream s;
  s << header(o, file, "build", o.buildNodes, dir);
  if (o.cpusPerTask) s << "#SBATCH --cpus-per-task=" << o.cpusPerTask << "\n";
  s << environmentLines(dir)
    << "# CPU only: builds fill the shared cache; the timing array finds them there.\n"
    << "exec " << quote(o.kscope) << " batch " << quote(file) << " --build-only --shard \"$SLURM_ARRAY_TASK_ID/"
    << o.buildNodes << "\" --jobs \"$(nproc)\"" << batchArguments(o) << "\n";
  return s.str();
}

std::string timingScript(const SlurmOptions& o, const fs::path& dir, const std::string& file) {
  std::ostringstream s;
  s << header(o, file, "timing", o.tasks, dir);
  if (o.gpusPerTask > 0) s << "#SBATCH --gpus-per-task=" << o.gpusPerTask << "\n";
  if (o.cpusPerTask) s << "#SBATCH --cpus-per-task=" << o.cpusPerTask << "\n";
  s << environmentLines(dir) << "exec " << quote(o.kscope) << " batch " << quote(file)
    << " --shard \"$SLURM_ARRAY_TASK_ID/" << o.tasks << "\" --out "
    << quote((dir / "shard-").string()) << "\"$SLURM_ARRAY_TASK_ID.jsonl\" --no-store --jobs \"$(nproc)\""
    << (o.gpusPerTask > 1 ? " --gpus all" : "")
    << (o.timingJobs ? " --timing-jobs " + std::to_string(o.timingJobs) : std::string()) << batchArguments(o)
    << "\n";
  return s.str();
}

bool writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return false;
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_exec, fs::perm_options::add, ec);
  return true;
}

// sbatch --parsable [extra] SCRIPT: the job id, or "" (the reason printed).
std::string submit(const fs::path& script, const std::vector<std::string>& extra) {
  nvcc::ProcessSpec spec;
  spec.argv = {"sbatch", "--parsable"};
  spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
  spec.argv.push_back(script.string());
  spec.deadlineSeconds = 120;
  const nvcc::ProcessOutput run = nvcc::runProcess(spec);
  std::string id;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    const std::string first = line.substr(0, line.find(';'));
    if (!first.empty() && std::all_of(first.begin(), first.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) id = first;
  }
  if (!run.succeeded() || id.empty()) {
    std::cerr << "kscope slurm: error: sbatch " << script.string() << ": " << run.describeEnd() << "\n"
              << run.output;
    return "";
  }
  return id;
}

std::string isoNow() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%FT%TZ", std::gmtime(&t));
  return buf;
}

int runSubmit(SlurmOptions o) {
  std::error_code ec;
  const std::string file = fs::absolute(o.file, ec).lexically_normal().string();
  if (!fs::exists(file)) {
    std::cerr << "kscope slurm: error: " << o.file << " does not exist\n";
    return kExitFailure;
  }
  if (o.dir.empty()) o.dir = "kscope-slurm-" + fs::path(file).filename().string();
  const fs::path dir = fs::absolute(o.dir, ec).lexically_normal();
  if (o.kscope.empty()) o.kscope = thisExecutable();
  fs::create_directories(dir / "logs", ec);
  fs::create_directories(dir / "cache", ec);
  if (ec) {
    std::cerr << "kscope slurm: error: cannot create " << dir.string() << ": " << ec.message() << "\n";
    return kExitFailure;
  }
  const fs::path buildPath = dir / "build.sbatch", timingPath = dir / "timing.sbatch";
  if ((o.buildNodes > 0 && !writeFile(buildPath, buildScript(o, dir, file))) ||
      !writeFile(timingPath, timingScript(o, dir, file))) {
    std::cerr << "kscope slurm: error: cannot write the scripts in " << dir.string() << "\n";
    return kExitFailure;
  }
  Json record = {{"file", file},       {"tasks", o.tasks},          {"gpus_per_task", o.gpusPerTask},
                 {"build_nodes", o.buildNodes}, {"dir", dir.string()}, {"created", isoNow()}};
  std::cerr << "kscope slurm: wrote " << (o.buildNodes > 0 ? buildPath.string() + " and " : "")
            << timingPath.string() << "\n";
  if (o.dryRun) {
    std::cout << (o.buildNodes > 0 ? "sbatch --parsable " + buildPath.string() + "  # then, with its id:\n" +
                                         "sbatch --dependency=afterany:BUILD_ID " + timingPath.string() + "\n"
                                   : "sbatch " + timingPath.string() + "\n");
    writeFile(dir / "slurm.json", record.dump(1) + "\n");
    return 0;
  }
  std::vector<std::string> extra;
  if (o.buildNodes > 0) {
    const std::string build = submit(buildPath, {});
    if (build.empty()) return kExitFailure;
    record["build_job"] = build;
    extra.push_back("--dependency=afterany:" + build);
    std::cerr << "kscope slurm: build array " << build << " (" << o.buildNodes << " tasks)\n";
  }
  const std::string timing = submit(timingPath, extra);
  if (timing.empty()) return kExitFailure;
  record["timing_job"] = timing;
  writeFile(dir / "slurm.json", record.dump(1) + "\n");
  std::cerr << "kscope slurm: timing array " << timing << " (" << o.tasks << " tasks); follow it with: kscope slurm --status "
            << timing << " --dir " << dir.string() << "\n";
  std::cout << timing << "\n";
  return 0;
}

// The folder of a job written by kscope slurm: --dir, else the folder of the script scontrol names.
fs::path jobDir(const SlurmOptions& o) {
  if (!o.dir.empty()) return fs::absolute(o.dir);
  const nvcc::ProcessOutput show = nvcc::runProcess({.argv = {"scontrol", "show", "job", o.status}, .deadlineSeconds = 60});
  const auto at = show.output.find("Command=");
  if (!show.succeeded() || at == std::string::npos) return {};
  const std::string command = show.output.substr(at + 8, show.output.find_first_of(" \n", at + 8) - at - 8);
  return fs::path(command).parent_path();
}

// Array task states, one count per task (core/cluster/slurm_states.h: a pending range such as
// "81234_[0-15%4]" is each of its tasks): sacct's, with squeue's for the tasks squeue still holds (pending or
// running; sacct hears of a task's start a moment after slurmctld, as a pending array splits into tasks of
// their own); squeue's alone where there is no accounting (then only tasks not yet ended are listed).
std::map<std::string, int> taskStates(const std::string& job, std::string& source) {
  const nvcc::ProcessOutput acct = nvcc::runProcess(
      {.argv = {"sacct", "-j", job, "-X", "-n", "-P", "-o", "JobID,State"}, .deadlineSeconds = 60});
  const nvcc::ProcessOutput queue =
      nvcc::runProcess({.argv = {"squeue", "-j", job, "-r", "-h", "-o", "%i|%T"}, .deadlineSeconds = 60});
  const bool accounted = acct.succeeded() && acct.output.find('|') != std::string::npos;
  std::map<std::string, std::string> states;
  if (accounted) states = cluster::parseTaskStates(acct.output);
  std::size_t live = 0;
  if (queue.succeeded())
    for (auto& [task, state] : cluster::parseTaskStates(queue.output)) {
      states[task] = state;
      ++live;
    }
  if (accounted)
    source = live == 0 ? "sacct" : "sacct; squeue for " + std::to_string(live) + " not ended";
  else if (queue.succeeded())
    source = "squeue (pending and running tasks only)";
  else
    source = "neither sacct nor squeue answered: " + queue.describeEnd();
  return cluster::countStates(states);
}

int runStatus(const SlurmOptions& o) {
  const fs::path dir = jobDir(o);
  std::string source;
  const std::map<std::string, int> states = taskStates(o.status, source);
  std::cout << "job " << o.status << " (" << source << "):";
  if (states.empty()) std::cout << " no tasks listed";
  for (const auto& [state, n] : states) std::cout << " " << n << " " << state;
  std::cout << "\n";
  if (dir.empty() || !fs::exists(dir / "slurm.json")) {
    std::cerr << "kscope slurm: no kscope slurm folder for job " << o.status
              << " (give --dir, the folder kscope slurm wrote)\n";
    return kExitInputErrors;
  }
  Json record = Json::parse(std::ifstream(dir / "slurm.json"), nullptr, false);
  if (record.is_discarded() || !record.contains("file")) {
    std::cerr << "kscope slurm: error: " << (dir / "slurm.json").string() << " is not kscope slurm's\n";
    return kExitFailure;
  }
  const std::string file = record.value("file", "");
  const int tasks = record.value("tasks", 1);
  LoadedInput input = loadInput(file);
  if (!input.usable) return kExitFailure;
  std::vector<BatchEntry> all;
  for (const Task& t : input.run.tasks)
    for (const Candidate& c : t.candidates)
      if (c.code) all.push_back({&t, &c, hash::codeHash(*c.code)});
  const std::vector<int> plan = batchShardPlan(all, tasks);
  std::size_t doneTotal = 0;
  int shardsDone = 0;
  for (int shard = 0; shard < tasks; ++shard) {
    std::set<std::string> expected;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (plan[i] == shard) expected.insert(all[i].task->key() + '\x1f' + all[i].candidate->id + '\x1f' + all[i].codeHash);
    const fs::path part = dir / ("shard-" + std::to_string(shard) + ".jsonl");
    std::set<std::string> done;
    std::ifstream in(part);
    for (std::string line; std::getline(in, line);) {
      Json j = json::tooDeepAt(line) ? Json(Json::value_t::discarded) : Json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("task"))
        if (std::string k = j.value("task", "") + '\x1f' + j.value("candidate", "") + '\x1f' + j.value("code_hash", "");
            expected.count(k))
          done.insert(k);
    }
    doneTotal += done.size();
    shardsDone += done.size() == expected.size();
    std::cout << "shard " << shard << ": " << done.size() << "/" << expected.size()
              << (fs::exists(part) ? "" : " (not started)") << "\n";
  }
  std::cout << doneTotal << " of " << all.size() << " candidates done; " << shardsDone << " of " << tasks
            << " shards complete\n";
  std::cout << "merge: kscope merge " << (dir / "merged.jsonl").string() << " " << (dir / "shard-*.jsonl").string()
            << " --file " << file << "\n";
  return 0;
}

}  // namespace

void addSlurmCommand(CLI::App& app) {
  auto o = std::make_shared<SlurmOptions>();
  CLI::App* command = app.add_subcommand(
      "slurm", "Re-time a file on a Slurm cluster: a job array of batch shards (and a build array first); "
               "--status JOBID follows one");
  command->add_option("file", o->file, "What kscope batch reads (on a path every node sees)");
  command->add_option("--tasks", o->tasks, "Timing array tasks = shards (default 1)")->check(CLI::Range(1, 100000));
  command->add_option("--gpus-per-task", o->gpusPerTask, "GPUs of each timing task (default 1; 0: CPU only; >1: "
                      "one timing runner per GPU)")->check(CLI::Range(0, 64));
  command->add_option("--timing-jobs", o->timingJobs,
                      "Passed to each timing task's kscope batch: runners per GPU sharing it (with --gpus-per-task "
                      "> 1, on each GPU; docs/multi-gpu.md measured 4 faster than 1)")
      ->check(CLI::Range(1, 64));
  command->add_option("--partition", o->partition, "Slurm partition");
  command->add_option("--time", o->time, "Time limit of each task, as sbatch --time reads it");
  command->add_option("--account", o->account, "Slurm account");
  command->add_option("--cpus-per-task", o->cpusPerTask, "CPUs of each task (default: Slurm's)")
      ->check(CLI::Range(1, 4096));
  command->add_option("--build-nodes", o->buildNodes, "First a CPU-only array of M build shards that fill the "
                      "shared build cache; the timing array waits for it (default 0: none)")->check(CLI::Range(0, 100000));
  command->add_option("--dir", o->dir, "Scripts, logs, shard outputs and build cache; must be on a filesystem "
                      "every node sees (default ./kscope-slurm-<file name>)");
  command->add_option("--device", o->device, "Passed to kscope batch: cpu or cuda")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  command->add_option("--arch", o->arch, "Passed to kscope batch (give it when build nodes have no GPU, e.g. sm_90a)");
  command->add_option("--trials", o->trials, "Passed to kscope batch")->check(CLI::PositiveNumber);
  command->add_option("--seeds", o->seeds, "Passed to kscope batch")->check(CLI::PositiveNumber);
  command->add_option("--kscope", o->kscope, "kscope on the nodes (default: this executable)");
  command->add_option("--runner", o->runner, "kscope-runner on the nodes (default: next to kscope)");
  command->add_flag("--dry-run", o->dryRun, "Write the scripts and print the sbatch commands; submit nothing");
  command->add_option("--status", o->status, "Summarize job JOBID: task states and each shard's progress");
  command->callback([o] {
    if (!o->status.empty()) {
      exitCode() = runStatus(*o);
      return;
    }
    if (o->file.empty()) throw CLI::RequiredError("file (or --status JOBID)");
    exitCode() = runSubmit(*o);
  });
}

KS_REGISTER_COMMAND(addSlurmCommand);

}  // namespace ks::cli
