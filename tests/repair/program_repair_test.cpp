// Each repair on real CUDA-L1 programs (by level/task) and the Stanford good-kernels, and on small programs
// written here; and what holds for every repaired program of the release: the kernels' code is unchanged,
// a second repair changes nothing, and nothing is repaired twice.
#include "core/repair/program_repair.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/pysource/embedded_sources.h"
#include "core/pysource/py_module.h"
#include "tests/repair/repair_test_support.h"
#include "ks_test_paths.h"

namespace ks::repair {
namespace {

int count(const ProgramRepair& r, RepairKind k) {
  int n = 0;
  for (const Repair& x : r.repairs) n += x.kind == k;
  return n;
}

std::string goodKernel(const std::string& task) {
  std::ifstream in(std::filesystem::path(KS_SHARED_DIR) / "datasets/good-kernels" / task / "src.py");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ProgramRepair, BoundKernelGetsAHostLauncherUnderItsName) {
  KS_CUDA_L1_PROGRAM(program, 1, 12);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(count(r, RepairKind::KernelLauncher), 1) << describeRepairs(r.repairs);
  EXPECT_NE(r.program.find("cuda_sources=cuda_source + r\"\"\""), std::string::npos);
  EXPECT_NE(r.program.find("functions=None"), std::string::npos);
  EXPECT_NE(r.program.find("m.def(\"diagonal_matmul_kernel\""), std::string::npos);
  EXPECT_NE(r.program.find("kscope_launch::fromPython(&diagonal_matmul_kernel, a, kw)"), std::string::npos);
  EXPECT_EQ(r.program.find("functions=[\"diagonal_matmul_kernel\"]"), std::string::npos);
  // The Python call site is left as it is: mod.kernel(grid=..., block=..., args=[...]).
  EXPECT_NE(r.program.find("diagonal_matmul_module.diagonal_matmul_kernel("), std::string::npos);
  EXPECT_NE(r.diff.find("-        functions=[\"diagonal_matmul_kernel\"],"), std::string::npos) << r.diff;
  EXPECT_NE(r.diff.find("+        functions=None,"), std::string::npos) << r.diff;
}

// CUDA-L1 L1/95 passes its CUDA (kernel, launch and PYBIND11_MODULE) as cpp_sources, with functions=: on the
// H100 g++ stopped at "main.cpp: 'threadIdx' was not declared". Both repairs apply: the text becomes
// cuda_sources, unchanged, and the generated module goes.
TEST(ProgramRepair, CudaPassedAsCppSourcesBecomesCudaSources) {
  KS_CUDA_L1_PROGRAM(program, 1, 95);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(count(r, RepairKind::CudaInCppSources), 1) << describeRepairs(r.repairs);
  EXPECT_EQ(count(r, RepairKind::DropGeneratedModule), 1) << describeRepairs(r.repairs);
  EXPECT_NE(r.program.find("cpp_sources=\"\", cuda_sources=cuda_source,"), std::string::npos) << r.diff;
  EXPECT_NE(r.diff.find("-                cpp_sources=cuda_source,"), std::string::npos) << r.diff;
  EXPECT_EQ(extractEmbedded(py::PyModule::parse(r.program)).extensions.size(), 1u);
  EXPECT_FALSE(repairProgram(r.program).changed());
}

TEST(ProgramRepair, CppSourcesWithoutCudaStayWhereTheyAre) {
  const std::string program =
      "from torch.utils.cpp_extension import load_inline\n"
      "src = '''\ntorch::Tensor twice(torch::Tensor x) { return x * 2; }\n'''\n"
      "m = load_inline(name='t', cpp_sources=src, functions=['twice'])\n";
  EXPECT_EQ(count(repairProgram(program), RepairKind::CudaInCppSources), 0);
  const std::string positional =
      "from torch.utils.cpp_extension import load_inline\n"
      "src = '''\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n'''\n"
      "m = load_inline('t', src, functions=['k'])\n";
  const ProgramRepair r = repairProgram(positional);
  EXPECT_EQ(count(r, RepairKind::CudaInCppSources), 0);
  ASSERT_FALSE(r.notRepaired.empty());
  EXPECT_NE(r.notRepaired[0].find("by position"), std::string::npos) << r.notRepaired[0];
}

TEST(ProgramRepair, TwoBoundKernelsOfOneCall) {
  KS_CUDA_L1_PROGRAM(program, 1, 13);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(count(r, RepairKind::KernelLauncher), 1);
  EXPECT_NE(r.program.find("m.def(\"matmul_kernel_fp16\""), std::string::npos);
  EXPECT_NE(r.program.find("m.def(\"matmul_kernel_fp32\""), std::string::npos);
}

TEST(ProgramRepair, DeclaresBoundFunctionsFromTheirDefinitions) {
  KS_CUDA_L1_PROGRAM(program, 2, 91);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(count(r, RepairKind::DeclareBoundFunctions), 1) << describeRepairs(r.repairs);
  EXPECT_NE(
      r.program.find("cpp_sources=\"\\ntorch::Tensor convtranspose2d_forward_cuda( torch::Tensor input, "
                     "torch::Tensor weight, torch::Tensor bias, int out_height, int out_width, int "
                     "kernel_size, int stride, int padding, float scaling_factor);\\ntorch::Tensor "
                     "softmax_bias_scale_sigmoid_cuda("),
      std::string::npos)
      << r.diff;
  // Its AT_DISPATCH(x.type()) calls are repaired too.
  EXPECT_EQ(count(r, RepairKind::RemovedTensorApi), 1);
  EXPECT_EQ(r.program.find(".type(),"), std::string::npos);
}

TEST(ProgramRepair, DropsTheGeneratedModuleWhereTheSourcesDefineOne) {
  KS_CUDA_L1_PROGRAM(program, 1, 3);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(r.repairs.size(), 1u) << describeRepairs(r.repairs);
  EXPECT_EQ(r.repairs[0].kind, RepairKind::DropGeneratedModule);
  EXPECT_NE(r.program.find("functions=None"), std::string::npos);
  // Only the functions= line changes: every other line keeps its number.
  EXPECT_EQ(std::count(r.program.begin(), r.program.end(), '\n'),
            std::count(program.begin(), program.end(), '\n'));
}

TEST(ProgramRepair, RemovedTensorApiAndMissingHeader) {
  KS_CUDA_L1_PROGRAM(program, 1, 48);
  const ProgramRepair r = repairProgram(program);
  EXPECT_EQ(count(r, RepairKind::RemovedTensorApi), 1) << describeRepairs(r.repairs);
  EXPECT_EQ(count(r, RepairKind::MissingHeader), 1) << describeRepairs(r.repairs);
  EXPECT_NE(r.program.find("#include <ATen/cuda/CUDAContext.h>"), std::string::npos);
  EXPECT_NE(r.program.find(".scalar_type(), \""), std::string::npos);
}

// L2/23 calls AT_CUDA_CHECK without the header that brings it (nvcc on the H100: identifier
// "AT_CUDA_CHECK" is undefined; tests/repair/data): the include is added, nothing else changes.
TEST(ProgramRepair, AtCudaCheckWithoutItsHeader) {
  KS_CUDA_L1_PROGRAM(program, 2, 23);
  const ProgramRepair r = repairProgram(program);
  ASSERT_EQ(count(r, RepairKind::MissingHeader), 1) << describeRepairs(r.repairs);
  EXPECT_NE(r.program.find("#include <ATen/cuda/CUDAContext.h>"), std::string::npos);
  EXPECT_NE(describeRepairs(r.repairs).find("AT_CUDA_CHECK is used without its header"), std::string::npos);
}

TEST(ProgramRepair, ArchitectureFlagsOfTheStanfordKernels) {
  const std::string program = goodKernel("MatmulFP32");
  if (program.empty()) GTEST_SKIP() << "good-kernels/MatmulFP32 is not in " << KS_SHARED_DIR;
  const ProgramRepair r = repairProgram(program, {.arch = "sm_90a"});
  ASSERT_EQ(count(r, RepairKind::ArchFlags), 1) << describeRepairs(r.repairs);
  EXPECT_NE(r.program.find("extra_cuda_cflags=[\"-arch=sm_90a\"]"), std::string::npos) << r.diff;
  EXPECT_EQ(r.repairs[0].what, "\"-arch=sm_70\" -> \"-arch=sm_90a\" (the local GPU's architecture)");
  // Already the local architecture: nothing to do.
  EXPECT_FALSE(repairProgram(r.program, {.arch = "sm_90a"}).changed());
}

TEST(ProgramRepair, EveryGoodKernelBuildsItsArchitectureForTheLocalGpu) {
  int seen = 0, repaired = 0;
  for (const char* task :
       {"Conv2D", "Conv2D_ReLU_MaxPool", "LayerNorm", "LayerNorm2", "MatmulFP32", "Softmax"}) {
    const std::string program = goodKernel(task);
    if (program.empty()) continue;
    ++seen;
    const ProgramRepair r = repairProgram(program, {.arch = "sm_90"});
    repaired += r.changed();
    EXPECT_EQ(r.program.find("-arch=sm_70"), std::string::npos) << task << "\n" << r.diff;
    for (const Repair& x : r.repairs) EXPECT_EQ(x.kind, RepairKind::ArchFlags) << task << ": " << x.what;
  }
  if (seen == 0) GTEST_SKIP() << "good-kernels is not in " << KS_SHARED_DIR;
  EXPECT_EQ(repaired, 3);  // Conv2D, Conv2D_ReLU_MaxPool, MatmulFP32 pass -arch=sm_70
}

TEST(ProgramRepair, SmallProgramWithEveryTensorApiRewrite) {
  const std::string program =
      "from torch.utils.cpp_extension import load_inline\n"
      "src = '''\n"
      "#include <torch/extension.h>\n"
      "torch::Tensor f(torch::Tensor x) {\n"
      "  AT_CHECK(x.type().is_cuda(), \"cuda\");\n"
      "  float* p = x.data<float>();\n"
      "  AT_DISPATCH_FLOATING_TYPES(x.type(), \"f\", ([&] { }));\n"
      "  return x;\n"
      "}\n"
      "'''\n"
      "ext = load_inline(name='e', cpp_sources='torch::Tensor f(torch::Tensor x);', cuda_sources=src, "
      "functions=['f'])\n";
  const ProgramRepair r = repairProgram(program);
  EXPECT_NE(r.program.find("TORCH_CHECK(x.is_cuda(), \"cuda\");"), std::string::npos) << r.program;
  EXPECT_NE(r.program.find("x.data_ptr<float>()"), std::string::npos);
  EXPECT_NE(r.program.find("AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), \"f\""), std::string::npos);
  EXPECT_EQ(count(r, RepairKind::RemovedTensorApi), 4);
  EXPECT_EQ(count(r, RepairKind::DeclareBoundFunctions), 0);  // cpp_sources declares f
  for (const Repair& x : r.repairs) EXPECT_FALSE(x.lines.empty());
}

TEST(ProgramRepair, StaticFunctionsAndTemplateKernelsAreNotRepaired) {
  const std::string program =
      "from torch.utils.cpp_extension import load_inline\n"
      "src = '''\n"
      "static torch::Tensor f(torch::Tensor x) { return x; }\n"
      "'''\n"
      "ext = load_inline(name='e', cpp_sources='', cuda_sources=src, functions=['f'])\n";
  const ProgramRepair r = repairProgram(program);
  EXPECT_FALSE(r.changed());
  ASSERT_EQ(r.notRepaired.size(), 1u);
  EXPECT_NE(r.notRepaired[0].find("static"), std::string::npos);
  EXPECT_EQ(r.program, program);
  EXPECT_EQ(r.diff, "");
}

TEST(ProgramRepair, RepairsSurviveJson) {
  const Repair r{RepairKind::KernelLauncher, "bound k", {3, 9}};
  EXPECT_EQ(repairFromJson(toJson(r)), r);
  EXPECT_EQ(toJson(r).dump(), R"({"kind":"kernel-launcher","lines":[3,9],"what":"bound k"})");
  EXPECT_FALSE(repairFromJson(nlohmann::json{{"kind", "nope"}}));
  EXPECT_EQ(describeRepairs({r}), "kernel-launcher (lines 3, 9): bound k\n");
}

// Over the whole release: what is repaired, and what holds for every repaired program.
TEST(ProgramRepair, TheReleasesExtensionPrograms) {
  KS_REQUIRE_CUDA_L1();
  std::map<std::string, int> kinds;
  int programs = 0, repaired = 0;
  const std::regex kernelHead("__global__[^{;]*\\{");
  for (const auto& [id, program] : test::cudaL1Programs()) {
    if (!test::buildsExtension(program)) continue;
    ++programs;
    const std::string name = "L" + std::to_string(id.first) + "/" + std::to_string(id.second);
    const ProgramRepair r = repairProgram(program);
    repaired += r.changed();
    for (const Repair& x : r.repairs) ++kinds[repairKindName(x.kind)];
    // A second repair finds nothing left to do.
    const ProgramRepair again = repairProgram(r.program);
    EXPECT_FALSE(again.changed()) << name << ":\n" << describeRepairs(again.repairs);
    // Every kernel's signature is still in the repaired program, unchanged.
    for (auto it = std::sregex_iterator(program.begin(), program.end(), kernelHead);
         it != std::sregex_iterator(); ++it)
      EXPECT_NE(r.program.find(it->str()), std::string::npos) << name << ": " << it->str();
    // The repaired program still parses into the same number of load_inline calls.
    EXPECT_EQ(extractEmbedded(py::PyModule::parse(r.program)).extensions.size(),
              extractEmbedded(py::PyModule::parse(program)).extensions.size())
        << name;
    EXPECT_EQ(r.changed(), !r.diff.empty()) << name;
  }
  std::printf("%d extension programs, %d repaired:", programs, repaired);
  for (const auto& [k, n] : kinds) std::printf(" %s %d", k.c_str(), n);
  std::printf("\n");
  EXPECT_GE(programs, 74);
  EXPECT_GE(repaired, 65);
  EXPECT_GE(kinds["kernel-launcher"], 25);
  EXPECT_GE(kinds["drop-generated-module"], 30);
}

}  // namespace
}  // namespace ks::repair
