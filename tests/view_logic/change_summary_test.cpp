// ChangeSummary: what a candidate changed, read from the code.
#include "views/logic/change_summary.h"

#include <gtest/gtest.h>

#include "tests/view_logic/synthetic_run.h"

namespace ks {
namespace {

TEST(ChangeSummary, FindsKernelsModulesAndTorchCalls) {
  const auto run = test::syntheticRun();
  const Task& task = run->task(test::kRowE);
  const ChangeSummary s = ChangeSummary::compute(task.referenceCode, *run->candidate(test::kRowE)->code);
  EXPECT_EQ(s.kernels, QStringList{"scale_kernel"});
  EXPECT_EQ(s.modules, QStringList{"scale_ext"});
  EXPECT_TRUE(s.torchOpsRemoved.contains("torch.matmul"));
  EXPECT_TRUE(s.torchOpsAdded.contains("torch.mm"));
  EXPECT_FALSE(s.torchOpsAdded.contains("torch.randn"));  // called by both
  EXPECT_GT(s.linesAdded, 20);
  EXPECT_GE(s.linesRemoved, 1);
}

TEST(ChangeSummary, ReadsLaunchBoundsAndTemplates) {
  const ChangeSummary s =
      ChangeSummary::compute("",
                             "template <int N>\n__global__ void __launch_bounds__(256) tiled(float* x) {}\n"
                             "__global__ void\nplain_kernel(float* y) {}\n");
  EXPECT_EQ(s.kernels, (QStringList{"tiled", "plain_kernel"}));
  EXPECT_TRUE(s.torchOpsAdded.isEmpty());
}

}  // namespace
}  // namespace ks
