// The classifier on compiler output as torch and nvcc print it (the messages of issue #21 and the CUDA-L1
// release's failures).
#include "core/repair/build_cause.h"

#include <gtest/gtest.h>

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

TEST(BuildCause, ABoundGlobalKernelIsToldFromAnUndeclaredFunction) {
  const char* out =
      "/tmp/ext/main.cpp:4:59: error: 'diagonal_matmul_kernel' was not declared in this scope\n";
  const char* program =
      "src = '''__global__ void diagonal_matmul_kernel(const float* A, float* C, int N) {}'''";
  EXPECT_EQ(classifyBuildFailure(out, program).cause, BuildCause::BoundKernel);
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
