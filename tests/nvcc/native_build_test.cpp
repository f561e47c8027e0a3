// A native .cu built into a shared library with the shim, loaded with dlopen and called through the shim's
// ABI, exactly as the runner does, with the stand-in torch of fixtures/fake_torch on both sides.
#include "core/nvcc/native_build.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "core/nvcc/native_shim.h"
#include "tests/nvcc/build_test_support.h"
#include "tests/nvcc/fixtures/fake_torch/torch/types.h"

namespace ks::nvcc {
namespace {

using CallFn = int (*)(const at::Tensor*, int, at::Tensor*, char*, std::size_t);

BuildOptions nativeOptionsFor(const std::string& testWhat) {
  BuildOptions o;
  o.includeDirs = {test::fixture("fake_torch")};
  o.scratchDir = test::freshDir(testWhat);
  o.cacheDir = test::freshDir(testWhat + "-cache");
  o.deadlineSeconds = 120;
  return o;
}

TEST(NativeBuild, BuildsLoadsAndCallsTheEntryThroughTheShim) {
  KS_REQUIRE_NVCC();
  NativeKernel k{test::readFixture("add_kernel.cu"), "add_kernel.cu", "add", 2};
  BuildResult r = buildNativeLibrary(k, nativeOptionsFor("shim"));
  ASSERT_TRUE(r.ok) << r.message << "\n" << r.log;
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].name, "add_kernel(float const*, float const*, float*, int)");
  ASSERT_TRUE(std::filesystem::exists(r.library));

  void* lib = dlopen(r.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto abi = reinterpret_cast<int (*)()>(dlsym(lib, kShimAbiVersionSymbol));
  auto name = reinterpret_cast<const char* (*)()>(dlsym(lib, kShimEntryNameSymbol));
  auto arity = reinterpret_cast<int (*)()>(dlsym(lib, kShimEntryAritySymbol));
  auto call = reinterpret_cast<CallFn>(dlsym(lib, kShimCallSymbol));
  ASSERT_TRUE(abi && name && arity && call);
  EXPECT_EQ(abi(), kNativeShimAbiVersion);
  EXPECT_STREQ(name(), "add");
  EXPECT_EQ(arity(), 2);

  at::Tensor inputs[2] = {{{1, 2, 3}}, {{10, 20, 30}}};
  at::Tensor out;
  char error[256] = "";
  ASSERT_EQ(call(inputs, 2, &out, error, sizeof error), kShimCallOk) << error;
  EXPECT_EQ(out.values, (std::vector<float>{11, 22, 33}));

  EXPECT_EQ(call(inputs, 1, &out, error, sizeof error), kShimCallArityMismatch);
  EXPECT_NE(std::string(error).find("takes 2"), std::string::npos) << error;

  at::Tensor mismatched[2] = {{{1, 2}}, {{1}}};
  EXPECT_EQ(call(mismatched, 2, &out, error, sizeof error), kShimCallThrew);
  EXPECT_STREQ(error, "add: sizes differ");
  dlclose(lib);

  BuildResult again = buildNativeLibrary(k, nativeOptionsFor("shim"));
  EXPECT_FALSE(again.cacheHit);  // a fresh cache folder
}

TEST(NativeBuild, SecondBuildIsACacheHitWithTheSameLibrary) {
  KS_REQUIRE_NVCC();
  NativeKernel k{test::readFixture("add_kernel.cu"), "add_kernel.cu", "add", 2};
  BuildOptions o = nativeOptionsFor("native-cache");
  BuildResult first = buildNativeLibrary(k, o);
  ASSERT_TRUE(first.ok) << first.message;
  BuildResult second = buildNativeLibrary(k, o);
  EXPECT_TRUE(second.cacheHit);
  EXPECT_EQ(second.library, first.library);
  EXPECT_TRUE(std::filesystem::exists(second.library));
}

TEST(NativeBuild, ErrorsNameTheUsersFileAndLine) {
  KS_REQUIRE_NVCC();
  std::string code = test::readFixture("add_kernel.cu");
  code.replace(code.find("a[i] + b[i]"), 11, "a[i] + c[i]");
  const int line = test::lineContaining(code, "a[i] + c[i]");
  BuildResult r = buildNativeLibrary({code, "add_kernel.cu", "add", 2}, nativeOptionsFor("native-error"));
  EXPECT_FALSE(r.ok);
  ASSERT_GE(r.errorCount(), 1u) << r.log;
  EXPECT_EQ(r.diagnostics[0].file, "add_kernel.cu");
  EXPECT_EQ(r.diagnostics[0].line, line);
  EXPECT_FALSE(r.diagnostics[0].pythonLine.has_value());
  EXPECT_TRUE(r.library.empty());
}

TEST(NativeBuild, WrongArityIsReportedAtCompileTime) {
  KS_REQUIRE_NVCC();
  BuildResult r = buildNativeLibrary({test::readFixture("add_kernel.cu"), "add_kernel.cu", "add", 3},
                                     nativeOptionsFor("native-arity"));
  EXPECT_FALSE(r.ok);
  EXPECT_GE(r.errorCount(), 1u);
}

TEST(NativeBuild, EntryMustBeAFunctionName) {
  BuildResult r = buildNativeLibrary({"", "k.cu", "add(); system(\"x\")", 1}, nativeOptionsFor("native-name"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("not a C++ function name"), std::string::npos);
}

TEST(NativeShim, NamesAreValidated) {
  EXPECT_TRUE(isValidEntryName("hgemm"));
  EXPECT_TRUE(isValidEntryName("kernels::hgemm_v2"));
  EXPECT_FALSE(isValidEntryName("2fast"));
  EXPECT_FALSE(isValidEntryName("f(x)"));
  EXPECT_FALSE(isValidEntryName(""));
}

}  // namespace
}  // namespace ks::nvcc
