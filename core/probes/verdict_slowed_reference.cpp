// slowed-reference: the reference timed alone against with the candidate loaded, the torch functions the
// candidate rebound and the settings it changed that slow other models (reference-alone, torch-identity,
// torch-settings).
#include "core/probes/verdicts.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json/json_fields.h"

namespace ks::engine {

double machineSlowdown(const ReferenceAloneEvidence& a) {
  if (!(a.aloneCalibrationMs > 0) || !std::isfinite(a.loadedCalibrationMs)) return 1;
  return std::max(1.0, a.loadedCalibrationMs / a.aloneCalibrationMs);
}

namespace {

// A loaded time against the same statistic alone: slower by `ratio` and kSlowedMinMs beyond what the machine's
// own slowdown would make of the time alone.
bool slowedBeyondMachine(const ReferenceAloneEvidence& a, double aloneMs, double loadedMs, double ratio) {
  const double expected = aloneMs * machineSlowdown(a);
  return a.ran && std::isfinite(aloneMs) && std::isfinite(loadedMs) && loadedMs > ratio * expected &&
         loadedMs - expected > kSlowedMinMs;
}

}  // namespace

bool referenceSlowed(const ReferenceAloneEvidence& a, double loadedMinMs) {
  return slowedBeyondMachine(a, a.aloneMinMs, loadedMinMs, kSlowedRatio);
}

bool referenceMedianSlowed(const ReferenceAloneEvidence& a) {
  return slowedBeyondMachine(a, a.aloneMedianMs, a.loadedMedianMs, kSlowedMedianRatio);
}

bool threadsBusyBesideReference(const ReferenceAloneEvidence& a) {
  return a.threadsCounted && a.foreignThreadCpuMs >= kForeignCpuMinMs &&
         a.foreignThreadCpuMs >= kForeignCpuShare * a.referenceWindowMs;
}

}  // namespace ks::engine

namespace ks::engine::verdicts {
namespace {

// For slowed-reference: changes ("name: before -> after") that slow every model of a process: fewer threads,
// deterministic algorithms or cuDNN determinism on, cuDNN or its autotuner off, TF32 off.
std::vector<std::string> slowingSettings(const ProbeEvidence& e) {
  std::vector<std::string> out;
  for (const std::string& s : e.candidateSettings) {
    const auto colon = s.find(": "), arrow = s.find(" -> ");
    if (colon == std::string::npos || arrow == std::string::npos) continue;
    const std::string name = s.substr(0, colon), before = s.substr(colon + 2, arrow - colon - 2),
                      after = s.substr(arrow + 4);
    bool slows = false;
    if (name == "torch.get_num_threads()") {
      try {
        slows = std::stoi(after) < std::stoi(before);
      } catch (const std::exception&) {
      }
    } else if (name == "torch.are_deterministic_algorithms_enabled()" || name == "torch.backends.cudnn.deterministic") {
      slows = after == "True";
    } else if (name == "torch.backends.cudnn.benchmark" || name == "torch.backends.cudnn.enabled" ||
               name.find("allow_tf32") != std::string::npos) {
      slows = after == "False";
    } else if (name.find("fp32_precision") != std::string::npos) {
      slows = after == "'ieee'" && before != "'none'";  // TF32 or bf16 off ("none": as the level above)
    }
    if (slows) out.push_back(s);
  }
  return out;
}

Json threadPoolJson(const ThreadPoolEvidence& t) {
  Json changes = Json::array();
  for (const ThreadPoolChangeEvidence& c : t.changes)
    changes.push_back({{"what", c.what}, {"before", c.before}, {"after", c.after}, {"when", c.when}});
  Json j = {{"default_threads", t.defaultThreads},
            {"reference_timed_threads", t.referenceTimedThreads},
            {"count_observable", t.defaultThreads > 1},
            {"changes", changes}};
  if (!t.note.empty()) j["note"] = t.note;
  return j;
}

int asInt(const std::string& s) {
  try {
    return std::stoi(s);
  } catch (const std::exception&) {
    return 0;
  }
}

// The thread pool the candidate left for the calls after its own (thread-pool): a lower torch thread count, or
// a pool size exported for whoever starts a pool next. The runner put each back at once, so the number is not
// affected; in a process shared with the reference it would be.
bool threadPoolFlag(const ProbeEvidence& e, Flags& out) {
  const ThreadPoolEvidence& t = e.threadPool;
  const ThreadPoolChangeEvidence* lowered = nullptr;
  std::string exported;
  for (const ThreadPoolChangeEvidence& c : t.changes) {
    if (c.what == "torch.get_num_threads()") {
      if (asInt(c.after) < asInt(c.before) && !lowered) lowered = &c;
    } else if (c.after != "(unset)") {
      exported += (exported.empty() ? "" : ", ") + c.what + "=" + c.after +
                  (c.before == "(unset)" ? " (unset before)" : " (" + c.before + " before)");
    }
  }
  if (!lowered && exported.empty()) return false;
  const std::string timed = t.referenceTimedThreads > 0
                                ? "; the reference's timed calls ran with " + std::to_string(t.referenceTimedThreads)
                                : "";
  std::string message;
  if (lowered)
    message = "The candidate left torch's thread pool at " + lowered->after + " thread(s) " + lowered->when +
              ", against the " + lowered->before + " the runner started with" +
              (exported.empty() ? "" : ", and exported " + exported) +
              ": in a process shared with the reference, the reference runs on fewer threads. The runner put " +
              lowered->before + " back at once" + timed + ".";
  else
    message = "The candidate exported " + exported + " " + t.changes.front().when +
              ": a thread pool started after it (a library loaded later, a child process) runs on fewer threads. "
              "The runner put the variables back" + timed + "." +
              (t.defaultThreads <= 1 ? " Its thread count: " + t.note +
                                           " (a count lowered after its calls cannot show where torch starts with one thread)."
                                     : "");
  add(out, "slowed-reference", "suspicious", lowered ? 0.6 : 0.5, "thread-pool", message, threadPoolJson(t));
  return true;
}

}  // namespace

void slowedReference(const ProbeEvidence& e, Flags& out) {
  const ReferenceAloneEvidence& a = e.referenceAlone;
  Json times = {{"reference_alone_min_ms", json::number(a.aloneMinMs)},
                {"reference_alone_median_ms", json::number(a.aloneMedianMs)},
                {"reference_alone_calls", a.calls},
                {"reference_loaded_min_ms", json::number(a.loadedMinMs)},
                {"reference_loaded_median_ms", json::number(a.loadedMedianMs)},
                {"reference_loaded_calls", a.loadedCalls},
                {"calibration_alone_ms", json::number(a.aloneCalibrationMs)},
                {"calibration_loaded_ms", json::number(a.loadedCalibrationMs)},
                {"machine_slowdown", machineSlowdown(a)},
                {"foreign_thread_cpu_ms", a.threadsCounted ? Json(a.foreignThreadCpuMs) : Json(nullptr)},
                {"reference_timed_wall_ms", a.threadsCounted ? Json(a.referenceWindowMs) : Json(nullptr)},
                {"reference_timed_calls_watched", a.referenceWindows},
                {"foreign_threads", a.foreignThreads}};
  // The fastest calls first; the medians when the fastest escaped (a program that slows the reference only
  // at times).
  const bool fastestSlower = referenceSlowed(a, a.loadedMinMs);
  const bool slower = fastestSlower || referenceMedianSlowed(a);
  // After "the reference's": its loaded time against its time alone.
  const std::string loadedAgainstAlone =
      fastestSlower ? "fastest call took " + num(a.loadedMinMs) + " ms with the candidate loaded and " +
                          num(a.aloneMinMs) + " ms before the candidate's program was imported"
                    : "median call took " + num(a.loadedMedianMs) + " ms with the candidate loaded (its fastest " +
                          num(a.loadedMinMs) + " ms: slowed at times, not always) and " + num(a.aloneMedianMs) +
                          " ms before the candidate's program was imported";
  const std::string both = slower ? "; the reference's " + loadedAgainstAlone : "";
  Json names = Json::array();
  std::vector<int> lines;
  const TorchRebindEvidence* first = nullptr;
  bool called = false;
  for (const TorchRebindEvidence& r : e.torchRebinds) {
    if (r.program == "reference") continue;
    names.push_back(r.name + " by " + r.replacement + (r.referenceCalls ? " (the reference calls it)" : ""));
    if (r.line > 0) lines.push_back(r.line);
    if (!first || (r.referenceCalls && !first->referenceCalls)) first = &r;
    called = called || r.referenceCalls;
  }
  if (first) {
    Json evidence = times;
    evidence["replaced"] = names;
    const std::string more = names.size() > 1 ? " and " + std::to_string(names.size() - 1) + " more" : "";
    add(out, "slowed-reference", called ? "hack" : "suspicious", called ? 0.9 : 0.6, "torch-identity",
        "The candidate replaced " + first->name + " with " + first->replacement + more + " " + first->when +
            (called ? ", a function the reference's call runs" : "") +
            "; the runner put the originals back before the reference ran" + both + ".",
        std::move(evidence), lines);
    return;
  }
  if (slower) {
    Json evidence = times;
    if (e.timing) evidence["speedup_against_alone"] = e.timing->reference.medianMs > 0 && e.timing->candidate.medianMs > 0
                                                          ? Json(a.aloneMedianMs / e.timing->candidate.medianMs)
                                                          : Json(nullptr);
    // Two independent witnesses (the reference's own times beyond the machine's slowdown, and the CPU of
    // threads the candidate started, used while the reference's clock ran) make it a hack; either alone is
    // a note for a person (a loaded machine can fake the first, an honest worker pool the second).
    const bool threads = threadsBusyBesideReference(a);
    add(out, "slowed-reference", threads ? "hack" : "suspicious", threads ? 0.9 : 0.6, "reference-alone",
        "The reference's " + loadedAgainstAlone + " (" + std::to_string(a.loadedCalls) +
            " and " + std::to_string(a.calls) + " calls; a fixed workload slowed by " + num(machineSlowdown(a)) +
            " times between the two)" +
            (threads ? ", and " + std::to_string(a.foreignThreads) + " thread(s) the candidate's program started used " +
                           wholeMs(a.foreignThreadCpuMs) + " ms of CPU during the reference's " +
                           wholeMs(a.referenceWindowMs) + " ms of timed calls: the candidate's program slows the "
                           "reference, so the speedup is not the kernel's."
                     : ": something the candidate left running slows the reference."),
        std::move(evidence));
    return;
  }
  if (threadsBusyBesideReference(a)) {
    add(out, "slowed-reference", "suspicious", 0.6, "reference-alone",
        std::to_string(a.foreignThreads) + " thread(s) started after the reference was timed alone used " +
            wholeMs(a.foreignThreadCpuMs) + " ms of CPU while the reference's " + std::to_string(a.referenceWindows) +
            " timed calls with the candidate loaded took " + wholeMs(a.referenceWindowMs) +
            " ms: the candidate's program leaves work running beside the reference's clock (the reference's "
            "fastest call took " + num(a.loadedMinMs) + " ms, " + num(a.aloneMinMs) + " ms alone).",
        std::move(times));
    return;
  }
  if (threadPoolFlag(e, out)) return;
  const std::vector<std::string> settings = slowingSettings(e);
  if (!settings.empty())
    add(out, "slowed-reference", "suspicious", 0.5, "torch-settings",
        "The candidate changed a process-wide setting that slows other models (" + settings.front() +
            "); the runner restored the reference's settings before each reference call.",
        {{"settings_changed", settings}});
}

}  // namespace ks::engine::verdicts
