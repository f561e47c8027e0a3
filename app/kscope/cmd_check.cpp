// kscope check FILE [--json] [--task L1/12] [--run [--device cpu|cuda]]: the static flags of every candidate
// (or of one task's), with the lines of the program that carry the evidence; with --run, each candidate is
// also evaluated through kscope-runner and the runtime probes' flags are merged in. kscope check --corpus DIR
// [--json] [--run ...]: the static rules (or, with --run, the runtime probes) scored on a labelled hack
// corpus (tests/hacks). Keys: docs/cli.md.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/kscope/candidate_repair.h"
#include "app/kscope/check_compile.h"
#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "app/kscope/terminal_output.h"
#include "app/kscope/text_table.h"
#include "core/flags/corpus_score.h"
#include "core/flags/flag_counts.h"
#include "core/flags/hack_corpus.h"
#include "core/flags/runtime_flags.h"
#include "core/flags/static_rules.h"
#include "core/model/task_lookup.h"
#include "core/nvcc/gpu_arch.h"
#include "core/protocol/json_codec.h"
#include "core/runs/evaluation_request.h"
#include "core/runs/fallback_note.h"
#include "core/supervisor/interrupt_cancel.h"
#include "core/supervisor/runner_location.h"
#include "core/supervisor/runner_supervisor.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

struct CheckOptions {
  std::string file;
  std::string corpus;  // a labelled corpus folder (DIR/manifest.json); excludes `file`
  std::string task;    // "L1/12" or "1/12"; empty: every task
  bool json = false;
  bool run = false;      // also evaluate through kscope-runner: runtime flags
  std::string device;    // "cpu" | "cuda"; empty: the runner's choice
  std::string runner;    // kscope-runner executable; empty: next to kscope, $KSCOPE_RUNNER
  bool compile = false;  // --compile: nvcc compile-only of the embedded CUDA (check_compile.h)
  bool repair = false;   // with --run or --compile: the repaired program (candidate_repair.h)
  std::string arch;      // with --compile / --repair: the architecture
  std::string python = "python3";
};

// How a candidate's evaluation through kscope-runner ended, and the runtime flags it brought.
struct RuntimeCheck {
  std::string outcome;  // "correct" | "incorrect" | "error"
  std::string device;   // what it ran on ("cpu" | "cuda"); empty after an error
  std::string message;  // the error; or why some runner flags could not be read
  std::optional<double> speedup;
  std::vector<Flag> flags;
  std::string fallback;  // "this number is the PyTorch fallback's: ..." (core/runs/fallback_note.h)
  Json repair;           // --repair: what changed; null when nothing did
};

// One kscope-runner for every evaluation of a check, started on first use; Ctrl-C cancels the one in flight.
class RuntimeChecker {
 public:
  RuntimeChecker(supervisor::RunnerLocation runner, std::string device)
      : device_(std::move(device)),
        supervisor_(supervisor::clientSupervisorOptions(runner.path, device_, 0)),
        interrupts_(supervisor_) {}

  RuntimeCheck evaluate(const Task& task, const Candidate& candidate) {
    protocol::Options options;
    options.device = device_;
    auto request = runs::evaluationRequest(task, candidate, options);
    if (auto* why = std::get_if<std::string>(&request)) return {"error", "", *why, std::nullopt, {}};
    const supervisor::RequestOutcome outcome =
        supervisor_.request(std::get<protocol::Request>(std::move(request)));
    if (const protocol::ErrorEvent* e = outcome.error())
      return {"error",
              "",
              std::string(protocol::errorKindName(e->error.kind)) + " error: " + e->error.message,
              std::nullopt,
              {}};
    const auto decoded = protocol::decodeEvaluateResult(outcome.result()->result);
    if (!decoded.value)
      return {"error",
              "",
              "the runner's result does not read as an evaluation: " + decoded.error,
              std::nullopt,
              {}};
    const protocol::EvaluateResult& r = *decoded.value;
    RuntimeFlags read = runtimeFlags(r);
    RuntimeCheck check{r.correctness.passed ? "correct" : "incorrect", r.device, "", std::nullopt,
                       std::move(read.flags)};
    if (r.timing) check.speedup = r.timing->speedup;
    check.fallback = runs::fallbackNote(r.build);
    for (const std::string& why : read.skipped) check.message += (check.message.empty() ? "" : "; ") + why;
    return check;
  }

  bool interrupted() const { return interrupts_.interrupted(); }

 private:
  std::string device_;
  supervisor::RunnerSupervisor supervisor_;
  supervisor::InterruptCancel interrupts_;
};

// The checker for --run, or nullptr without it; a runner that cannot be found is an error (exit 2).
// `failure` says why when it is one.
std::unique_ptr<RuntimeChecker> runtimeChecker(const CheckOptions& options, std::string& failure) {
  failure.clear();
  if (!options.run) return nullptr;
  supervisor::RunnerLocation runner = supervisor::findRunner(options.runner);
  if (!runner.found()) {
    std::cerr << "kscope check: error: " << runner.error << "\n";
    raiseExitCode(kExitFailure);
    failure = runner.error;
    return nullptr;
  }
  return std::make_unique<RuntimeChecker>(std::move(runner), options.device);
}

void announce(const std::string& what, std::size_t done, std::size_t total) {
  static const bool tty = isatty(STDERR_FILENO);
  if (tty) terminalControl(std::cerr, kClearLine);
  std::cerr << "kscope check: running " << what << " (" << done << " of " << total << ")" << (tty ? "" : "\n");
  if (tty && done == total) terminalControl(std::cerr, kClearLine);
}

Json runtimeJson(const RuntimeCheck& r) {
  Json j = {{"outcome", r.outcome},
            {"device", r.device},
            {"speedup", r.speedup ? Json(*r.speedup) : Json(nullptr)}};
  if (!r.message.empty()) j["message"] = r.message;
  if (!r.fallback.empty()) j["fallback"] = r.fallback;
  if (!r.repair.is_null()) j["repair"] = r.repair;
  return j;
}

std::string joinLines(const std::vector<int>& lines) {
  std::string text;
  for (int line : lines) text += (text.empty() ? "" : ",") + std::to_string(line);
  return text;
}

Json flagJson(const Flag& f) {
  return {{"family", f.family},         {"severity", severityName(f.severity)},
          {"confidence", f.confidence}, {"message", f.message},
          {"lines", f.lines},           {"evidence", f.evidence},
          {"origin", f.origin}};
}

void printCandidate(std::ostream& out, const Task& task, const Candidate& c, const std::vector<Flag>& flags,
                    const RuntimeCheck* runtime) {
  out << task.key() << "  " << c.id << "  (line " << c.sourceLine << ")";
  if (!task.name.empty()) out << "  " << task.name;
  if (!c.code) {
    out << "\n  no program recorded\n";
    return;
  }
  if (runtime && !runtime->fallback.empty()) out << "\n  FALLBACK: " << runtime->fallback;
  if (runtime && runtime->repair.contains("repairs"))
    for (const auto& r : runtime->repair["repairs"])
      out << "\n  repaired: " << r.value("kind", "") << ": " << r.value("what", "");
  if (runtime) {
    out << "\n  runtime: " << runtime->outcome;
    if (!runtime->device.empty()) out << " on " << runtime->device;
    if (runtime->speedup) out << ", speedup " << formatNumber(*runtime->speedup) << "x";
    if (!runtime->message.empty()) out << ": " << runtime->message;
  }
  if (flags.empty()) {
    out << (runtime ? "\n  no flags\n" : "\n  no static flags\n");
    return;
  }
  out << "\n";
  std::vector<std::string> columns = {"severity", "family", "confidence", "lines", "message"};
  if (runtime) columns.insert(columns.begin() + 2, "origin");
  TextTable table(columns);
  for (const Flag& f : flags) {
    std::vector<std::string> row = {severityName(f.severity), f.family, formatNumber(f.confidence),
                                    joinLines(f.lines), f.message};
    if (runtime) row.insert(row.begin() + 2, f.origin);
    table.addRow(row);
  }
  std::ostringstream rows;
  table.print(rows, "  ");
  out << rows.str();
  for (const Flag& f : flags) {
    if (f.evidence.empty()) continue;
    out << "  evidence (" << f.family << "):\n";
    std::istringstream evidence(f.evidence);
    for (std::string line; std::getline(evidence, line);) out << "    " << line << "\n";
  }
}

// `check --json` when it stops before checking anything (exit 2): the document still goes to stdout, with
// `error` saying why (the same message as on stderr), so `kscope check --json f | jq` always has input.
void printStopped(const CheckOptions& options, const std::string& format, const std::string& error,
                  std::size_t loadErrors = 0) {
  if (!options.json) return;
  const Json out = {{"file", options.corpus.empty() ? options.file : options.corpus},
                    {"format", format},
                    {"checked", 0},
                    {"flagged", 0},
                    {"errors", loadErrors},
                    {"error", error},
                    {"candidates", Json::array()}};
  std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

std::string firstError(const RunFile& run) {
  for (const LoadIssue& issue : run.issues)
    if (issue.severity == LoadIssue::Severity::Error) return issue.toString();
  return "nothing could be read from " + run.path;
}

void runCheck(const CheckOptions& options) {
  std::string wanted = options.task;
  const LoadedInput input = loadInput(options.file);
  if (!input.usable)
    return printStopped(options, input.run.format, firstError(input.run), input.run.errorCount());
  const RunFile& run = input.run;
  if (!wanted.empty()) {
    // The one task-key rule of every command (core/model/task_lookup.h).
    const TaskLookup found = lookUpTask(run, wanted, options.file);
    if (!found.task) {
      std::cerr << "kscope: " << found.error << "\n";
      raiseExitCode(kExitFailure);
      return printStopped(options, run.format, found.error, run.errorCount());
    }
    wanted = found.task->key();
  }
  std::string noRunner;
  const std::unique_ptr<RuntimeChecker> checker = runtimeChecker(options, noRunner);
  if (!noRunner.empty()) return printStopped(options, run.format, noRunner);
  std::size_t toRun = 0, ran = 0;
  for (const Task& task : run.tasks)
    if (wanted.empty() || task.key() == wanted)
      for (const Candidate& c : task.candidates) toRun += c.code.has_value();
  Json candidates = Json::array();
  std::size_t checked = 0, flagged = 0;
  for (const Task& task : run.tasks) {
    if (!wanted.empty() && task.key() != wanted) continue;
    for (const Candidate& c : task.candidates) {
      std::vector<Flag> flags;
      std::optional<RuntimeCheck> runtime;
      if (c.code) {
        flags = checkStatic(task.referenceCode, *c.code);
        if (checker && !checker->interrupted()) {
          announce(task.key() + " " + c.id, ++ran, toRun);
          Candidate evaluated = c;
          std::optional<AppliedRepair> repaired;
          if (options.repair) repaired = repairCandidate(evaluated, nvcc::targetArch(options.arch));
          runtime = checker->evaluate(task, evaluated);
          if (repaired) runtime->repair = repairJson(*repaired);
          flags.insert(flags.end(), runtime->flags.begin(), runtime->flags.end());
        }
        ++checked;
        if (isFlagged(flags)) ++flagged;  // the GUI's definition too (flag_counts.h)
      }
      if (!options.json) {
        printCandidate(std::cout, task, c, flags, runtime ? &*runtime : nullptr);
        continue;
      }
      Json flagList = Json::array();
      for (const Flag& f : flags) flagList.push_back(flagJson(f));
      Json entry = {
          {"task", task.key()},          {"task_name", task.name},         {"candidate", c.id},
          {"source_line", c.sourceLine}, {"has_code", c.code.has_value()}, {"flags", std::move(flagList)}};
      if (runtime) entry["runtime"] = runtimeJson(*runtime);
      candidates.push_back(std::move(entry));
    }
  }
  if (checker && checker->interrupted()) {
    std::cerr << "kscope check: interrupted; candidates after it were checked statically only\n";
    raiseExitCode(kExitFailure);
  }
  if (options.json) {
    const Json out = {{"file", options.file},       {"format", run.format},
                      {"checked", checked},         {"flagged", flagged},
                      {"errors", run.errorCount()}, {"candidates", std::move(candidates)}};
    std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    std::cout << "\n" << checked << " candidate(s) with a program checked, " << flagged << " flagged\n";
  }
}

Json optionalNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string ratio(const std::optional<double>& v) { return v ? formatNumber(*v) : "-"; }

Json corpusJson(const Corpus& corpus, const std::vector<std::vector<Flag>>& flags, const CorpusScore& score) {
  Json families = Json::array();
  for (const FamilyScore& s : score.families)
    families.push_back({{"family", s.family},
                        {"rules", s.rules},
                        {"entries", s.entries},
                        {"tp", s.tp},
                        {"fp", s.fp},
                        {"fn", s.fn},
                        {"not_applicable", s.notApplicable},
                        {"also", s.also},
                        {"caught_by_also", s.caughtByAlso},
                        {"severity_agrees", s.severityAgrees},
                        {"precision", optionalNumber(s.precision)},
                        {"recall", optionalNumber(s.recall)},
                        {"missed", s.missed}});
  Json controls = Json::array();
  for (const ControlFlag& c : score.controlFlags) {
    Json flag = flagJson(c.flag);
    flag["path"] = c.path;
    controls.push_back(std::move(flag));
  }
  Json entries = Json::array(), errors = Json::array();
  for (std::size_t i = 0; i < corpus.entries.size(); ++i) {
    const CorpusEntry& e = corpus.entries[i];
    if (!e.error.empty()) {
      errors.push_back(e.error);
      continue;
    }
    Json list = Json::array();
    for (const Flag& f : flags[i]) list.push_back(flagJson(f));
    entries.push_back({{"path", e.path},
                       {"family", e.family},
                       {"expect", e.expect},
                       {"detectable", e.detectable},
                       {"also", e.also},
                       {"flags", std::move(list)}});
  }
  return {{"corpus", corpus.dir.string()},
          {"channel", score.channel},
          {"entries", score.entries},
          {"controls", score.controls},
          {"errors", std::move(errors)},
          {"families", std::move(families)},
          {"hack_flags_on_controls", score.hackFlagsOnControls},
          {"flagged_controls", std::move(controls)},
          {"results", std::move(entries)}};
}

void printCorpus(std::ostream& out, const Corpus& corpus, const CorpusScore& score) {
  out << corpus.dir.string() << ": " << score.entries << " entries (" << score.controls
      << " controls), channel " << score.channel << "\n\n";
  TextTable table({"family", "rules", "entries", "tp", "fp", "fn", "n/a", "by also", "also", "severity ok",
                   "precision", "recall"});
  for (const FamilyScore& s : score.families)
    table.addRow({s.family, s.rules ? "yes" : "none", std::to_string(s.entries), std::to_string(s.tp),
                  std::to_string(s.fp), std::to_string(s.fn), std::to_string(s.notApplicable),
                  std::to_string(s.caughtByAlso), std::to_string(s.also), std::to_string(s.severityAgrees),
                  ratio(s.precision), ratio(s.recall)});
  table.print(out);
  for (const FamilyScore& s : score.families)
    for (const std::string& path : s.missed) out << "missed (" << s.family << "): " << path << "\n";
  out << "\nhack flags on controls: " << score.hackFlagsOnControls << "\n";
  for (const ControlFlag& c : score.controlFlags)
    out << "  " << c.path << "  " << severityName(c.flag.severity) << "  " << c.flag.family << "  "
        << c.flag.message << "\n";
}

void runCorpus(const CheckOptions& options) {
  const Corpus corpus = loadCorpus(options.corpus);
  if (!corpus.error.empty()) {
    std::cerr << "kscope: " << corpus.error << "\n";
    raiseExitCode(kExitFailure);
    return printStopped(options, "corpus", corpus.error);
  }
  std::string noRunner;
  const std::unique_ptr<RuntimeChecker> checker = runtimeChecker(options, noRunner);
  if (!noRunner.empty()) return printStopped(options, "corpus", noRunner);
  std::vector<std::vector<Flag>> flags;
  std::string device;  // what the runtime channel ran on
  for (std::size_t i = 0; i < corpus.entries.size(); ++i) {
    const CorpusEntry& e = corpus.entries[i];
    if (!e.error.empty()) {
      std::cerr << e.error << "\n";
      raiseExitCode(kExitInputErrors);
      flags.emplace_back();
      continue;
    }
    if (!checker) {
      flags.push_back(checkStatic(e.referenceProgram, e.program));
      continue;
    }
    Task task;
    task.name = e.reference;
    task.referenceCode = e.referenceProgram;
    Candidate candidate;
    candidate.id = e.path;
    candidate.code = e.program;
    announce(e.path, i + 1, corpus.entries.size());
    RuntimeCheck r = checker->interrupted() ? RuntimeCheck{"error", "", "interrupted", std::nullopt, {}}
                                            : checker->evaluate(task, candidate);
    if (r.outcome == "error") {
      std::cerr << corpus.dir.string() << "/" << e.path << ": " << r.message << "\n";
      raiseExitCode(kExitInputErrors);
    }
    if (device.empty()) device = r.device;
    flags.push_back(std::move(r.flags));
  }
  const std::string channel = !checker ? "static" : device == "cuda" ? "runtime-gpu" : "runtime-cpu";
  const CorpusScore score = scoreCorpus(corpus.entries, flags, channel);
  if (options.json)
    std::cout << corpusJson(corpus, flags, score).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  else
    printCorpus(std::cout, corpus, score);
}

}  // namespace

void addCheckCommand(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check",
      "Reward-hack flags per candidate, with line numbers: static rules, and with --run the runner's probes");
  CLI::Option* file = command->add_option("file", options->file,
                                          "CUDA-L1 JSONL, kscope run file, KernelBench folder or .cu file");
  CLI::Option* corpus = command->add_option("--corpus", options->corpus,
                                            "Score the static rules (with --run: the runtime probes) on a "
                                            "labelled corpus folder (DIR/manifest.json)");
  file->excludes(corpus);
  command->add_option("--task", options->task, "Only this task, e.g. L1/12 (or 1/12)")->excludes(corpus);
  command->add_flag("--json", options->json, "Print one JSON document (keys: docs/cli.md)");
  CLI::Option* run = command->add_flag(
      "--run", options->run, "Also evaluate each candidate through kscope-runner and add its runtime flags");
  command->add_option("--device", options->device, "With --run: cpu or cuda (default: cuda when available)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->needs(run);
  command
      ->add_option("--runner", options->runner,
                   "With --run: kscope-runner executable (default: next to kscope, $KSCOPE_RUNNER)")
      ->needs(run);
  CLI::Option* compile = command->add_flag(
      "--compile", options->compile,
      "Compile each program's embedded CUDA with nvcc alone (no GPU needed): errors on the Python lines, "
      "their cause, ptxas resources");
  compile->excludes(run)->excludes(corpus);
  command->add_flag("--repair", options->repair,
                    "With --run or --compile: the program with its mechanical build repairs");
  command->add_option("--arch", options->arch,
                      "With --compile or --repair: the GPU architecture (default: this GPU's, else sm_90a)");
  command->add_option("--python", options->python, "With --compile: a Python with torch, for its headers")
      ->needs(compile);
  command->callback([options] {
    if (options->compile) {
      raiseExitCode(runCompileCheck({.file = options->file,
                                     .task = options->task,
                                     .arch = options->arch,
                                     .python = options->python,
                                     .repair = options->repair,
                                     .json = options->json}));
      return;
    }
    if (options->corpus.empty() && options->file.empty()) {
      std::cerr << "kscope check: expected FILE or --corpus DIR (see kscope check --help)\n";
      raiseExitCode(kExitFailure);
      return;
    }
    options->corpus.empty() ? runCheck(*options) : runCorpus(*options);
  });
}

KS_REGISTER_COMMAND(addCheckCommand);

}  // namespace ks::cli
