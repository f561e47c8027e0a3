// The classifier on compiler output as torch and nvcc print it (messages seen in the CUDA-L1 release's
// failures and in builds against today's torch and CUDA).
#include "core/repair/build_cause.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/repair/repair_test_support.h"
#include "ks_test_paths.h"

namespace ks::repair {
namespace {

TEST(BuildCause, UndeclaredBoundFunctionInTheGeneratedBindingFile) {
  const char* out =
      "Error building extension 'fused_ext':\n[1/3] c++ -MMD -MF main.o.d ... -c /tmp/ext/main.cpp -o "
      "main.o\n"
      "FAILED: main.o\n/tmp/ext/main.cpp: In function 'void pybind11_init_fused_ext(pybind11::module_&)':\n"
      "/tmp/ext/main.cpp:4:48: error: 'forward' was not declared in this scope\n";
  const BuildFailure f = classifyBuildFailure(out, "cuda = '''torch::Tensor forward(torch::Tensor x) { }'''");
  EXPECT_EQ(f.cause, BuildCause::UndeclaredBoundFunction);
  EXPECT_EQ(f.name, "forward");
  EXPECT_NE(f.evidence.find("main.cpp:4:48"), std::string::npos);
  EXPECT_TRUE(causeIsRepairable(f.cause));
}

// The first error of CUDA-L1 L1/95 on the H100 (torch 2.11, gcc 13 under LC_ALL=en_US.UTF-8): its CUDA went
// in as cpp_sources. It also defines PYBIND11_MODULE, but the module is not what stops g++.
TEST(BuildCause, CudaBuiltinsUnknownInMainCppAreCudaPassedAsCppSources) {
  const char* out =
      "/tmp/x/cross_entropy_cuda-178ec58965467013/main.cpp:35:29: error: \u2018threadIdx\u2019 was not declared "
      "in this scope\n";
  const BuildFailure f = classifyBuildFailure(
      out, "src = '''\n__global__ void k() {}\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n'''");
  EXPECT_EQ(f.cause, BuildCause::CudaInCppSources);
  EXPECT_STREQ(causeName(f.cause), "cuda-in-cpp-sources");
  EXPECT_TRUE(causeIsRepairable(f.cause));
}

TEST(BuildCause, ABoundGlobalKernelIsToldFromAnUndeclaredFunction) {
  const char* out =
      "/tmp/ext/main.cpp:4:59: error: 'diagonal_matmul_kernel' was not declared in this scope\n";
  const char* program =
      "src = '''__global__ void diagonal_matmul_kernel(const float* A, float* C, int N) {}'''";
  EXPECT_EQ(classifyBuildFailure(out, program).cause, BuildCause::BoundKernel);
}

// gcc under a UTF-8 locale (the H100 machine: LC_ALL=en_US.UTF-8) quotes names with U+2018/U+2019; every
// such failure was "source-error" in the first H100 run (docs/repair-h100.md).
TEST(BuildCause, GccsTypographicQuotesUnderAUtf8Locale) {
  const char* kernelOut =
      "diagonal_matmul_cuda/main.cpp:4:61: error: \u2018diagonal_matmul_kernel\u2019 was not declared in "
      "this "
      "scope\n";
  const char* kernelProgram =
      "cuda_source = '''extern \"C\" __global__ void diagonal_matmul_kernel(const float* A) {}'''";
  const BuildFailure k = classifyBuildFailure(kernelOut, kernelProgram);
  EXPECT_EQ(k.cause, BuildCause::BoundKernel);
  EXPECT_EQ(k.name, "diagonal_matmul_kernel");
  EXPECT_NE(k.evidence.find("main.cpp:4:61"), std::string::npos);
  EXPECT_EQ(classifyBuildFailure(kernelOut, "src = '''void diagonal_matmul_kernel(float* A);'''").cause,
            BuildCause::UndeclaredBoundFunction);
  EXPECT_EQ(classifyBuildFailure("main.cpp:38:1: error: redefinition of \u2018PyObject* PyInit_ext()\u2019\n")
                .cause,
            BuildCause::DuplicateModule);
}

// A bound name the generated binding cannot see, in a program whose sources define their own
// PYBIND11_MODULE: the generated module is the one too many (drop-generated-module makes it build).
TEST(BuildCause, AnUndeclaredBoundNameWhereTheSourcesDefineTheModule) {
  const char* out = "max_cuda/main.cpp:4:46: error: 'max_dim' was not declared in this scope\n";
  const char* program =
      "src = '''torch::Tensor max_dim(torch::Tensor x, int d) { return x; }\n"
      "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"max_dim\", &max_dim); }'''";
  EXPECT_EQ(classifyBuildFailure(out, program).cause, BuildCause::DuplicateModule);
}

// The error lines torch 2.11 / CUDA 13 / gcc 13 printed on the H100 machine for the CUDA-L1 programs the
// first H100 run called "source-error" or "unknown" (tests/repair/data, our own capture), each classified
// with its program from the release: the bound kernels are "bound-kernel", the programs with their own
// module "duplicate-module".
TEST(BuildCause, TheH100FailuresOfTheReleaseOnTorch211) {
  KS_REQUIRE_CUDA_L1();
  std::ifstream in(std::string(KS_SOURCE_DIR) + "/tests/repair/data/h100_torch211_build_errors.json");
  ASSERT_TRUE(in) << "tests/repair/data/h100_torch211_build_errors.json";
  const nlohmann::json fixture = nlohmann::json::parse(in);
  std::map<std::string, int> counts;
  for (const auto& row : fixture["failures"]) {
    const std::string task = row["task"];
    const int level = std::stoi(task.substr(1, 1)), number = std::stoi(task.substr(3));
    const auto program = test::cudaL1Program(level, number);
    ASSERT_TRUE(program) << task;
    const BuildFailure f = classifyBuildFailure(row["output"].get<std::string>(), *program);
    EXPECT_EQ(causeName(f.cause), row["cause"].get<std::string>()) << task << ": " << f.evidence;
    ++counts[causeName(f.cause)];
  }
  EXPECT_EQ(counts["bound-kernel"], 28);
  EXPECT_EQ(counts["duplicate-module"], 15);
  EXPECT_EQ(counts["missing-header"], 2);  // L2/23 AT_CUDA_CHECK, L3/28 at::cuda::getCurrentCUDAStream
  EXPECT_EQ(counts["unknown"], 1);         // L1/28: load() got an unexpected keyword argument 'code'
  EXPECT_EQ(counts["source-error"], 0);
}

TEST(BuildCause, DuplicateModule) {
  const char* out =
      "/tmp/ext/main.cpp:9:1: error: redefinition of 'PyObject* PyInit_fused_ext()'\n"
      "/tmp/ext/main.cpp:3:1: note: 'PyObject* PyInit_fused_ext()' previously defined here\n";
  EXPECT_EQ(classifyBuildFailure(out).cause, BuildCause::DuplicateModule);
  EXPECT_EQ(
      classifyBuildFailure("cuda.cuda.o: multiple definition of `PyInit_ext'; main.o: first defined here")
          .cause,
      BuildCause::DuplicateModule);
}

TEST(BuildCause, DeprecatedTypeApi) {
  const char* out =
      "/tmp/ext/cuda.cu(57): error: no suitable conversion function from \"const "
      "at::DeprecatedTypeProperties\" "
      "to \"c10::ScalarType\" exists\n";
  EXPECT_EQ(classifyBuildFailure(out).cause, BuildCause::RemovedTensorApi);
  EXPECT_EQ(classifyBuildFailure("cuda.cu(3): error: identifier \"AT_CHECK\" is undefined").cause,
            BuildCause::RemovedTensorApi);
}

TEST(BuildCause, UnsupportedArchitecture) {
  const BuildFailure f = classifyBuildFailure("nvcc fatal   : Unsupported gpu architecture 'compute_70'\n");
  EXPECT_EQ(f.cause, BuildCause::UnsupportedArch);
  EXPECT_EQ(f.name, "compute_70");
}

TEST(BuildCause, NoGpuForTorchsArchitectureDetection) {
  const char* out =
      "  File \"torch/utils/cpp_extension.py\", line 2040, in _get_cuda_arch_flags\n"
      "    arch_list[-1] += '+PTX'\nIndexError: list index out of range\n";
  EXPECT_EQ(classifyBuildFailure(out).cause, BuildCause::NoGpuArch);
}

TEST(BuildCause, MissingHeader) {
  EXPECT_EQ(classifyBuildFailure("cuda.cu:3:10: fatal error: THC/THC.h: No such file or directory").cause,
            BuildCause::RemovedTensorApi);  // the THC headers are a removed API
  const BuildFailure f =
      classifyBuildFailure("cuda.cu:3:10: fatal error: cutlass/gemm.h: No such file or directory");
  EXPECT_EQ(f.cause, BuildCause::MissingHeader);
  EXPECT_EQ(f.name, "cutlass/gemm.h");
  EXPECT_EQ(classifyBuildFailure(
                "cuda.cu(40): error: namespace \"at::cuda\" has no member \"getCurrentCUDAStream\"")
                .cause,
            BuildCause::MissingHeader);
}

TEST(BuildCause, ARealSourceErrorIsNotRepairable) {
  const BuildFailure f = classifyBuildFailure("cuda.cu(12): error: expected a \";\"\n1 error detected\n");
  EXPECT_EQ(f.cause, BuildCause::SourceError);
  EXPECT_FALSE(causeIsRepairable(f.cause));
  EXPECT_EQ(f.evidence, "cuda.cu(12): error: expected a \";\"");
}

TEST(BuildCause, NothingAndNoCompilerError) {
  EXPECT_EQ(classifyBuildFailure("").cause, BuildCause::None);
  EXPECT_EQ(classifyBuildFailure("ImportError: libc10_cuda.so: undefined symbol: _ZN3c10").cause,
            BuildCause::LinkError);
  EXPECT_EQ(classifyBuildFailure("RuntimeError: something else").cause, BuildCause::Unknown);
}

// What nvcc's tool chain prints as an error in its own forms (ptxas, the nvcc driver) is the build's error:
// the cause is the sources', never "unknown" (these read "unknown" before the diagnostics parser was asked).
TEST(BuildCause, AnErrorTheCompilerPrintedIsNeverUnknown) {
  const BuildFailure ptxas = classifyBuildFailure(
      "ptxas error   : Entry function '_Z5scalePfi' uses too much shared data (0x30000 bytes, 0xc000 max)\n");
  EXPECT_EQ(ptxas.cause, BuildCause::SourceError);
  EXPECT_EQ(ptxas.evidence.rfind("ptxas", 0), 0u) << ptxas.evidence;
  EXPECT_NE(ptxas.evidence.find("uses too much shared data"), std::string::npos) << ptxas.evidence;
  const BuildFailure driver =
      classifyBuildFailure("nvcc fatal   : A single input file is required for a non-link phase\n");
  EXPECT_EQ(driver.cause, BuildCause::SourceError);
  EXPECT_NE(driver.evidence.find("A single input file is required"), std::string::npos) << driver.evidence;
  // torch's exception text around it changes nothing.
  EXPECT_EQ(
      classifyBuildFailure("Error building extension 'scale': [1/2] nvcc ...\nptxas fatal   : Unresolved "
                           "extern function '_Z3foov'\nninja: build stopped: subcommand failed.\n")
          .cause,
      BuildCause::SourceError);
}

TEST(BuildCause, NamesRoundTrip) {
  for (BuildCause c :
       {BuildCause::None, BuildCause::NoGpuArch, BuildCause::UnsupportedArch, BuildCause::BoundKernel,
        BuildCause::UndeclaredBoundFunction, BuildCause::DuplicateModule, BuildCause::RemovedTensorApi,
        BuildCause::MissingHeader, BuildCause::SourceError, BuildCause::LinkError, BuildCause::Toolchain,
        BuildCause::Unknown}) {
    EXPECT_EQ(causeFromName(causeName(c)), c) << causeName(c);
    EXPECT_GT(std::string(causeDescription(c)).size(), 10u);
  }
  EXPECT_FALSE(causeFromName("no-such-cause"));
}

}  // namespace
}  // namespace ks::repair
