// kscope run FILE [--task L/T] [--candidate ID | --code PATH] [--device cpu|cuda] [--trials N] [--seeds N]
// [--json]: re-runs one candidate through kscope-runner (built, checked and timed against its reference),
// prints what happened and appends it to the results store. Exit: 0 correct, 1 incorrect, 2 error.
// When a `kscope serve` with the same runner, --device and --memory-limit is up, the request goes to its warm
// runner (no start-up: a re-time in about 1.5 s on the H100 machine instead of 16 s); --no-server opts out.
// Keys of --json: docs/cli.md, "kscope run".
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "app/kscope/candidate_repair.h"
#include "app/kscope/check_compile.h"
#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "app/kscope/terminal_output.h"
#include "core/hash/sha256.h"
#include "core/model/task_lookup.h"
#include "core/nvcc/gpu_arch.h"
#include "core/protocol/json_codec.h"
#include "core/runs/candidate_history.h"
#include "core/runs/cuda_l1_gap.h"
#include "core/runs/evaluate_options.h"
#include "core/runs/evaluation_request.h"
#include "core/runs/fallback_note.h"
#include "core/runs/gemm_baseline_table.h"
#include "core/runs/outcome_json.h"
#include "core/runs/program_compile.h"
#include "core/runs/record_result.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/supervisor/interrupt_cancel.h"
#include "core/supervisor/phase_times.h"
#include "core/supervisor/runner_location.h"
#include "core/supervisor/runner_supervisor.h"
#include "core/supervisor/server_client.h"
#include "core/supervisor/server_socket.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kExitCorrect = 0, kExitIncorrect = 1, kExitError = 2;

struct RunOptions {
  std::string file, task, candidate, code, device, runner, store;
  int trials = 0, seeds = 0;
  double memoryLimitMiB = -1;  // < 0: supervisor::chooseMemoryLimit's default; 0: none
  bool json = false, noStore = false, keepScratch = false, noServer = false;
  bool repair = false;  // --repair: run the repaired program (candidate_repair.h)
  std::string arch;     // --arch: what arch-flag repairs write (default: this machine's GPU)
  // --time-fallback: run a program that builds CUDA even on a machine without a GPU (its PyTorch fallback
  // is timed); without it such a program is compiled with nvcc instead (core/runs/program_compile.h).
  bool timeFallback = false;
  std::vector<double> gemmSeconds;                 // --gemm-seconds WARMUP,SECONDS
  std::vector<std::string> gemmBaselines, gemmMethods;  // --gemm-baseline, --gemm-method (repeatable)
  // CUDA-L1's own evaluation: --cuda-l1-eval asks for it, --cuda-l1-trials G,P with these global and
  // performance trials; --no-cuda-l1-eval leaves it out where it is the default (runs::cudaL1EvalByDefault).
  bool cudaL1Eval = false, noCudaL1Eval = false;
  std::vector<int> cudaL1Trials;
};

// The candidate to run and how to name its place in messages: "FILE:14" or the --code path.
struct Chosen {
  Candidate candidate;
  std::string where;
  bool fromCodeFile = false;
};

std::string joinKeys(const RunFile& run) {
  std::string keys;
  for (std::size_t i = 0; i < run.tasks.size() && i < 20; ++i) keys += (i ? ", " : "") + run.tasks[i].key();
  return run.tasks.size() > 20 ? keys + ", …" : keys;
}

const Task* pickTask(const RunFile& run, const RunOptions& o, std::string& error) {
  if (o.task.empty()) {
    if (run.tasks.size() == 1) return &run.tasks.front();
    error = o.file + " has " + std::to_string(run.tasks.size()) + " tasks: choose one with --task (" +
            joinKeys(run) + ")";
    return nullptr;
  }
  TaskLookup found = lookUpTask(run, o.task, o.file);  // the one rule of every command (task_lookup.h)
  error = std::move(found.error);
  return found.task;
}

std::optional<Chosen> pickCandidate(const Task& task, const RunOptions& o, std::string& error) {
  if (!o.code.empty()) {
    std::ifstream in(o.code, std::ios::binary);
    if (!in) {
      error = "cannot read --code " + o.code;
      return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    Candidate c;
    c.id = o.code;
    c.code = text.str();
    const auto ext = std::filesystem::path(o.code).extension();
    c.language = ext == ".cu" || ext == ".cuh" ? CodeLanguage::Cuda : CodeLanguage::Python;
    return Chosen{std::move(c), o.code, true};
  }
  auto where = [&](const Candidate& c) {
    return o.file + (c.sourceLine > 0 ? ":" + std::to_string(c.sourceLine) : "");
  };
  if (!o.candidate.empty()) {
    for (const Candidate& c : task.candidates)
      if (c.id == o.candidate) return Chosen{c, where(c), false};
    std::string ids;
    for (const Candidate& c : task.candidates) ids += (ids.empty() ? "" : ", ") + c.id;
    error = "task " + task.key() + " in " + o.file + " has no candidate " + o.candidate +
            (ids.empty() ? " (it has none)" : " (candidates: " + ids + ")");
    return std::nullopt;
  }
  std::vector<const Candidate*> runnable;
  for (const Candidate& c : task.candidates)
    if (c.code) runnable.push_back(&c);
  if (runnable.size() == 1) return Chosen{*runnable.front(), where(*runnable.front()), false};
  std::string ids;
  for (const Candidate* c : runnable) ids += (ids.empty() ? "" : ", ") + c->id;
  error = runnable.empty() ? "task " + task.key() + " in " + o.file +
                                 " has no candidate with a program: pass one "
                                 "with --code PATH"
                           : "task " + task.key() + " has " + std::to_string(runnable.size()) +
                                 " candidates with a program: choose one with --candidate (" + ids + ")";
  return std::nullopt;
}

// "FILE:14: candidate r2, line 48 of its program", or "kernel.py:48" for --code.
std::string programPlace(const Chosen& chosen, const Task& task, const RunOptions& o,
                         const std::string& program, std::optional<int> line) {
  if (program == "reference") {
    std::string place = o.file + (task.sourceLine > 0 ? ":" + std::to_string(task.sourceLine) : "") +
                        ": reference of " + task.key();
    return line ? place + ", line " + std::to_string(*line) + " of its program" : place;
  }
  if (chosen.fromCodeFile) return line ? chosen.where + ":" + std::to_string(*line) : chosen.where;
  std::string place = chosen.where + ": candidate " + chosen.candidate.id;
  return line ? place + ", line " + std::to_string(*line) + " of its program" : place;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string general(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

void printResult(const protocol::EvaluateResult& r, const Chosen& chosen, const Task& task) {
  std::cout << task.key() << " " << chosen.candidate.id << " (" << chosen.where << ")\n";
  if (const std::string note = runs::fallbackNote(r.build); !note.empty())
    std::cout << "  FALLBACK  " << note << "\n";
  const auto& env = r.environment;
  std::cout << "  device    " << (env.deviceName.empty() ? r.device : env.deviceName);
  if (!env.torch.empty())
    std::cout << " (torch " << env.torch << (env.cuda.empty() ? "" : ", CUDA " + env.cuda) << ")";
  std::cout << "\n";
  if (const auto& k = env.containment) {  // docs/security.md: what kept the candidate in, and what did not
    std::cout << "  contained filesystem "
              << (k->filesystem == "landlock" ? "landlock " + std::to_string(k->landlockAbi) : "NOT LIMITED")
              << ", network " << (k->network == "none" ? "NOT FILTERED" : k->network) << ", processes "
              << (k->processes == "none" ? "NOT REAPED" : k->processes) << ", build cache "
              << (k->buildCache == "none" ? "NOT SEALED" : k->buildCache) << "\n";
    for (const std::string& note : k->notes) std::cout << "            " << note << "\n";
  }
  const auto& c = r.correctness;
  std::size_t passedSeeds = 0;
  double maxAbs = 0;
  for (const auto& s : c.seeds) {
    passedSeeds += s.passed;
    maxAbs = std::max(maxAbs, s.maxAbsErr);
  }
  std::cout << "  correct   " << (c.passed ? "yes" : "NO") << ": " << passedSeeds << " of " << c.seeds.size()
            << " seeds within tolerance, max abs error " << general(maxAbs) << "\n";
  for (const auto& s : c.seeds)
    if (!s.passed && !s.message.empty())
      std::cout << "            seed " << s.seed << ": " << s.message << "\n";
  if (c.inputsMutated) std::cout << "            the candidate changed an input it was given\n";
  if (r.gemm)
    std::cout << "  gemm      " << r.gemm->m << "x" << r.gemm->n << "x" << r.gemm->k
              << (r.gemm->padded() ? ", the kernel ran zero-padded to " + std::to_string(r.gemm->paddedM) + "x" +
                                         std::to_string(r.gemm->paddedN) + "x" + std::to_string(r.gemm->paddedK) +
                                         " (its tile), output cropped"
                                   : ", not padded")
              << "; checked against the float32 product\n";
  if (r.timing) {
    const auto& t = *r.timing;
    std::cout << "  speedup   " << fixed(t.speedup, 2) << "x";
    if (t.speedupCi95)
      std::cout << " (95% interval " << fixed(t.speedupCi95->low, 2) << "-" << fixed(t.speedupCi95->high, 2)
                << "x)";
    std::cout << "  reference " << fixed(t.reference.medianMs, 3) << " ms, candidate "
              << fixed(t.candidate.medianMs, 3) << " ms (median of " << t.trials << " trials, " << t.clock
              << ")\n";
    for (const auto& [name, s] : {std::pair{"reference", t.reference}, {"candidate", t.candidate}})
      if (s.hostBound())
        std::cout << "            host-bound " << name << ": its kernels kept the GPU busy "
                  << fixed(100 * *s.busy(), 0) << "% of its median call; the speedup moves with the CPU\n";
    if (t.pinnedCpu) {
      const bool process = t.cpuPin == protocol::CpuPinScope::Process;
      std::cout << "            pinned: " << (process ? "every runner thread" : "the timing thread")
                << " on cpu " << *t.pinnedCpu << "\n";
    }
    if (protocol::cudnnAutotuned(r.torchSettingsChanged))
      std::cout
          << "            autotuned: a program turned on cudnn.benchmark; cuDNN may pick other algorithms "
             "in the next run\n";
  } else {
    std::cout << "  timing    " << (r.timingNote.empty() ? "not timed" : r.timingNote) << "\n";
  }
  if (auto claimed = chosen.candidate.speedup())
    std::cout << "  recorded  " << fixed(*claimed, 2) << "x claimed in the file\n";
  // CUDA-L1's own evaluation beside KernelScope's, and why they differ where they do (core/runs/cuda_l1_gap.h).
  for (const std::string& line : runs::cudaL1Lines(r)) std::cout << "  cuda-l1   " << line << "\n";
  if (task.gemm) {  // CUDA-L2's tables: over torch.matmul, by its own offline and server methods
    const auto offline = chosen.candidate.speedup("torch.matmul", "offline");
    const auto server = chosen.candidate.speedup("torch.matmul", "server");
    if (offline || server)
      std::cout << "  recorded  over torch.matmul: " << (offline ? fixed(*offline, 2) + "x offline" : "")
                << (offline && server ? ", " : "") << (server ? fixed(*server, 2) + "x server" : "")
                << " (CUDA-L2's timing methods; the speedup above is KernelScope's)\n";
    // Per baseline and timing method, measured (recorded): core/runs/gemm_baseline_table.h.
    if (r.baselines) {
      std::cout << "  baselines speedup measured (recorded) per timing method, rounds in parentheses:\n";
      for (const std::string& line : runs::gemmBaselineLines(runs::gemmBaselineTable(*r.baselines, chosen.candidate)))
        std::cout << "            " << line << "\n";
    }
  }
  std::cout << "  build     " << fixed(r.build.seconds, 1) << " s" << (r.build.cacheHit ? " (cache hit)" : "")
            << "\n";
}

void printError(const protocol::ErrorInfo& e, const Chosen& chosen, const Task& task, const RunOptions& o) {
  std::cout << task.key() << " " << chosen.candidate.id << " (" << chosen.where
            << "): " << protocol::errorKindName(e.kind) << " error"
            << (e.phase.empty() ? "" : " during " + e.phase) << "\n  ";
  if (!e.program.empty() || e.line) std::cout << programPlace(chosen, task, o, e.program, e.line) << ": ";
  std::cout << e.message << "\n";
  for (const auto& d : e.diagnostics) {
    if (d.severity != "error") continue;
    std::cout << "  " << d.file << (d.line > 0 ? ":" + std::to_string(d.line) : "")
              << (d.pythonLine ? " (Python line " + std::to_string(*d.pythonLine) + ")" : "")
              << ": error: " << d.message << "\n";
  }
  if (!e.traceback.empty()) {
    const auto& f = e.traceback.back();
    std::cout << "  at " << f.file << ":" << f.line << " in " << f.function
              << (f.text.empty() ? "" : ": " + f.text) << "\n";
  }
  if (!e.stderrTail.empty() &&
      (e.kind == protocol::ErrorKind::Crash || e.kind == protocol::ErrorKind::Timeout ||
       e.kind == protocol::ErrorKind::Memory || e.kind == protocol::ErrorKind::Processes)) {
    std::cout << "  last lines of the runner's stderr:\n";
    std::istringstream tail(e.stderrTail);
    for (std::string line; std::getline(tail, line);) std::cout << "    " << line << "\n";
  }
}

// Appends the outcome to the store; returns {path, row id} or prints why not and returns nullopt.
std::optional<std::pair<std::string, std::int64_t>> record(store::StoredResult end, const Chosen& chosen,
                                                           const Task& task, const RunOptions& o,
                                                           std::optional<store::StoredRepair> repair) {
  const auto path = o.store.empty() ? store::defaultStorePath() : std::filesystem::path(o.store);
  auto opened = store::ResultStore::open(path);
  if (!opened) {
    std::cerr << "kscope run: error: the result was not recorded: " << opened.error
              << " (--no-store runs without recording)\n";
    return std::nullopt;
  }
  const runs::RunSubject subject{.sourceFile = chosen.fromCodeFile ? chosen.where : o.file,
                                 .taskKey = task.key(),
                                 .candidateId = chosen.candidate.id,
                                 .code = chosen.candidate.code.value_or(""),
                                 .repair = std::move(repair)};
  const runs::RecordedResult recorded =
      runs::recordResult(**opened.value, std::move(end), subject, o.device, "kscope run");
  if (!recorded.storeError.empty()) {
    std::cerr << "kscope run: error: the result was not recorded: " << recorded.storeError << "\n";
    return std::nullopt;
  }
  return std::pair{path.string(), recorded.row.id};
}

// With --repair: the newest run in the store of the program as the file has it (not repaired) that fell
// back to PyTorch and was timed — the fallback's number to show beside the repaired kernel's.
std::optional<runs::MeasuredRun> earlierFallback(const RunOptions& o, const Chosen& chosen, const Task& task,
                                                 const AppliedRepair& repaired) {
  const auto path = o.store.empty() ? store::defaultStorePath() : std::filesystem::path(o.store);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  auto opened = store::ResultStore::open(path);
  if (!opened) return std::nullopt;
  auto history =
      runs::candidateHistory(**opened.value, {.sourceFile = chosen.fromCodeFile ? chosen.where : o.file,
                                              .taskKey = task.key(),
                                              .candidateId = chosen.candidate.id,
                                              .recordedCodeHash = repaired.originalCodeHash});
  if (!history) return std::nullopt;
  const runs::MeasuredRun* run = runs::latestFallbackRun(*history.value, repaired.originalCodeHash);
  return run ? std::optional<runs::MeasuredRun>(*run) : std::nullopt;
}

// What the runner's hello says it evaluates on: "cuda" when its torch sees a GPU, else "cpu" (whatever
// --device asks for). nullopt when it does not answer: the run itself then says why.
std::optional<std::string> runnerDevice(supervisor::RunnerClient& client) {
  protocol::Request hello;
  hello.op = protocol::Op::Hello;
  const supervisor::RequestOutcome outcome = client.request(hello);
  if (!outcome.isResult()) return std::nullopt;
  auto environment = protocol::decodeHelloPayload(outcome.result()->result);
  if (!environment.value) return std::nullopt;
  return environment.value->device;
}

// No GPU here and the program builds CUDA: what the GUI's Run does there too. Compiles the program's CUDA
// with nvcc for --arch (default this machine's GPU, else sm_90a), prints nvcc's errors on their Python
// lines, and says that nothing was checked or timed. Returns the exit code: 2, nothing was run.
int compileInstead(const RunOptions& o, const Chosen& chosen, const Task& task,
                   const std::optional<AppliedRepair>& repaired, const std::string& server) {
  const std::string arch = nvcc::targetArch(o.arch);
  const std::string& program = *chosen.candidate.code;
  std::cerr << "kscope run: " << task.key() << " " << chosen.candidate.id << " (" << chosen.where
            << "): no GPU here: compiling its CUDA with nvcc for " << arch << " instead of running it\n";
  const runs::ProgramCompile compiled = runs::compileProgram(program, arch);
  std::string why =
      "nothing was checked or timed: this machine has no GPU (the runner's torch sees no CUDA device), where "
      "torch cannot build the program's CUDA extension, so it was compiled with nvcc for ";
  why += arch + " instead; --time-fallback runs it anyway and times its PyTorch fallback on the CPU";
  if (o.json) {
    Json out = {{"file", o.file}, {"task", task.key()}, {"candidate", chosen.candidate.id}};
    if (!chosen.fromCodeFile) out["source_line"] = chosen.candidate.sourceLine;
    out["code_hash"] = hash::codeHash(program);
    out["outcome"] = "error";
    if (auto claimed = chosen.candidate.speedup()) out["recorded_speedup"] = *claimed;
    if (repaired) out["repair"] = repairJson(*repaired);
    Json instead = {{"why", why}, {"arch", arch}, {"summary", runs::compileSummary(compiled, program)}};
    if (compiled.error.empty())
      instead.update(compileJson(compiled));
    else
      instead["error"] = compiled.error;
    out["compiled_instead"] = std::move(instead);
    out["server"] = server.empty() ? Json(nullptr) : Json(server);
    out["stored"] = nullptr;
    std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    return kExitError;
  }
  std::cout << task.key() << " " << chosen.candidate.id << " (" << chosen.where << ")\n"
            << "  no GPU    " << why << "\n"
            << "  compile   " << runs::compileSummary(compiled, program) << "\n";
  if (compiled.error.empty()) printCompileDetails(std::cout, compiled);
  return kExitError;
}

int runOne(const RunOptions& o) {
  LoadedInput input = loadInput(o.file);
  if (!input.usable) return kExitError;
  std::string error;
  const Task* task = pickTask(input.run, o, error);
  std::optional<Chosen> chosen = task ? pickCandidate(*task, o, error) : std::nullopt;
  if (!chosen) {
    std::cerr << "kscope run: error: " << error << "\n";
    return kExitError;
  }
  std::optional<AppliedRepair> repaired;
  if (o.repair) {
    repaired = repairCandidate(chosen->candidate, nvcc::targetArch(o.arch));
    std::cerr << "kscope run: --repair: "
              << (repaired ? repair::describeRepairs(repaired->repairs) : "nothing to repair\n");
    if (repaired)
      for (const std::string& why : repaired->notRepaired) std::cerr << "  not repaired: " << why << "\n";
  }
  const protocol::Options options =
      runs::evaluateOptions({.device = o.device,
                             .trials = o.trials,
                             .seeds = o.seeds,
                             .arch = o.arch,
                             .gemmWarmupSeconds = o.gemmSeconds.size() == 2 ? o.gemmSeconds[0] : -1,
                             .gemmSeconds = o.gemmSeconds.size() == 2 ? o.gemmSeconds[1] : -1,
                             .gemmBaselines = o.gemmBaselines,
                             .gemmMethods = o.gemmMethods});
  auto request = runs::evaluationRequest(*task, chosen->candidate, options);
  if (auto* why = std::get_if<std::string>(&request)) {
    std::cerr << "kscope run: error: " << chosen->where << ": " << *why << "\n";
    return kExitError;
  }
  const supervisor::RunnerLocation runner = supervisor::findRunner(o.runner);
  if (!runner.found()) {
    std::cerr << "kscope run: error: " << runner.error << "\n";
    return kExitError;
  }
  const supervisor::ChosenMemoryLimit memory = supervisor::chooseMemoryLimit(o.memoryLimitMiB);
  const auto memoryBytes = memory.bytes;
  // A `kscope serve` for the same runner, device and memory limit answers with its warm runner; otherwise
  // this call starts (and ends) a runner of its own. --keep-scratch needs our own runner's scratch folders.
  std::unique_ptr<supervisor::RunnerClient> client;
  std::string server;
  if (!o.noServer && !o.keepScratch) {
    if (auto remote = supervisor::ServerClient::connect(
            supervisor::serverSocketPath(runner.path, o.device, memoryBytes))) {
      server = remote->socket().string();
      client = std::move(remote);
    }
  }
  if (!client) {
    auto supervisorOptions = supervisor::clientSupervisorOptions(runner.path, o.device, memoryBytes);
    supervisorOptions.keepScratch = o.keepScratch;
    client = std::make_unique<supervisor::RunnerSupervisor>(supervisorOptions);
  }
  // No GPU here and the program builds CUDA: torch would fail in its architecture detection before nvcc
  // ran, and the run would time the PyTorch fallback or end in that failure. As the GUI's Run does, compile
  // it instead (one rule: runs::compilesInsteadOfRunning); --time-fallback runs it anyway.
  if (!o.timeFallback && chosen->candidate.language == CodeLanguage::Python &&
      runs::buildsCudaExtension(*chosen->candidate.code)) {
    const std::optional<std::string> device = runnerDevice(*client);
    if (device && runs::compilesInsteadOfRunning(*device, *chosen->candidate.code, false))
      return compileInstead(o, *chosen, *task, repaired, server);
  }
  if (chosen->candidate.language == CodeLanguage::Python && !o.noCudaL1Eval) {
    const bool asked = o.cudaL1Eval || !o.cudaL1Trials.empty();
    bool byDefault = false;
    if (!asked && (input.run.format == "cuda-l1" || chosen->candidate.id == "cuda-l1")) {
      const std::optional<std::string> device = o.device.empty() ? runnerDevice(*client) : o.device;
      byDefault = device && runs::cudaL1EvalByDefault(input.run.format, chosen->candidate.id, *device);
    }
    if (asked || byDefault) {
      protocol::Options::CudaL1EvalOptions l1;
      if (o.cudaL1Trials.size() == 2) {
        l1.globalTrials = o.cudaL1Trials[0];
        l1.perfTrials = o.cudaL1Trials[1];
      }
      std::get<protocol::Request>(request).options.cudaL1Eval = l1;
    }
  }
  supervisor::InterruptCancel interrupts(*client);
  const bool tty = isatty(STDERR_FILENO);
  std::cerr << "kscope run: " << task->key() << " " << chosen->candidate.id << " (" << chosen->where << ")"
            << (server.empty() ? "" : " on the runner of kscope serve (" + server + ")") << "; memory limit "
            << memory.why << "\n";
  supervisor::PhaseTimes phaseTimes;
  supervisor::RequestOutcome outcome =
      client->request(std::get<protocol::Request>(std::move(request)), [&](const protocol::Event& event) {
        phaseTimes.observe(event);
        if (tty && (std::holds_alternative<protocol::PhaseEvent>(event) ||
                    std::holds_alternative<protocol::ProgressEvent>(event) ||
                    std::holds_alternative<protocol::BuildEvent>(event)))
          terminalControl(std::cerr, kClearLine);
        if (auto* p = std::get_if<protocol::PhaseEvent>(&event))
          std::cerr << "  " << protocol::phaseName(p->phase) << (tty ? "" : "\n");
        else if (auto* g = std::get_if<protocol::ProgressEvent>(&event); g && tty)
          std::cerr << "  " << protocol::phaseName(g->phase) << " " << g->done << "/" << g->total;
        else if (auto* b = std::get_if<protocol::BuildEvent>(&event))
          std::cerr << "  " << runs::buildEventNote(*b) << "\n";
      });
  if (tty) terminalControl(std::cerr, kClearLine);

  // The answer, typed once: what is printed and the row that is recorded.
  store::StoredResult end = store::fromEndEvent(outcome.end);
  int code = kExitError;
  const std::optional<protocol::EvaluateResult> result = end.result;
  if (result)
    code = result->correctness.passed ? kExitCorrect : kExitIncorrect;
  else if (outcome.isResult())
    std::cerr << "kscope run: error: the runner's result does not read as an evaluation: " << end.unreadable
              << "\n";
  // Read before this run is recorded: only earlier runs of the un-repaired program count.
  const std::optional<runs::MeasuredRun> fallbackBefore =
      repaired ? earlierFallback(o, *chosen, *task, *repaired) : std::nullopt;
  std::optional<std::pair<std::string, std::int64_t>> stored;
  // A run the user stopped is not a result; nor is a result this program cannot read (the runner client
  // accepted it, so it always reads: never record what was not understood as a verdict).
  if (!o.noStore && !interrupts.interrupted() && (end.result || end.error)) {
    stored = record(std::move(end), *chosen, *task, o,
                    repaired ? std::optional(storedRepair(*repaired)) : std::nullopt);
    if (!stored) code = kExitError;
  }

  if (o.json) {
    Json out = {{"file", o.file}, {"task", task->key()}, {"candidate", chosen->candidate.id}};
    if (!chosen->fromCodeFile) out["source_line"] = chosen->candidate.sourceLine;
    out["code_hash"] = hash::codeHash(chosen->candidate.code.value_or(""));
    out["outcome"] = code == kExitCorrect ? "correct" : code == kExitIncorrect ? "incorrect" : "error";
    if (auto claimed = chosen->candidate.speedup()) out["recorded_speedup"] = *claimed;
    if (const std::string note = result ? runs::fallbackNote(result->build) : ""; !note.empty())
      out["fallback"] = note;
    if (repaired) out["repair"] = repairJson(*repaired);
    if (fallbackBefore)
      out["fallback_before"] = {{"speedup", *fallbackBefore->row.speedup},
                                {"id", fallbackBefore->row.id},
                                {"recorded_at", fallbackBefore->row.recordedAt}};
    out["phase_seconds"] = phaseTimes.finish();
    out["server"] = server.empty() ? Json(nullptr) : Json(server);
    out["memory_limit"] = {{"mib", memory.bytes >> 20}, {"why", memory.why}};
    out["event"] = runs::endEventJson(outcome.end);
    out["stored"] = stored ? Json{{"path", stored->first}, {"id", stored->second}} : Json(nullptr);
    std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else if (result) {
    printResult(*result, *chosen, *task);
    if (fallbackBefore) {
      std::cout << "  before    the program as the file has it fell back to PyTorch: the fallback's "
                << fixed(*fallbackBefore->row.speedup, 2) << "x (results row " << fallbackBefore->row.id
                << ", " << fallbackBefore->row.recordedAt << ")";
      if (result->timing && runs::fallbackNote(result->build).empty())
        std::cout << "; the repaired kernel's " << fixed(result->timing->speedup, 2) << "x";
      std::cout << "\n";
    }
    std::string phases;
    const Json wall = phaseTimes.finish();
    for (const auto& [phase, seconds] : wall.items()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%s %.1f s", phases.empty() ? "" : ", ", phase.c_str(),
                    seconds.get<double>());
      phases += buf;
    }
    std::cerr << "wall time: " << phases << "\n";
  } else if (outcome.error()) {
    printError(outcome.error()->error, *chosen, *task, o);
  }
  return code;
}

}  // namespace

void addRunCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run",
      "Re-run one candidate on this machine: build, check against the reference, time; record the result");
  command->add_option("file", o->file, "CUDA-L1 JSONL, kscope run file, KernelBench folder or .cu file")
      ->required();
  command->add_option("--task", o->task,
                      "Task key, e.g. L1/12 or 1/12 (optional when the file has one task)");
  auto* candidate = command->add_option("--candidate", o->candidate, "Candidate id within the task");
  command->add_option("--code", o->code, "Run this program (.py, or .cu with a // kscope: header) instead")
      ->excludes(candidate);
  command->add_option("--device", o->device, "cpu or cuda (default: cuda when available)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  command->add_option("--trials", o->trials, "Timed trials per model (default 50 on cuda, 10 on cpu)")
      ->check(CLI::PositiveNumber);
  command->add_option("--seeds", o->seeds, "Correctness seeds (default 5)")->check(CLI::PositiveNumber);
  command->add_option("--memory-limit", o->memoryLimitMiB, "Stop the runner past this much resident memory, MiB (default: 3/4 of this machine's "
                      "memory; 0: no limit)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--runner", o->runner,
                      "kscope-runner executable (default: next to kscope, $KSCOPE_RUNNER)");
  auto* store = command->add_option("--store", o->store, "Results database (default: docs/store-schema.md)");
  command->add_flag("--no-store", o->noStore, "Do not record the result")->excludes(store);
  command->add_flag("--keep-scratch", o->keepScratch,
                    "Keep the runner's scratch folders (for debugging; implies --no-server)");
  command->add_flag("--no-server", o->noServer,
                    "Start a runner for this call even when `kscope serve` is up");
  command->add_flag(
      "--repair", o->repair,
      "Run the candidate's program with its mechanical build repairs (docs/cli.md); the file is "
      "not changed");
  command->add_option(
      "--arch", o->arch,
      "Architecture that --repair writes into -arch flags, the -arch of native (.cu) builds and "
      "of the compile without a GPU (default: this GPU's; sm_90a on an H100 and without one)");
  command->add_flag("--time-fallback", o->timeFallback,
                    "Without a GPU, run a program that builds CUDA anyway and time its PyTorch fallback "
                    "(default: compile its CUDA with nvcc and say that nothing was timed)");
  command->add_option("--gemm-seconds", o->gemmSeconds,
                      "GEMM tasks: warm-up and timed seconds of each kernel-baseline session of CUDA-L2's methods "
                      "(default 0.5,1; CUDA-L2's harness takes them as --warmup_seconds, --benchmark_seconds)")
      ->expected(2)
      ->delimiter(',')
      ->check(CLI::Range(0.0, 3600.0));
  command->add_option("--gemm-baseline", o->gemmBaselines,
                      "GEMM tasks: time only this baseline (repeatable: torch.matmul, cuBLAS-tn, cuBLAS-nn, "
                      "cuBLASLt-heuristic-tn, ...; default all seven)")
      ->check(CLI::IsMember({"torch.matmul", "cuBLAS-tn", "cuBLAS-nn", "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn",
                             "cuBLASLt-auto-tuning-tn", "cuBLASLt-auto-tuning-nn"}));
  command->add_option("--gemm-method", o->gemmMethods,
                      "GEMM tasks: time only by this method (repeatable: cuda-l2-offline, cuda-l2-server, "
                      "kscope-l2-flushed, kscope-l2-warm; default all four)")
      ->check(CLI::IsMember({"cuda-l2-offline", "cuda-l2-server", "kscope-l2-flushed", "kscope-l2-warm"}));
  auto* l1 = command->add_flag("--cuda-l1-eval", o->cudaL1Eval,
                                "Python tasks: also evaluate by CUDA-L1's own method (its eval_pipeline: "
                                "check, 7 global trials of 10; the default for the CUDA-L1 release on a GPU)");
  auto* l1Trials = command->add_option("--cuda-l1-trials", o->cudaL1Trials,
                                       "CUDA-L1's method with GLOBAL,PERF trials (implies --cuda-l1-eval; default 7,10)")
                       ->expected(2)
                       ->delimiter(',')
                       ->check(CLI::Range(1, 1000));
  command->add_flag("--no-cuda-l1-eval", o->noCudaL1Eval, "Leave CUDA-L1's own evaluation out")
      ->excludes(l1)
      ->excludes(l1Trials);
  command->add_flag("--json", o->json, "Print one JSON document (keys: docs/cli.md)");
  command->callback([o] { exitCode() = runOne(*o); });
}

KS_REGISTER_COMMAND(addRunCommand);

}  // namespace ks::cli
