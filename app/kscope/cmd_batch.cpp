// kscope batch FILE --out results.jsonl [--device cpu|cuda] [--jobs N] [--timing-jobs M]: re-runs every
// candidate of FILE. First every candidate that compiles something is built by N runners at once
// (batch_prebuild.h) into the runner's build cache; then the candidates are evaluated by M runners (default
// one), which find their extensions built. With M > 1 the runners share the GPU through a lock
// (core/engine/gpu_share.h): their checks run side by side, each timing and profile runs with the GPU to
// itself. A candidate whose build fails with compiler errors is reported without being timed.
// Resumable: an entry already in --out with the same task, candidate and code hash is skipped.
// One JSON line per candidate (keys: docs/cli.md, "kscope batch"); progress on stderr.
// --shard i/N (or a Slurm array task's or Kubernetes indexed job's environment) runs one shard of the
// candidates (core/cluster/shard_plan.h); --gpus all|0,1,... times on one runner per GPU, each alone on its GPU.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/kscope/batch_prebuild.h"
#include "app/kscope/batch_shards.h"
#include "app/kscope/candidate_repair.h"
#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "app/kscope/runner_pool.h"
#include "core/cluster/gpu_list.h"
#include "core/cluster/shard_plan.h"
#include "core/hash/sha256.h"
#include "core/json/nesting.h"
#include "core/model/task_lookup.h"
#include "core/nvcc/gpu_arch.h"
#include "core/protocol/gemm_baselines.h"
#include "core/protocol/json_codec.h"
#include "core/runs/evaluate_options.h"
#include "core/runs/evaluation_request.h"
#include "core/runs/fallback_note.h"
#include "core/runs/outcome_json.h"
#include "core/runs/record_result.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/supervisor/interrupt_cancel.h"
#include "core/supervisor/phase_times.h"
#include "core/supervisor/runner_location.h"
#include "core/supervisor/runner_supervisor.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

struct BatchOptions {
  std::string file, out, device, runner, store;
  std::vector<std::string> tasks;
  int jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  int trials = 0, seeds = 0;
  double memoryLimitMiB = -1;  // < 0: supervisor::chooseMemoryLimit's default; 0: none
  int timingJobs = 1;  // runners evaluating at once in the timing stage, sharing the GPU
  bool noStore = false, noPrebuild = false, buildOnly = false;
  bool repair = false;  // --repair: every candidate's repaired program runs (candidate_repair.h)
  std::string arch;     // --arch for arch-flag repairs
  std::string shard;    // --shard i/N; empty: from the environment of an array task, else every candidate
  std::string gpus;     // --gpus all|0,1,...: one timing runner per GPU
  std::optional<cluster::Shard> chosenShard;  // resolved from --shard or the environment
  std::vector<std::string> gpuIds;         // resolved from --gpus
};

using Entry = BatchEntry;

std::string entryKey(const std::string& task, const std::string& candidate, const std::string& hash) {
  return task + '\x1f' + candidate + '\x1f' + hash;
}

// Keys of the entries --out already holds; a line that does not parse (a batch killed mid-write) is reported
// and ignored, so that entry runs again.
std::set<std::string> finishedEntries(const std::string& out) {
  std::set<std::string> done;
  std::ifstream in(out);
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    if (line.empty()) continue;
    Json j = json::tooDeepAt(line) ? Json(Json::value_t::discarded) : Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("task") || !j.contains("candidate") ||
        !j.contains("code_hash")) {
      std::cerr << out << ":" << lineNo
                << ": warning: not a kscope batch line; its entry, if any, runs again\n";
      continue;
    }
    done.insert(entryKey(j.value("task", ""), j.value("candidate", ""), j.value("code_hash", "")));
  }
  return done;
}

bool endsWithNewline(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() == 0) return true;
  in.seekg(-1, std::ios::end);
  return in.get() == '\n';
}

// A CUDA out-of-memory error: beside other runners' models that may be the company, not the candidate.
bool ranOutOfGpuMemory(const protocol::EndEvent& end) {
  const auto* error = std::get_if<protocol::ErrorEvent>(&end);
  if (!error) return false;
  std::string message = error->error.message;
  std::transform(message.begin(), message.end(), message.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return message.find("out of memory") != std::string::npos;
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// --repair: the repaired programs replace the originals in this call's copy of the input; each entry's
// line and row carry what changed (the code hash is the repaired program's, so a resumed --out tells
// repaired from original entries).
std::map<const Candidate*, store::StoredRepair> applyRepairs(RunFile& run, const BatchOptions& o) {
  std::map<const Candidate*, store::StoredRepair> repairs;
  if (!o.repair) return repairs;
  const std::string arch = nvcc::targetArch(o.arch);
  for (Task& t : run.tasks)
    for (Candidate& c : t.candidates)
      if (auto applied = repairCandidate(c, arch)) repairs[&c] = storedRepair(*applied);
  std::cerr << "kscope batch: --repair: " << repairs.size() << " candidates repaired (arch " << arch << ")\n";
  return repairs;
}

// Stage 1, the plan: every candidate with a program of the chosen tasks, less the entries --out holds.
std::vector<Entry> planEntries(const RunFile& run, const BatchOptions& o) {
  std::vector<Entry> all;
  for (const Task& t : run.tasks) {
    // o.tasks are whole keys by now (resolved in runBatch).
    if (!o.tasks.empty() && std::find(o.tasks.begin(), o.tasks.end(), t.key()) == o.tasks.end()) continue;
    for (const Candidate& c : t.candidates)
      if (c.code) all.push_back({&t, &c, hash::codeHash(*c.code)});
  }
  if (o.chosenShard) {  // the plan is over every candidate, so each shard (and each re-run) computes the same
    const std::vector<int> plan = batchShardPlan(all, o.chosenShard->count);
    std::vector<Entry> mine;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (plan[i] == o.chosenShard->index) mine.push_back(all[i]);
    std::cerr << "kscope batch: shard " << o.chosenShard->index << "/" << o.chosenShard->count << ": "
              << mine.size() << " of " << all.size() << " candidates\n";
    all = std::move(mine);
  }
  const std::set<std::string> done = finishedEntries(o.out);
  std::vector<Entry> todo;
  for (const Entry& e : all)
    if (!done.count(entryKey(e.task->key(), e.candidate->id, e.codeHash))) todo.push_back(e);
  std::cerr << "kscope batch: " << all.size() << " candidates with a program in " << o.file << "; "
            << all.size() - todo.size() << " already in " << (o.out.empty() ? "--out" : o.out) << ", "
            << todo.size() << " to run\n";
  return todo;
}

// Where the results go: --out (appended to) and the results store (unless --no-store); neither for
// --build-only. False, with the reason printed, when one cannot be opened.
struct Sinks {
  std::ofstream out;
  std::unique_ptr<store::ResultStore> store;
};

bool openSinks(const BatchOptions& o, Sinks& sinks) {
  if (o.buildOnly) return true;
  const bool newline = endsWithNewline(o.out);
  sinks.out.open(o.out, std::ios::app);
  if (!sinks.out) {
    std::cerr << "kscope batch: error: cannot write " << o.out << "\n";
    return false;
  }
  if (!newline) sinks.out << "\n";
  if (o.noStore) return true;
  auto opened =
      store::ResultStore::open(o.store.empty() ? store::defaultStorePath() : std::filesystem::path(o.store));
  if (!opened) {
    std::cerr << "kscope batch: error: " << opened.error << " (--no-store runs without recording)\n";
    return false;
  }
  sinks.store = std::move(*opened.value);
  return true;
}

// What ptxas reported for a build's native kernels, for the build's progress line: ", ptxas: 2 kernels, up to
// 168 registers, 98304 B shared, no spills" (max over kernels); empty when no kernel was reported.
std::string ptxasSummary(const Json& build) {
  std::size_t kernels = 0;
  std::int64_t registers = 0, shared = 0, spills = 0;
  for (const Json& x : build.value("extensions", Json::array()))
    for (const Json& k : x.value("kernels", Json::array())) {
      ++kernels;
      registers = std::max<std::int64_t>(registers, k.value("registers", std::int64_t(0)));
      shared = std::max<std::int64_t>(shared, k.value("shared_bytes", std::int64_t(0)));
      spills += k.value("spill_stores", std::int64_t(0)) + k.value("spill_loads", std::int64_t(0));
    }
  if (kernels == 0) return "";
  return ", ptxas: " + std::to_string(kernels) + (kernels == 1 ? " kernel" : " kernels") + ", up to " +
         std::to_string(registers) + " registers, " + std::to_string(shared) + " B shared, " +
         (spills ? std::to_string(spills) + " B spilled" : std::string("no spills"));
}

// Stage 2, the builds: every entry that compiles code is built on --jobs runners (batch_prebuild.h), with a
// line per build and a summary. Entries not attempted get an empty outcome.
std::vector<PrebuildOutcome> prebuildStage(const std::vector<Entry>& todo, const BatchOptions& o,
                                           const supervisor::SupervisorOptions& supervisorOptions,
                                           const protocol::Options& options,
                                           const supervisor::InterruptCancel& interrupts) {
  if (o.noPrebuild) return std::vector<PrebuildOutcome>(todo.size());
  const auto started = std::chrono::steady_clock::now();
  std::size_t attempted = 0, finished = 0, failed = 0, hits = 0;
  std::vector<PrebuildOutcome> prebuilt = prebuildAll(
      todo, supervisorOptions, options, o.jobs, [&] { return interrupts.interrupted(); },
      [&](std::size_t i, const PrebuildOutcome& p, std::size_t done, std::size_t total) {
        attempted = total;
        ++finished;
        const Json* build = p.event.contains("result") ? &p.event["result"]["build"] : nullptr;
        const bool hit = build && build->value("cache_hit", false);
        hits += hit;
        failed += !build;
        std::cerr << "[build " << done << "/" << total << "] " << todo[i].task->key() << " "
                  << todo[i].candidate->id << ": ";
        if (build) {
          std::cerr << (hit ? "cached" : "built");
          std::size_t extensions = 0, rejected = 0;
          for (const Json& x : build->value("extensions", Json::array())) {
            ++extensions;
            rejected += !x.value("ok", true);
          }
          if (rejected)
            std::cerr << " (" << rejected << " of " << extensions
                      << " extensions do not compile; the program caught it)";
          std::cerr << ptxasSummary(*build);
        } else {
          std::string message = p.event["error"].value("message", "");
          message = message.substr(0, message.find('\n')).substr(0, 200);
          std::cerr << "error (" << p.event["error"].value("kind", "?") << ")"
                    << (message.empty() ? "" : ": " + message) << (p.final() ? ", not timed" : ", timed anyway");
        }
        std::cerr << ", " << int(p.seconds + 0.5) << " s\n";
      });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // Only builds that ended count as built: an interrupted stage names the ones it never finished (on the H100
  // a cut compile stage said "70 built" with about 26 published, and the timing runner compiled the rest).
  if (attempted > 0)
    std::cerr << "kscope batch: builds: " << attempted << " candidates compile code; " << hits
              << " from the cache, " << finished - hits - failed << " built, " << failed << " failed"
              << (finished < attempted ? ", " + std::to_string(attempted - finished) + " not finished" : "")
              << ", on " << std::min<std::size_t>(std::size_t(o.jobs), attempted) << " runners in "
              << int(seconds + 0.5) << " s\n";
  return prebuilt;
}

// Stage 3, the timing: one runner, or --timing-jobs runners sharing the GPU through a lock that gives each
// timing and profile the GPU alone (docs/cli.md). An entry that ran out of GPU memory beside the others is
// evaluated again afterwards, alone. Each entry's result is written (stage 4) as soon as it ends.
class TimingStage {
 public:
  TimingStage(const std::vector<Entry>& todo, const std::vector<PrebuildOutcome>& prebuilt,
              const BatchOptions& o, Sinks& sinks, const supervisor::InterruptCancel& interrupts,
              const std::map<const Candidate*, store::StoredRepair>& repairs)
      : m_todo(todo),
        m_prebuilt(prebuilt),
        m_o(o),
        m_sinks(sinks),
        m_interrupts(interrupts),
        m_repairs(repairs) {}

  // Runs every entry; returns kExitFailure when a result could not be recorded, 0 otherwise.
  int run(const supervisor::SupervisorOptions& supervisorOptions, const protocol::Options& options);
  bool writeFailed() const { return m_writeFailed; }

 private:
  bool stop() const { return m_interrupts.interrupted() || m_writeFailed; }
  // Evaluates entry `i` (or takes its final prebuild error) and writes it, unless interrupted or sent to
  // the retry-alone list.
  void evaluate(std::size_t i, supervisor::RunnerSupervisor& runner, const protocol::Options& options,
                bool shared, const std::string& gpu = "");
  // Stage 4, the write: the --out line, then the store row, then the progress line.
  // `end` is the entry's end typed, `event` its JSON for the line; `subject` what ran.
  void write(std::size_t i, Json line, const protocol::EndEvent& end, const Json& event,
             const runs::RunSubject& subject, double seconds);

  const std::vector<Entry>& m_todo;
  const std::vector<PrebuildOutcome>& m_prebuilt;
  const BatchOptions& m_o;
  Sinks& m_sinks;
  const supervisor::InterruptCancel& m_interrupts;
  const std::map<const Candidate*, store::StoredRepair>& m_repairs;  // --repair: what changed, per candidate
  std::mutex m_mutex;  // the sinks, the counters and the retry list, shared by the pool's runners
  std::atomic<bool> m_writeFailed{false};  // read by the pools' watcher threads
  int m_failure = 0;
  std::size_t m_finished = 0;
  std::vector<std::size_t> m_retryAlone;
};

int TimingStage::run(const supervisor::SupervisorOptions& supervisorOptions,
                     const protocol::Options& options) {
  protocol::Options timingOptions = options;
  supervisor::SupervisorOptions runners = supervisorOptions;
  if (m_o.timingJobs > 1) {
    std::error_code ec;
    std::filesystem::create_directories(supervisorOptions.scratchRoot, ec);
    timingOptions.gpuShare = (supervisorOptions.scratchRoot / "gpu-share.lock").string();
    // Each runner's scratch root is a folder below this one (RunnerPool), and a contained runner writes only
    // under its own (docs/security.md): the lock files it shares with the others lie here.
    runners.environment.emplace_back("KSCOPE_WRITABLE", supervisorOptions.scratchRoot.string());
  }
  const auto stopped = [this] { return stop(); };
  // A runner that is new (the first entry, or after a crash or timeout) is warmed before its entry when it
  // shares its GPU: the profiler's first session (5-7 s on the H100) then runs under the shared lock, not
  // inside a profile phase that holds the GPU alone while the other runners wait.
  const auto warmIfNew = [](supervisor::RunnerSupervisor& runner, const protocol::Options& withLock) {
    if (runner.runnerInfo()) return;
    protocol::Request warm;
    warm.id = "warm-up";
    warm.op = protocol::Op::WarmUp;
    warm.options = withLock;
    runner.request(std::move(warm));
  };
  const bool shared = m_o.timingJobs > 1;
  if (!m_o.gpuIds.empty()) {
    // --gpus: --timing-jobs runners per GPU (default one), each seeing only its own GPU; the runners of one GPU
    // share that GPU's lock (their checks side by side, each timing and profile alone on it). Runner w is on
    // GPU w mod n, so the first n runners start one on every GPU.
    const std::size_t gpus = m_o.gpuIds.size();
    const int workers = int(gpus) * m_o.timingJobs;
    RunnerPool pool(runners, "timing-gpu", workers);
    std::vector<std::vector<std::pair<std::string, std::string>>> perGpu;
    std::vector<protocol::Options> perWorkerOptions;
    for (int w = 0; w < workers; ++w) {
      const std::string& id = m_o.gpuIds[std::size_t(w) % gpus];
      perGpu.push_back(cluster::gpuRunnerEnvironment(id));
      protocol::Options o = timingOptions;
      if (shared) o.gpuShare = (supervisorOptions.scratchRoot / ("gpu-share-" + id + ".lock")).string();
      perWorkerOptions.push_back(std::move(o));
    }
    pool.setWorkerEnvironment(std::move(perGpu));
    pool.forEachOn(m_todo.size(), stopped,
                   [&](std::size_t i, supervisor::RunnerSupervisor& runner, int worker) {
                     const protocol::Options& o = perWorkerOptions[std::size_t(worker)];
                     if (shared) warmIfNew(runner, o);
                     evaluate(i, runner, o, shared, m_o.gpuIds[std::size_t(worker) % gpus]);
                   });
  } else {
    RunnerPool pool(runners, "timing", m_o.timingJobs);
    pool.forEach(m_todo.size(), stopped, [&](std::size_t i, supervisor::RunnerSupervisor& runner) {
      if (shared) warmIfNew(runner, timingOptions);
      evaluate(i, runner, timingOptions, shared);
    });
  }
  if (!m_retryAlone.empty() && !stop()) {
    std::sort(m_retryAlone.begin(), m_retryAlone.end());
    // Out of GPU memory beside other runners: again with the GPU alone (with --gpus, the first GPU's)
    RunnerPool alone(supervisorOptions, "timing-alone", 1);
    const std::string gpu = m_o.gpuIds.empty() ? std::string() : m_o.gpuIds.front();
    if (!gpu.empty()) alone.setWorkerEnvironment({cluster::gpuRunnerEnvironment(gpu)});
    alone.forEach(m_retryAlone.size(), stopped, [&](std::size_t k, supervisor::RunnerSupervisor& runner) {
      evaluate(m_retryAlone[k], runner, options, false, gpu);
    });
  }
  return m_failure;
}

void TimingStage::evaluate(std::size_t i, supervisor::RunnerSupervisor& runner,
                           const protocol::Options& options, bool shared, const std::string& gpu) {
  const Entry& e = m_todo[i];
  Json line = {{"task", e.task->key()},
               {"candidate", e.candidate->id},
               {"code_hash", e.codeHash},
               {"source_line", e.candidate->sourceLine}};
  runs::RunSubject subject{.sourceFile = m_o.file,
                           .taskKey = e.task->key(),
                           .candidateId = e.candidate->id,
                           .code = *e.candidate->code,
                           .repair = std::nullopt,
                           .gpu = gpu};
  if (const auto repaired = m_repairs.find(e.candidate); repaired != m_repairs.end()) {
    subject.repair = repaired->second;
    line["repair"] = store::repairJson(repaired->second);
  }
  if (!gpu.empty()) line["gpu"] = gpu;  // --gpus: the CUDA_VISIBLE_DEVICES id of the runner that measured it
  const auto started = std::chrono::steady_clock::now();
  const PrebuildOutcome& built = m_prebuilt[i];
  protocol::EndEvent end;
  Json event;
  if (built.final()) {
    end = built.end;
    event = built.event;
  } else {
    auto request = runs::evaluationRequest(*e.task, *e.candidate, options);
    if (auto* why = std::get_if<std::string>(&request)) {
      end = protocol::ErrorEvent{.id = "", .error = {.kind = protocol::ErrorKind::Protocol, .message = *why}};
      event = {{"event", "error"}, {"error", {{"kind", "protocol"}, {"message", *why}}}};
    } else {
      supervisor::PhaseTimes phaseTimes;
      end = runner
                .request(std::get<protocol::Request>(std::move(request)),
                         [&](const protocol::Event& ev) { phaseTimes.observe(ev); })
                .end;
      event = runs::endEventJson(end);
      line["phase_seconds"] = phaseTimes.finish();
    }
  }
  if (m_interrupts.interrupted()) return;  // not written: a resumed batch runs it again
  if (shared && ranOutOfGpuMemory(end)) {
    std::lock_guard lock(m_mutex);
    m_retryAlone.push_back(i);
    std::cerr << e.task->key() << " " << e.candidate->id
              << ": out of GPU memory beside the other runners; evaluated again alone at the end\n";
    return;
  }
  write(i, std::move(line), end, event, subject,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

void TimingStage::write(std::size_t i, Json line, const protocol::EndEvent& end, const Json& event,
                        const runs::RunSubject& subject, double seconds) {
  const Entry& e = m_todo[i];
  const PrebuildOutcome& built = m_prebuilt[i];
  const store::StoredResult row =
      runs::resultRow(store::fromEndEvent(end), subject, m_o.device, "kscope batch");
  line["outcome"] = row.outcome;
  if (row.speedup) line["speedup"] = *row.speedup;
  if (auto claimed = e.candidate->speedup()) line["recorded_speedup"] = *claimed;
  if (const std::string note = row.result ? runs::fallbackNote(row.result->build) : ""; !note.empty())
    line["fallback"] = note;
  line["device"] = row.device;
  if (line.contains("gpu")) {  // after device, beside it
    Json gpu = line["gpu"];
    line.erase("gpu");
    line["gpu"] = gpu;
  }
  line["recorded_at"] = row.recordedAt;
  line["seconds"] = seconds;  // the entry's wall time, runner start-ups and waits included
  if (built.attempted) {
    Json record = {{"seconds", built.seconds}};
    if (built.event.contains("result"))
      record["build"] = built.event["result"]["build"];
    else
      record["error"] = built.event["error"];
    line["prebuild"] = std::move(record);
  }
  line["event"] = event;
  std::lock_guard lock(m_mutex);
  m_sinks.out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
  if (!m_sinks.out) {
    m_writeFailed = true;
    return;
  }
  if (m_sinks.store) {
    if (const runs::RecordedResult recorded = runs::appendResult(*m_sinks.store, row);
        !recorded.storeError.empty()) {
      std::cerr << "kscope batch: error: " << recorded.storeError << "\n";
      m_failure = kExitFailure;
    }
  }
  std::cerr << "[" << ++m_finished << "/" << m_todo.size() << "] " << e.task->key() << " " << e.candidate->id
            << ": " << row.outcome;
  if (row.outcome == "error") std::cerr << " (" << row.errorKind << ")";
  if (line.contains("fallback")) std::cerr << " FALLBACK";
  if (row.speedup) std::cerr << " " << fixed2(*row.speedup) << "x";
  if (line.contains("recorded_speedup"))
    std::cerr << " (recorded " << fixed2(line["recorded_speedup"]) << "x)";
  // GEMM tasks: CUDA-L2's offline method over torch.matmul and cuBLAS-max, measured (recorded); the whole
  // table per baseline and method is in the JSON line's event (result.baselines) and in `kscope run`.
  if (row.result && row.result->baselines)
    for (const char* baseline : {"torch.matmul", "cuBLAS-max"})
      if (const auto* t = protocol::findTiming(*row.result->baselines, baseline, "cuda-l2-offline")) {
        std::cerr << "; offline over " << baseline << " " << fixed2(t->speedup);
        if (auto recorded = e.candidate->speedup(baseline, "offline"))
          std::cerr << " (recorded " << fixed2(*recorded) << ")";
      }
  std::cerr << ", " << int(seconds + 0.5) << " s\n";
}

// plan → open the sinks → prebuild → time and write.
int runBatch(BatchOptions& o) {
  if (!o.shard.empty()) {
    std::string why;
    o.chosenShard = cluster::parseShard(o.shard, &why);
    if (!o.chosenShard) {
      std::cerr << "kscope batch: error: --shard: " << why << "\n";
      return kExitFailure;
    }
  } else {
    const cluster::EnvironmentShard env = cluster::shardFromEnvironment([](const char* n) { return std::getenv(n); });
    if (!env.error.empty()) {
      std::cerr << "kscope batch: error: " << env.error << " (--shard i/N overrides)\n";
      return kExitFailure;
    }
    if (env.shard) {
      o.chosenShard = env.shard;
      std::cerr << "kscope batch: shard from " << env.source << "\n";
    }
  }
  if (!o.gpus.empty()) {
    const cluster::GpuList gpus = cluster::gpuList(o.gpus, [](const char* n) { return std::getenv(n); });
    if (!gpus.error.empty()) {
      std::cerr << "kscope batch: error: --gpus " << o.gpus << ": " << gpus.error << "\n";
      return kExitFailure;
    }
    o.gpuIds = gpus.ids;
    std::cerr << "kscope batch: timing on " << gpus.ids.size() << " GPU" << (gpus.ids.size() == 1 ? "" : "s")
              << " (" << gpus.source << "), "
              << (o.timingJobs == 1 ? std::string("one runner each")
                                    : std::to_string(o.timingJobs) +
                                          " runners each (checks side by side, each timing alone on its GPU)")
              << "\n";
  }
  LoadedInput input = loadInput(o.file);
  if (!input.usable) return kExitFailure;
  const int inputCode = exitCode();
  for (std::string& typed : o.tasks) {  // the one task-key rule of every command (core/model/task_lookup.h)
    const TaskLookup found = lookUpTask(input.run, typed, o.file);
    if (!found.task) {
      std::cerr << "kscope batch: error: " << found.error << "\n";
      return kExitFailure;
    }
    typed = found.task->key();
  }
  const std::map<const Candidate*, store::StoredRepair> repairs = applyRepairs(input.run, o);

  const std::vector<Entry> todo = planEntries(input.run, o);
  if (todo.empty()) {
    // A shard with nothing (left) to run still leaves its --out, so that `kscope merge` and
    // `kscope slurm --status` see it finished.
    if (!o.buildOnly && !std::ofstream(o.out, std::ios::app)) {
      std::cerr << "kscope batch: error: cannot write " << o.out << "\n";
      return kExitFailure;
    }
    return inputCode;
  }
  const supervisor::RunnerLocation runner = supervisor::findRunner(o.runner);
  if (!runner.found()) {
    std::cerr << "kscope batch: error: " << runner.error << "\n";
    return kExitFailure;
  }
  Sinks sinks;
  if (!openSinks(o, sinks)) return kExitFailure;

  // The stages never overlap (timing starts when every build has ended), so each shares the machine's
  // memory among its own runners: --jobs while building, --timing-jobs on each GPU while evaluating. (One
  // limit for both, divided by --jobs, stopped level-3 models at 6 GiB on a 256 GiB machine with 32 cores
  // and 8 evaluating runners: CUDA-L1 L2/34 and L3/6 on the two H200s, docs/multi-gpu.md.)
  const int evaluating = o.timingJobs * std::max(1, int(o.gpuIds.size()));
  const supervisor::ChosenMemoryLimit memory = supervisor::chooseMemoryLimit(o.memoryLimitMiB, evaluating);
  const supervisor::ChosenMemoryLimit buildMemory = supervisor::chooseMemoryLimit(o.memoryLimitMiB, o.jobs);
  std::cerr << "kscope batch: memory limit per runner " << memory.why;
  if (buildMemory.bytes != memory.bytes) std::cerr << "; while building: " << buildMemory.why;
  std::cerr << "\n";
  auto supervisorOptions = supervisor::clientSupervisorOptions(runner.path, o.device, memory.bytes);
  const auto buildOptions = supervisor::clientSupervisorOptions(runner.path, o.device, buildMemory.bytes);
  // Never started: the stages run their own runners (runner_pool.h) and cancel them on an interrupt; this
  // one gives InterruptCancel something to hold while it catches SIGINT and SIGTERM.
  supervisor::RunnerSupervisor idle(supervisorOptions);
  supervisor::InterruptCancel interrupts(idle);
  const protocol::Options options =
      runs::evaluateOptions({.device = o.device, .trials = o.trials, .seeds = o.seeds, .arch = o.arch});

  const std::vector<PrebuildOutcome> prebuilt =
      prebuildStage(todo, o, buildOptions, options, interrupts);
  if (interrupts.interrupted()) {
    std::cerr << "kscope batch: interrupted while building; run the same command again to resume\n";
    return kExitFailure;
  }
  if (o.buildOnly) return inputCode;

  TimingStage timing(todo, prebuilt, o, sinks, interrupts, repairs);
  const int failure = timing.run(supervisorOptions, options);
  if (timing.writeFailed()) {
    std::cerr << "kscope batch: error: cannot write " << o.out << "\n";
    return kExitFailure;
  }
  if (interrupts.interrupted()) {  // the entry in flight was not written: a resumed batch runs it again
    std::cerr << "kscope batch: interrupted; run the same command again to resume\n";
    return kExitFailure;
  }
  return std::max(inputCode, failure);
}

}  // namespace

void addBatchCommand(CLI::App& app) {
  auto o = std::make_shared<BatchOptions>();
  CLI::App* command = app.add_subcommand(
      "batch",
      "Re-run every candidate of a file: builds on N runners at once, then timing one at a time; resumable");
  command->add_option("file", o->file, "CUDA-L1 JSONL, kscope run file, KernelBench folder or .cu file")
      ->required();
  auto* out = command->add_option("--out", o->out, "JSON Lines results; entries already in it are skipped");
  command->add_option("--task", o->tasks, "Only these task keys (repeatable), e.g. --task L1/12, --task LayerNorm");
  command->add_option("--device", o->device, "cpu or cuda (default: cuda when available)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  command->add_option("--jobs", o->jobs, "Runners building at once before the timing (default: all cores)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--timing-jobs", o->timingJobs,
                   "Runners evaluating at once after the builds; checks share the GPU, timing and profile "
                   "hold it alone (default 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--trials", o->trials, "Timed trials per model (default 50 on cuda, 10 on cpu)")
      ->check(CLI::PositiveNumber);
  command->add_option("--seeds", o->seeds, "Correctness seeds (default 5)")->check(CLI::PositiveNumber);
  command->add_option("--memory-limit", o->memoryLimitMiB, "Stop the runner past this much resident memory, MiB (default: 3/4 of this machine's "
                      "memory; 0: no limit)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--no-prebuild", o->noPrebuild,
                    "No build stage: the timing runner builds each candidate when it gets to it");
  command
      ->add_flag("--build-only", o->buildOnly,
                 "Only the build stage: fill the build cache on N runners, time nothing")
      ->excludes("--no-prebuild");
  command->add_option("--runner", o->runner,
                      "kscope-runner executable (default: next to kscope, $KSCOPE_RUNNER)");
  auto* store = command->add_option("--store", o->store, "Results database (default: docs/store-schema.md)");
  command->add_flag("--no-store", o->noStore, "Do not record results in the database")->excludes(store);
  command->add_flag("--repair", o->repair, "Run each candidate's program with its mechanical build repairs");
  command->add_option("--arch", o->arch,
                      "Architecture that --repair writes into -arch flags, and the -arch of native (.cu) builds "
                      "(default: this GPU's; sm_90a on an H100)");
  command
      ->add_option("--shard", o->shard,
                   "Run shard i of N (0-based), e.g. 2/8: a fixed, disjoint part balanced by expected cost "
                   "(default inside a Slurm array task or Kubernetes indexed job: from its environment)");
  command
      ->add_option("--gpus", o->gpus,
                   "Time on every GPU listed, --timing-jobs runners on each (CUDA_VISIBLE_DEVICES): all, or "
                   "ids such as 0,1,3 (all: $KSCOPE_GPU_LIST, else $CUDA_VISIBLE_DEVICES, else the driver's)");
  command->callback([o, out] {
    if (out->count() == 0 && !o->buildOnly) throw CLI::RequiredError("--out");
    exitCode() = runBatch(*o);
  });
}

KS_REGISTER_COMMAND(addBatchCommand);

}  // namespace ks::cli
