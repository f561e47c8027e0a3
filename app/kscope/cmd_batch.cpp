// kscope batch FILE --out results.jsonl [--device cpu|cuda] [--jobs N] [--timing-jobs M]: re-runs every
// candidate of FILE. First every candidate that compiles something is built by N runners at once
// (batch_prebuild.h) into the runner's build cache; then the candidates are evaluated by M runners (default
// one), which find their extensions built. With M > 1 the runners share the GPU through a lock
// (core/engine/gpu_share.h): their checks run side by side, each timing and profile runs with the GPU to
// itself. A candidate whose build fails with compiler errors is reported without being timed.
// Resumable: an entry already in --out with the same task, candidate and code hash is skipped.
// One JSON line per candidate (keys: docs/cli.md, "kscope batch"); progress on stderr.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/kscope/batch_prebuild.h"
#include "app/kscope/runner_pool.h"
#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "core/hash/sha256.h"
#include "core/runs/evaluate_options.h"
#include "core/runs/result_row.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/store/utc_timestamp.h"
#include "core/supervisor/evaluation_request.h"
#include "core/supervisor/interrupt_cancel.h"
#include "core/supervisor/outcome_json.h"
#include "core/supervisor/phase_times.h"
#include "core/supervisor/runner_location.h"
#include "core/supervisor/runner_supervisor.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

struct BatchOptions {
  std::string file, out, device, runner, store;
  std::vector<std::string> tasks;
  int jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  int trials = 0, seeds = 0;
  double memoryLimitMiB = 0;
  int timingJobs = 1;  // runners evaluating at once in the timing stage, sharing the GPU
  bool noStore = false, noPrebuild = false, buildOnly = false;
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
    Json j = Json::parse(line, nullptr, false);
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
bool ranOutOfGpuMemory(const Json& event) {
  if (event.value("event", "") != "error" || !event.contains("error")) return false;
  std::string message = event["error"].value("message", "");
  std::transform(message.begin(), message.end(), message.begin(), [](unsigned char c) { return std::tolower(c); });
  return message.find("out of memory") != std::string::npos;
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

int runBatch(const BatchOptions& o) {
  LoadedInput input = loadInput(o.file);
  if (!input.usable) return kExitFailure;
  const int inputCode = exitCode();

  std::vector<Entry> all;
  for (const Task& t : input.run.tasks) {
    // Each --task as RunFile::findTask reads it: a whole key, or the unique tail of a named one.
    if (!o.tasks.empty() && std::none_of(o.tasks.begin(), o.tasks.end(),
                                         [&](const std::string& k) { return input.run.findTask(k) == &t; }))
      continue;
    for (const Candidate& c : t.candidates)
      if (c.code) all.push_back({&t, &c, hash::codeHash(*c.code)});
  }
  const std::set<std::string> done = finishedEntries(o.out);
  std::vector<Entry> todo;
  for (const Entry& e : all)
    if (!done.count(entryKey(e.task->key(), e.candidate->id, e.codeHash))) todo.push_back(e);
  std::cerr << "kscope batch: " << all.size() << " candidates with a program in " << o.file << "; "
            << all.size() - todo.size() << " already in " << (o.out.empty() ? "--out" : o.out) << ", "
            << todo.size() << " to run\n";
  if (todo.empty()) return inputCode;

  const supervisor::RunnerLocation runner = supervisor::findRunner(o.runner);
  if (!runner.found()) {
    std::cerr << "kscope batch: error: " << runner.error << "\n";
    return kExitFailure;
  }
  std::ofstream out;
  if (!o.buildOnly) {
    const bool newline = endsWithNewline(o.out);
    out.open(o.out, std::ios::app);
    if (!out) {
      std::cerr << "kscope batch: error: cannot write " << o.out << "\n";
      return kExitFailure;
    }
    if (!newline) out << "\n";
  }

  std::unique_ptr<store::ResultStore> store;
  if (!o.noStore && !o.buildOnly) {
    auto opened = store::ResultStore::open(o.store.empty() ? store::defaultStorePath()
                                                           : std::filesystem::path(o.store));
    if (!opened) {
      std::cerr << "kscope batch: error: " << opened.error << " (--no-store runs without recording)\n";
      return kExitFailure;
    }
    store = std::move(*opened.value);
  }

  auto supervisorOptions = supervisor::clientSupervisorOptions(runner.path, o.device,
                                                               std::uint64_t(o.memoryLimitMiB * 1024 * 1024));
  // Never started: the stages run their own runners (runner_pool.h) and cancel them on an interrupt; this
  // one gives InterruptCancel something to hold while it catches SIGINT and SIGTERM.
  supervisor::RunnerSupervisor idle(supervisorOptions);
  supervisor::InterruptCancel interrupts(idle);
  const protocol::Options options =
      runs::evaluateOptions({.device = o.device, .trials = o.trials, .seeds = o.seeds});

  std::vector<PrebuildOutcome> prebuilt(todo.size());
  if (!o.noPrebuild) {
    const auto started = std::chrono::steady_clock::now();
    std::size_t attempted = 0, failed = 0, hits = 0;
    prebuilt = prebuildAll(
        todo, supervisorOptions, options, o.jobs, [&] { return interrupts.interrupted(); },
        [&](std::size_t i, const PrebuildOutcome& p, std::size_t done, std::size_t total) {
          attempted = total;
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
          } else
            std::cerr << "error (" << p.event["error"].value("kind", "?") << ")"
                      << (p.final() ? ", not timed" : ", timed anyway");
          std::cerr << ", " << int(p.seconds + 0.5) << " s\n";
        });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (attempted > 0)
      std::cerr << "kscope batch: builds: " << attempted << " candidates compile code; " << hits
                << " from the cache, " << attempted - hits - failed << " built, " << failed
                << " failed, on " << std::min<std::size_t>(std::size_t(o.jobs), attempted) << " runners in "
                << int(seconds + 0.5) << " s\n";
  }
  if (interrupts.interrupted()) {
    std::cerr << "kscope batch: interrupted while building; run the same command again to resume\n";
    return kExitFailure;
  }
  if (o.buildOnly) return inputCode;

  // The timing stage: one runner, or --timing-jobs runners sharing the GPU through a lock that gives each
  // timing and profile the GPU alone (docs/cli.md). An entry that ran out of GPU memory beside the others
  // is evaluated again afterwards, alone.
  protocol::Options timingOptions = options;
  if (o.timingJobs > 1) {
    std::error_code ec;
    std::filesystem::create_directories(supervisorOptions.scratchRoot, ec);
    timingOptions.gpuShare = (supervisorOptions.scratchRoot / "gpu-share.lock").string();
  }
  int failure = 0;
  std::atomic<bool> writeFailed{false};  // read by the pools' watcher threads
  std::size_t finished = 0;
  std::mutex mutex;
  std::vector<std::size_t> retryAlone;
  auto runEntry = [&](std::size_t i, supervisor::RunnerSupervisor& runner, const protocol::Options& opts,
                      bool shared) {
    const Entry& e = todo[i];
    Json line = {{"task", e.task->key()},
                 {"candidate", e.candidate->id},
                 {"code_hash", e.codeHash},
                 {"source_line", e.candidate->sourceLine}};
    const auto started = std::chrono::steady_clock::now();
    const PrebuildOutcome& built = prebuilt[i];
    Json event;
    if (built.final()) {
      event = built.event;
    } else {
      auto request = supervisor::evaluationRequest(*e.task, *e.candidate, opts);
      if (auto* why = std::get_if<std::string>(&request))
        event = {{"event", "error"}, {"error", {{"kind", "protocol"}, {"message", *why}}}};
      else {
        supervisor::PhaseTimes phaseTimes;
        event = supervisor::endEventJson(
            runner.request(std::get<protocol::Request>(std::move(request)),
                           [&](const protocol::Event& ev) { phaseTimes.observe(ev); }));
        line["phase_seconds"] = phaseTimes.finish();
      }
    }
    if (interrupts.interrupted()) return;  // not written: a resumed batch runs it again
    if (shared && ranOutOfGpuMemory(event)) {
      std::lock_guard lock(mutex);
      retryAlone.push_back(i);
      std::cerr << e.task->key() << " " << e.candidate->id
                << ": out of GPU memory beside the other runners; evaluated again alone at the end\n";
      return;
    }
    const store::StoredResult row = runs::resultRow(event,
                                                    {.sourceFile = o.file,
                                                     .taskKey = e.task->key(),
                                                     .candidateId = e.candidate->id,
                                                     .code = *e.candidate->code},
                                                    o.device, "kscope batch");
    line["outcome"] = row.outcome;
    if (row.speedup) line["speedup"] = *row.speedup;
    if (auto claimed = e.candidate->speedup()) line["recorded_speedup"] = *claimed;
    line["device"] = row.device;
    line["recorded_at"] = store::utcTimestampNow();
    if (built.attempted) {
      Json record = {{"seconds", built.seconds}};
      if (built.event.contains("result"))
        record["build"] = built.event["result"]["build"];
      else
        record["error"] = built.event["error"];
      line["prebuild"] = std::move(record);
    }
    line["event"] = event;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::lock_guard lock(mutex);
    out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
    if (!out) {
      writeFailed = true;
      return;
    }
    if (store) {
      if (auto appended = store->append(row); !appended) {
        std::cerr << "kscope batch: error: " << appended.error << "\n";
        failure = kExitFailure;
      }
    }
    std::cerr << "[" << ++finished << "/" << todo.size() << "] " << e.task->key() << " " << e.candidate->id
              << ": " << row.outcome;
    if (row.outcome == "error") std::cerr << " (" << row.errorKind << ")";
    if (row.speedup) std::cerr << " " << fixed2(*row.speedup) << "x";
    if (line.contains("recorded_speedup"))
      std::cerr << " (recorded " << fixed2(line["recorded_speedup"]) << "x)";
    std::cerr << ", " << int(seconds + 0.5) << " s\n";
  };
  const auto stop = [&] { return interrupts.interrupted() || writeFailed; };
  {
    RunnerPool pool(supervisorOptions, "timing", o.timingJobs);
    pool.forEach(todo.size(), stop, [&](std::size_t i, supervisor::RunnerSupervisor& runner) {
      // A runner that is new (the first entry, or after a crash or timeout) is warmed before its entry: the
      // profiler's first session (5-7 s on the H100) then runs under the shared lock, not inside a profile
      // phase that holds the GPU alone while the other runners wait.
      if (o.timingJobs > 1 && !runner.runnerInfo()) {
        protocol::Request warm;
        warm.id = "warm-up";
        warm.op = protocol::Op::WarmUp;
        warm.options = timingOptions;
        runner.request(std::move(warm));
      }
      runEntry(i, runner, timingOptions, o.timingJobs > 1);
    });
  }
  if (!retryAlone.empty() && !stop()) {
    std::sort(retryAlone.begin(), retryAlone.end());
    RunnerPool alone(supervisorOptions, "timing-alone", 1);
    alone.forEach(retryAlone.size(), stop, [&](std::size_t k, supervisor::RunnerSupervisor& runner) {
      runEntry(retryAlone[k], runner, options, false);
    });
  }
  if (writeFailed) {
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
  command->add_option("--timing-jobs", o->timingJobs,
                      "Runners evaluating at once after the builds; checks share the GPU, timing and profile "
                      "hold it alone (default 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--trials", o->trials, "Timed trials per model (default 50 on cuda, 10 on cpu)")
      ->check(CLI::PositiveNumber);
  command->add_option("--seeds", o->seeds, "Correctness seeds (default 5)")->check(CLI::PositiveNumber);
  command->add_option("--memory-limit", o->memoryLimitMiB, "Stop the runner past this much memory, MiB")
      ->check(CLI::PositiveNumber);
  command->add_flag("--no-prebuild", o->noPrebuild,
                    "No build stage: the timing runner builds each candidate when it gets to it");
  command->add_flag("--build-only", o->buildOnly,
                    "Only the build stage: fill the build cache on N runners, time nothing")
      ->excludes("--no-prebuild");
  command->add_option("--runner", o->runner,
                      "kscope-runner executable (default: next to kscope, $KSCOPE_RUNNER)");
  auto* store = command->add_option("--store", o->store, "Results database (default: docs/store-schema.md)");
  command->add_flag("--no-store", o->noStore, "Do not record results in the database")->excludes(store);
  command->callback([o, out] {
    if (out->count() == 0 && !o->buildOnly) throw CLI::RequiredError("--out");
    exitCode() = runBatch(*o);
  });
}

KS_REGISTER_COMMAND(addBatchCommand);

}  // namespace ks::cli
