#pragma once
// Internal to core/probes: the helpers the verdicts share, and the verdicts themselves, one per file
// (verdict_<name>.cpp), each turning one probe's evidence into runtime flags. judgeProbes (probe_verdicts.cpp)
// calls them in order; a verdict reads the flags of those before it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/probes/probe_verdicts.h"

namespace ks::engine::verdicts {

using Json = nlohmann::ordered_json;
using Flags = std::vector<protocol::RuntimeFlag>;

// A number in three significant digits ("%.3g").
std::string num(double v);
// Milliseconds as a person reads them: whole ones from 100 up ("2310", not "2.31e+03").
std::string wholeMs(double v);
// "part of whole".
std::string count(std::int64_t part, std::int64_t whole);
void add(Flags& out, std::string family, const char* severity, double confidence, const char* probe,
         std::string message, Json evidence, std::vector<int> lines = {});
// Whether a flag of `family` is in `out` already.
bool has(const Flags& out, std::string_view family);

// A torch setting of float32 math precision (lowered-precision and unfair-baseline).
bool precisionSetting(const std::string& name);
// What the repeat calls showed (output-aliases-input and the repeat-call families).
bool repeatStale(const RepeatEvidence& r);
bool repeatIndependent(const RepeatEvidence& r);
// Two calls on identical inputs apart by more than reassociation explains (validation-drift, nondeterminism).
bool nondeterministic(const ProbeEvidence& e);
// A family in `out` already explains why the outputs are unreliable (validation-drift, input-branching).
bool outputsExplained(const Flags& out);

// The verdicts, in judgeProbes' order.
void clockPatches(const ProbeEvidence& e, Flags& out, bool checkers);  // verdict_clock_patches.cpp
void importChanges(const ProbeEvidence& e, Flags& out);                // verdict_import_changes.cpp
void refusedWrites(const ProbeEvidence& e, Flags& out);                // verdict_refused_writes.cpp
void changedInputs(const ProbeEvidence& e, Flags& out);                // verdict_changed_inputs.cpp
void outputContents(const ProbeEvidence& e, Flags& out);               // verdict_output_contents.cpp
void mutations(const ProbeEvidence& e, Flags& out);                    // verdict_mutations.cpp
void aliases(const ProbeEvidence& e, Flags& out);                      // verdict_aliases.cpp
void repeatCalls(const ProbeEvidence& e, Flags& out);                  // verdict_repeat_calls.cpp
void decoy(const ProbeEvidence& e, Flags& out);                        // verdict_decoy.cpp
void weakTask(const ProbeEvidence& e, Flags& out);                     // verdict_weak_task.cpp
void precision(const ProbeEvidence& e, Flags& out);                    // verdict_precision.cpp
void deferredWork(const ProbeEvidence& e, Flags& out);                 // verdict_deferred_work.cpp
void streams(const ProbeEvidence& e, Flags& out);                      // verdict_streams.cpp
void kernelOrigin(const ProbeEvidence& e, Flags& out);                 // verdict_kernel_origin.cpp
void clockGap(const ProbeEvidence& e, Flags& out);                     // verdict_clock_gap.cpp
void physicalBounds(const ProbeEvidence& e, Flags& out);               // verdict_physical_bounds.cpp
void drift(const ProbeEvidence& e, Flags& out);                        // verdict_drift.cpp
void distributions(const ProbeEvidence& e, Flags& out);                // verdict_distributions.cpp
void nondeterminism(const ProbeEvidence& e, Flags& out);               // verdict_nondeterminism.cpp
void unfairBaseline(const ProbeEvidence& e, Flags& out);               // verdict_unfair_baseline.cpp
void slowedReference(const ProbeEvidence& e, Flags& out);              // verdict_slowed_reference.cpp
void l2Persistence(const ProbeEvidence& e, Flags& out);                // verdict_l2_persistence.cpp

}  // namespace ks::engine::verdicts
