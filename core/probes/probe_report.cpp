#include "core/probes/probe_report.h"

#include "core/probes/probe_verdicts.h"
#include "core/json/json_fields.h"

namespace ks::engine {
namespace {

using Json = nlohmann::ordered_json;

Json ranOrNote(bool ran, const std::string& note) {
  Json j = {{"ran", ran}};
  if (!note.empty()) j["note"] = note;
  return j;
}

Json floorReport(const ProbeEvidence& e) {
  const BandwidthFloor f = bandwidthFloor(e);
  Json j = {{"applicable", f.applicable}, {"input_bytes", e.inputBytes}, {"output_bytes", e.outputBytes}};
  if (!f.note.empty()) j["note"] = f.note;
  if (f.gpu)
    j.update({{"gpu", f.gpu->gpu},
              {"bandwidth_tb_s", f.gpu->bandwidthBytesPerS / 1e12},
              {"floor_bytes", f.bytes},
              {"floor_ms", f.floorMs}});
  return j;
}

}  // namespace

Json probeReport(const ProbeEvidence& e) {
  Json patches = Json::array();
  for (const ClockPatchEvidence& p : e.clockPatches)
    patches.push_back({{"name", p.name},
                       {"replacement", p.replacement},
                       {"program", p.program},
                       {"line", p.line},
                       {"when", p.when},
                       {"checker", p.checker}});
  Json imports = Json::array();
  for (const ImportChangeEvidence& c : e.importChanges)
    imports.push_back({{"change", c.what}, {"shadows", c.shadows}, {"when", c.when}});
  Json mutations = Json::array();
  for (const MutationEvidence& m : e.mutations)
    mutations.push_back({{"input", m.input},
                         {"seed", m.seed},
                         {"changed", m.changed},
                         {"numel", m.numel},
                         {"max_abs_change", m.maxAbsChange},
                         {"beyond_tolerance", m.beyondTolerance},
                         {"reference_too", m.referenceToo}});
  Json aliases = Json::array();
  for (const AliasEvidence& a : e.aliases)
    aliases.push_back({{"input", a.input},
                       {"seed", a.seed},
                       {"input_mutated", a.inputMutated},
                       {"reference_too", a.referenceToo}});
  Json output = {{"plain_tensors", !e.lazy.has_value()}};
  if (e.lazy)
    output.update({{"type", e.lazy->type},
                   {"tensor_subclass", e.lazy->tensorSubclass},
                   {"storage_bytes", e.lazy->storageBytes},
                   {"needed_bytes", e.lazy->neededBytes}});

  const RepeatEvidence& r = e.repeat;
  Json repeat = ranOrNote(r.ran, r.note);
  repeat.update({{"same_object", r.sameObject},
                 {"same_storage_repeat", r.sameStorageRepeat},
                 {"same_storage_fresh", r.sameStorageFresh},
                 {"references_differ", r.referencesDiffer},
                 {"independent_of_inputs", r.independent},
                 {"stale_after_refill", r.staleAfterRefill},
                 {"perturb_changes_reference", r.perturbChangesReference},
                 {"stale_after_perturb", r.staleAfterPerturb},
                 {"first_result_overwritten", r.firstResultOverwritten},
                 {"holds_cuda_graph", r.holdsCudaGraph},
                 {"repeat_ms", json::number(r.repeatMs)},
                 {"fresh_ms", json::number(r.freshMs)},
                 {"reference_ms", json::number(r.referenceMs)}});
  const DeferredEvidence& d = e.deferred;
  Json deferred = ranOrNote(d.ran, d.note);
  deferred.update({{"changed_after_return", d.changedAfterReturn},
                   {"numel", d.numel},
                   {"delay_ms", d.delayMs},
                   {"new_threads", d.newThreads},
                   {"native_threads_before", d.nativeThreadsBefore},
                   {"native_threads_after", d.nativeThreadsAfter}});
  Json decoy = ranOrNote(e.decoy.ran, e.decoy.note);
  decoy.update({{"returned_the_decoy", e.decoy.sharesStorage},
                {"equal_to_decoy", e.decoy.equalToDecoy},
                {"numel", e.decoy.numel}});
  const PrecisionEvidence& p = e.precision;
  Json precision = ranOrNote(p.ran, p.note);
  if (p.ran)
    precision.update({{"dtype", p.dtype},
                      {"candidate_error", json::number(p.candidateError)},
                      {"reference_error", p.referenceError},
                      {"estimated_from_float32", p.estimatedFromFloat32},
                      {"float32_error", p.float32Error},
                      {"scale", p.scale},
                      {"epsilon", p.epsilon}});
  const StreamEvidence& s = e.streams;
  Json streams = ranOrNote(s.profiled, s.note);
  Json side = Json::array();
  for (const SideStreamEvidence& x : s.sideStreams)
    side.push_back({{"stream", x.stream},
                    {"kernels", x.kernels},
                    {"first_kernel", x.firstKernel},
                    {"ends_after_call_us", x.endsAfterCallUs},
                    {"joined", x.joined ? Json(*x.joined) : Json(nullptr)}});
  if (s.profiled)
    streams.update({{"current_stream", s.currentStream},
                    {"sync_events_recorded", s.syncEventsRecorded},
                    {"current_stream_waits", s.currentStreamWaits},
                    {"unresolved_waits", s.unresolvedWaits},
                    {"side_streams", side},
                    {"reference_side_streams", s.referenceSideStreams}});
  const KernelOriginEvidence& k = e.kernelOrigin;
  Json origin = ranOrNote(k.profiled, k.profiled ? "" : "no kernel profile of the candidate");
  if (k.profiled)
    origin.update({{"declared_kernels", k.declaredKernels},
                   {"declared_kernels_ran", k.declaredRan},
                   {"triton_kernels", k.tritonKernels},
                   {"candidate_builds", k.candidateBuilds},
                   {"failed_builds", k.failedBuilds},
                   {"candidate_kernels", k.candidateKernels},
                   {"kernels_not_in_reference", k.kernelsNotInReference}});
  Json inputs = ranOrNote(e.inputs.compared, e.inputs.note);
  inputs["differences"] = e.inputs.differences;

  const DriftEvidence& dr = e.drift;
  Json drift = ranOrNote(dr.ran, dr.note);
  drift.update({{"timed_trials", dr.timedTrials},
                {"sampled_trials", dr.sampledTrials},
                {"wrong_trial", dr.wrongTrial},
                {"wrong_message", dr.wrongMessage},
                {"timed_change", dr.timedChange},
                {"changed_trial", dr.changedTrial},
                {"fresh_ran", dr.freshRan},
                {"fresh_seed", dr.freshSeed},
                {"fresh_passed", dr.freshPassed},
                {"fresh_message", dr.freshMessage},
                {"probe_change", json::number(dr.probeChange)},
                {"rounding", json::number(e.rounding)}});
  const WeakTaskEvidence& w = e.weakTask;
  Json weak = ranOrNote(w.ran, w.note);
  if (w.ran)
    weak.update({{"task_weak", w.zeroPasses || (w.shuffledPasses && w.shuffledChanged)},
                 {"zero_passes", w.zeroPasses},
                 {"zero_error", w.zeroError},
                 {"shuffled_passes", w.shuffledPasses},
                 {"shuffled_changed", w.shuffledChanged},
                 {"shuffled_error", w.shuffledError},
                 {"candidate_error", json::number(w.candidateError)}});
  Json distributions = Json::array();
  for (const DistributionEvidence& d : e.distributions)
    distributions.push_back({{"distribution", d.name},
                             {"reference_finite", d.referenceFinite},
                             {"passed", d.passed},
                             {"message", d.message},
                             {"candidate_nonfinite", d.candidateNonfinite}});
  Json inputDistributions = {{"distributions", distributions}};
  if (!e.distributionsNote.empty()) inputDistributions["note"] = e.distributionsNote;
  const NondeterminismEvidence& n = e.nondeterminism;
  Json nondeterminism = ranOrNote(n.ran, n.note);
  nondeterminism.update({{"max_difference", json::number(n.maxDifference)},
                         {"differing", n.differing},
                         {"numel", n.numel},
                         {"within_tolerance", n.withinTolerance},
                         {"rounding", json::number(e.rounding)}});
  const ReferenceAloneEvidence& a = e.referenceAlone;
  Json alone = ranOrNote(a.ran, a.note);
  alone.update({{"calls", a.calls},
                {"alone_min_ms", json::number(a.aloneMinMs)},
                {"alone_median_ms", json::number(a.aloneMedianMs)},
                {"loaded_min_ms", json::number(a.loadedMinMs)},
                {"loaded_median_ms", json::number(a.loadedMedianMs)},
                {"loaded_calls", a.loadedCalls},
                {"foreign_thread_cpu_ms", a.threadsCounted ? Json(a.foreignThreadCpuMs) : Json(nullptr)},
                {"reference_timed_wall_ms", a.threadsCounted ? Json(a.referenceWindowMs) : Json(nullptr)},
                {"foreign_threads", a.foreignThreads}});
  Json rebinds = Json::array();
  for (const TorchRebindEvidence& r : e.torchRebinds)
    rebinds.push_back({{"name", r.name},
                       {"replacement", r.replacement},
                       {"program", r.program},
                       {"line", r.line},
                       {"when", r.when},
                       {"reference_calls", r.referenceCalls}});
  Json refused = Json::array();
  for (const RefusedWriteEvidence& w : e.refusedWrites)
    refused.push_back({{"path", w.path}, {"event", w.event}, {"program", w.program}, {"line", w.line}});
  Json settingsOf[2] = {Json::object(), Json::object()};
  for (const auto& [name, value] : e.referenceSettingValues) settingsOf[0][name] = value;
  for (const auto& [name, value] : e.candidateSettingValues) settingsOf[1][name] = value;

  const MovingFloorEvidence& mf = e.movingFloor;
  Json moving = ranOrNote(mf.measured, mf.note);
  moving.update({{"bytes", mf.bytes},
                 {"read_ms", json::number(mf.readMs)},
                 {"write_ms", json::number(mf.writeMs)},
                 {"floor_ms", json::number(mf.floorMs)},
                 {"repetitions", mf.repetitions},
                 {"scaled_by", mf.scaledBy},
                 {"share_of_floor", mf.measured && e.timing && mf.floorMs > 0
                                        ? Json(e.timing->candidate.medianMs / mf.floorMs)
                                        : Json(nullptr)}});
  Json timing = {{"bandwidth_floor", floorReport(e)}, {"moving_floor", moving}, {"speedup_bound", kSpeedupBound}};
  if (e.timing && e.device == "cuda")
    timing["clock_gap_excess_ms"] =
        e.timing->candidate.clockGapMs - std::max(e.timing->reference.clockGapMs, 0.0);

  Json out = {{"clock-identity", {{"replaced", patches}}},
              {"import-state", {{"changes", imports}}},
              {"refused-writes", {{"refused", refused}}},
              {"torch-settings",
               {{"candidate_changed", e.candidateSettings}, {"reference", settingsOf[0]}, {"candidate", settingsOf[1]}}},
              {"torch-identity", {{"replaced", rebinds}}},
              {"reference-alone", alone},
              {"thread-pool", [&] {
                 const ThreadPoolEvidence& t = e.threadPool;
                 Json changes = Json::array();
                 for (const ThreadPoolChangeEvidence& c : t.changes)
                   changes.push_back({{"what", c.what}, {"before", c.before}, {"after", c.after}, {"when", c.when}});
                 Json j = ranOrNote(t.checked, t.note);
                 j.update({{"default_threads", t.defaultThreads},
                           {"reference_timed_threads", t.referenceTimedThreads},
                           {"count_observable", t.defaultThreads > 1},
                           {"changes", changes}});
                 return j;
               }()},
              {"l2-persistence", [&] {
                 Json j = ranOrNote(e.l2.checked, e.l2.note);
                 j.update({{"limit_before", e.l2.limitBefore},
                           {"limit_after", e.l2.limitAfter},
                           {"window_bytes", e.l2.windowBytes},
                           {"window_persisting", e.l2.windowPersisting},
                           {"reset_before_each_trial", e.device == "cuda"}});
                 return j;
               }()},
              {"program-inputs", inputs},
              {"input-mutation", {{"mutations", mutations}}},
              {"storage-identity", {{"aliases", aliases}}},
              {"output-type", output},
              {"memory-poison", e.poisoned ? Json{{"seed", e.poisoned->seed},
                                                  {"poisoned", e.poisoned->poisoned},
                                                  {"numel", e.poisoned->numel},
                                                  {"pattern", e.poisoned->pattern}}
                                           : Json{{"poisoned", 0}}},
              {"nonfinite", e.nonfinite ? Json{{"seed", e.nonfinite->seed},
                                               {"nonfinite", e.nonfinite->count},
                                               {"numel", e.nonfinite->numel}}
                                        : Json{{"nonfinite", 0}}},
              {"repeat-calls", repeat},
              {"deferred-work", deferred},
              {"decoy", decoy},
              {"float64-reference", precision},
              {"weak-task", weak},
              {"input-distributions", inputDistributions},
              {"nondeterminism", nondeterminism},
              {"timed-outputs", drift},
              {"kernel-streams", streams},
              {"kernel-origin", origin},
              {"timing", timing}};
  return out;
}

}  // namespace ks::engine
