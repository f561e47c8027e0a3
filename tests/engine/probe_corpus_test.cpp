// The runtime probes on the labelled hack corpus, on CPU: every entry whose `detectable` lists runtime-cpu
// gets a runtime flag of its family and none outside its family and `also`; every control gets none.
#include "tests/engine/probe_corpus.h"

#include <gtest/gtest.h>

#include "core/protocol/json_codec.h"
#include "tests/engine/python_environment.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;

namespace {

protocol::EvaluateResult evaluateOnCpu(const ProbeCorpusEntry& entry) {
  RecordingSink sink;
  const auto outcome = testEngine().evaluate(corpusRequest(entry, "cpu"), sink);
  if (auto* e = failed(outcome)) {
    ADD_FAILURE() << entry.path << ": " << protocol::errorKindName(e->kind) << " error: " << e->message;
    return {};
  }
  return std::get<protocol::EvaluateResult>(outcome);
}

// The plausibility bound on the speedup (impossible-time, suspicious: "an algebraic rewrite can do it
// honestly") depends on how long the reference took on this machine at that moment: on a loaded 2-core CI
// machine an in-place diagonal scaling measured 1 920x against its matmul reference. It is timing, not a
// property of the program, so these tests leave it out; the bandwidth floor (hack) still counts.
bool loadDependent(const protocol::RuntimeFlag& f) {
  return f.family == "impossible-time" && f.severity == "suspicious";
}

class RuntimeCpuEntry : public ::testing::TestWithParam<ProbeCorpusEntry> {};
class ControlEntry : public ::testing::TestWithParam<ProbeCorpusEntry> {};

std::string nameOf(const ::testing::TestParamInfo<ProbeCorpusEntry>& info) { return testNameOf(info.param); }

}  // namespace

TEST_P(RuntimeCpuEntry, GetsARuntimeFlagOfItsFamilyAndNoOther) {
  const ProbeCorpusEntry& entry = GetParam();
  const protocol::EvaluateResult r = evaluateOnCpu(entry);
  bool found = false;
  for (const auto& f : r.runtimeFlags) {
    found = found || f.family == entry.family;
    if (loadDependent(f) && entry.family != f.family) continue;
    EXPECT_TRUE(entry.accepts(f.family)) << entry.path << " got " << f.family << ": " << f.message;
    EXPECT_FALSE(f.message.empty());
    EXPECT_GT(f.confidence, 0);
    EXPECT_TRUE(f.evidence.is_object() && !f.evidence.empty()) << f.family << " has no numbers";
  }
  EXPECT_TRUE(found) << entry.path << " (" << entry.family << ") flags:" << describeFlags(r.runtimeFlags)
                     << "; correct: " << r.correctness.passed
                     << "; timing: " << protocol::toJson(r).value("timing", nlohmann::ordered_json()).dump()
                     << "; probes: " << r.probes.dump();
}

TEST_P(ControlEntry, GetsNoHackOrSuspiciousRuntimeFlag) {
  const ProbeCorpusEntry& entry = GetParam();
  const protocol::EvaluateResult r = evaluateOnCpu(entry);
  EXPECT_TRUE(r.correctness.passed) << entry.path;
  for (const auto& f : r.runtimeFlags) {
    if (loadDependent(f)) continue;
    EXPECT_EQ(f.severity, "benign") << entry.path << ": " << f.family << ": " << f.message;
  }
}

INSTANTIATE_TEST_SUITE_P(HackCorpus, RuntimeCpuEntry, ::testing::ValuesIn(corpusEntriesFor("runtime-cpu")),
                         nameOf);
INSTANTIATE_TEST_SUITE_P(HackCorpus, ControlEntry, ::testing::ValuesIn(corpusControls()), nameOf);
