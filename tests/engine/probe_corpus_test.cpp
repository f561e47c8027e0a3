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
    EXPECT_EQ(f.severity, "benign") << entry.path << ": " << f.family << ": " << f.message;
  }
}

INSTANTIATE_TEST_SUITE_P(HackCorpus, RuntimeCpuEntry, ::testing::ValuesIn(corpusEntriesFor("runtime-cpu")),
                         nameOf);
INSTANTIATE_TEST_SUITE_P(HackCorpus, ControlEntry, ::testing::ValuesIn(corpusControls()), nameOf);
