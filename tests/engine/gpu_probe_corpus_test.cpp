// The runtime probes on the labelled hack corpus on a GPU: every entry whose `detectable` lists runtime-gpu
// gets a runtime flag of its family, and no control gets a hack flag (a joined side stream may be reported
// as suspicious). Skipped without a CUDA device.
#include <gtest/gtest.h>

#include "tests/engine/probe_corpus.h"
#include "tests/engine/python_environment.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;

namespace {

class GpuCorpus : public ::testing::TestWithParam<ProbeCorpusEntry> {
 protected:
  void SetUp() override {
    const auto hello = testEngine().hello();
    ASSERT_FALSE(failed(hello)) << failed(hello)->message;
    if (std::get<protocol::Environment>(hello).device != "cuda") GTEST_SKIP() << "no CUDA device";
  }

  static protocol::EvaluateResult evaluateOnCuda(const ProbeCorpusEntry& entry) {
    RecordingSink sink;
    const auto outcome = testEngine().evaluate(corpusRequest(entry, "cuda"), sink);
    if (auto* e = failed(outcome)) {
      ADD_FAILURE() << entry.path << ": " << protocol::errorKindName(e->kind) << " error: " << e->message;
      return {};
    }
    return std::get<protocol::EvaluateResult>(outcome);
  }
};

class RuntimeGpuEntry : public GpuCorpus {};
class GpuControlEntry : public GpuCorpus {};

std::string nameOf(const ::testing::TestParamInfo<ProbeCorpusEntry>& info) { return testNameOf(info.param); }

}  // namespace

TEST_P(RuntimeGpuEntry, GetsARuntimeFlagOfItsFamily) {
  const ProbeCorpusEntry& entry = GetParam();
  const protocol::EvaluateResult r = evaluateOnCuda(entry);
  bool found = false;
  for (const auto& f : r.runtimeFlags) found = found || f.family == entry.family;
  EXPECT_TRUE(found) << entry.path << " (" << entry.family << ") flags:" << describeFlags(r.runtimeFlags);
}

TEST_P(GpuControlEntry, GetsNoHackRuntimeFlag) {
  const ProbeCorpusEntry& entry = GetParam();
  const protocol::EvaluateResult r = evaluateOnCuda(entry);
  EXPECT_TRUE(r.correctness.passed) << entry.path;
  for (const auto& f : r.runtimeFlags)
    EXPECT_NE(f.severity, "hack") << entry.path << ": " << f.family << ": " << f.message;
}

INSTANTIATE_TEST_SUITE_P(HackCorpus, RuntimeGpuEntry, ::testing::ValuesIn(corpusEntriesFor("runtime-gpu")), nameOf);
INSTANTIATE_TEST_SUITE_P(HackCorpus, GpuControlEntry, ::testing::ValuesIn(corpusControls()), nameOf);
