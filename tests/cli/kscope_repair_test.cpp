// Repair through the kscope binary: the --repair and --compile options, and `check --compile` compiling
// embedded CUDA with nvcc alone (no GPU), repaired or not, on the program's Python lines. The compile tests
// need nvcc and a Python with torch (skipped, saying so, without them): a minute or two of nvcc each.
#include <cstdlib>
#include <string>

#include "tests/cli/cli_test_support.h"
#include "ks_test_paths.h"

namespace {

using namespace ks::clitest;


bool haveNvcc() {
  return fs::exists("/usr/local/cuda/bin/nvcc") || std::system("command -v nvcc >/dev/null 2>&1") == 0;
}

class KscopeRepair : public CliTest {};

TEST_F(KscopeRepair, RunBatchAndCheckOfferRepair) {
  for (const char* command : {"run", "batch", "check"}) {
    const Result r = kscope(std::string(command) + " --help");
    EXPECT_EQ(r.exitCode, 0) << command;
    EXPECT_NE(r.out.find("--repair"), std::string::npos) << command;
    EXPECT_NE(r.out.find("--arch"), std::string::npos) << command;
  }
  EXPECT_NE(kscope("check --help").out.find("--compile"), std::string::npos);
}

TEST_F(KscopeRepair, CompileWithoutAGpuShowsTheErrorOnItsPythonLine) {
  if (!haveNvcc()) GTEST_SKIP() << "no nvcc on this machine";
  const std::string program =
      "import torch\n"
      "from torch.utils.cpp_extension import load_inline\n"
      "cuda_source = '''\n"
      "__global__ void scale(float* x, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x\n"
      "  if (i < n) x[i] *= 2.0f;\n"
      "}\n"
      "'''\n"
      "ext = load_inline(name='scale', cpp_sources='', cuda_sources=cuda_source)\n"
      "class ModelNew(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return x * 2\n";
  const std::string reference =
      "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
      "def get_inputs():\n    return [torch.randn(8)]\ndef get_init_inputs():\n    return []\n";
  const json line = {{"level_id", 1}, {"task_id", 1}, {"ref_code", reference}, {"custom_code", program}};
  const fs::path file = write("broken.jsonl", line.dump() + "\n");
  const Result r = kscope("check " + quoted(file) + " --compile --arch sm_90 --json");
  if (r.exitCode == 2 && r.err.find("torch") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 1) << r.err << r.out;
  const json j = parse(r);
  ASSERT_EQ(j["candidates"].size(), 1u) << r.out;
  const json& c = j["candidates"][0];
  EXPECT_EQ(c["ok"], false);
  EXPECT_EQ(c["cause"], "source-error");
  // The missing ';' of Python line 5 is reported there or on the `if` that follows it.
  bool onItsLine = false;
  for (const json& d : c["diagnostics"])
    if (d["severity"] == "error" && (d.value("python_line", 0) == 5 || d.value("python_line", 0) == 6))
      onItsLine = true;
  EXPECT_TRUE(onItsLine) << c["diagnostics"].dump(2);
}

TEST_F(KscopeRepair, CompileARepairedBoundKernelOfTheRelease) {
  if (!fs::exists(kCudaL1)) GTEST_SKIP() << "CUDA-L1 dataset not found at " << kCudaL1;
  if (!haveNvcc()) GTEST_SKIP() << "no nvcc on this machine";
  const Result r =
      kscope("check " + quoted(kCudaL1) + " --task L1/12 --compile --repair --arch sm_90a --json");
  if (r.exitCode == 2 && r.err.find("torch") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const json j = parse(r);
  ASSERT_EQ(j["candidates"].size(), 1u);
  const json& c = j["candidates"][0];
  EXPECT_EQ(c["ok"], true) << c.dump(2);
  EXPECT_EQ(c["repair"]["repairs"][0]["kind"], "kernel-launcher");
  bool kernel = false;
  for (const json& k : c["kernels"])
    kernel = kernel || k["name"].get<std::string>().find("diagonal_matmul_kernel") != std::string::npos;
  EXPECT_TRUE(kernel) << c["kernels"].dump(2);
}

}  // namespace
