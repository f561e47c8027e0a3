// Run without a GPU: the rule that sends a program to nvcc instead of the runner (the GUI's Run and
// kscope run share it) and the words its compile is told in.
#include "core/runs/program_compile.h"

#include <gtest/gtest.h>

using namespace ks;

namespace {

const std::string kCuda =
    "import torch\nfrom torch.utils.cpp_extension import load_inline\n"
    "src = '''\n__global__ void k(float* x) { x[0] = 1; }\n'''\n"
    "ext = load_inline(name='k', cpp_sources='', cuda_sources=src)\n";
const std::string kPlain = "import torch\nclass ModelNew(torch.nn.Module):\n    pass\n";

}  // namespace

TEST(ProgramCompile, CompilesInsteadOfRunningOnlyWithoutAGpuAndForCuda) {
  EXPECT_TRUE(runs::buildsCudaExtension(kCuda));
  EXPECT_FALSE(runs::buildsCudaExtension(kPlain));
  EXPECT_TRUE(runs::compilesInsteadOfRunning("cpu", kCuda, false));
  EXPECT_FALSE(runs::compilesInsteadOfRunning("cuda", kCuda, false)) << "a GPU: it runs";
  EXPECT_FALSE(runs::compilesInsteadOfRunning("cpu", kCuda, true)) << "asked to run anyway";
  EXPECT_FALSE(runs::compilesInsteadOfRunning("cpu", kPlain, false))
      << "nothing to compile: it runs on the CPU";
}

TEST(ProgramCompile, SummaryWords) {
  nvcc::BuildResult failed;
  failed.ok = false;
  failed.log = "cuda_source.cu(5): error: expected a \";\"\n";
  failed.diagnostics.push_back({.file = "cuda_source.cu",
                                .line = 5,
                                .severity = nvcc::Severity::Error,
                                .message = "expected a \";\"",
                                .tool = "nvcc",
                                .pythonLine = 7});
  EXPECT_EQ(runs::compileSummary(failed, "", "sm_90a", kCuda),
            "compiled for sm_90a: 1 error (source-error); cuda_source.cu:5 (Python line 7): error: expected "
            "a \";\"");
  nvcc::BuildResult built;
  built.ok = true;
  built.compileSeconds = 31.2;
  built.kernels.push_back({.name = "k(float*)", .registers = 12, .sharedBytes = 0});
  EXPECT_EQ(runs::compileSummary(built, "", "sm_80", kCuda),
            "compiled for sm_80 without errors: 1 kernel (k: 12 registers, 0 B shared, no spills), 31 s");
  EXPECT_EQ(runs::compileSummary({}, "no torch headers: x", "sm_90a", kCuda),
            "nothing compiled for sm_90a: no torch headers: x");
}
