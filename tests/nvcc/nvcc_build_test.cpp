// Real nvcc runs (compile-only; no GPU needed): a small kernel, a load_inline program with an error mapped
// to its Python line, and the build cache. Torch is replaced by the stand-in headers in fixtures/fake_torch.
#include <gtest/gtest.h>

#include "core/nvcc/python_sources_build.h"
#include "tests/nvcc/build_test_support.h"

namespace ks::nvcc {
namespace {

BuildOptions pythonSourcesOptionsFor(const std::string& testWhat) {
  BuildOptions o;
  o.arch = "sm_90";
  o.includeDirs = {test::fixture("fake_torch")};
  o.scratchDir = test::freshDir(testWhat);
  o.deadlineSeconds = 120;
  return o;
}

TEST(PythonSourcesBuild, CompilesEmbeddedKernelAndReportsItsResources) {
  KS_REQUIRE_NVCC();
  const std::string program = test::readFixture("scale_program.py");
  BuildResult r = buildPythonSources(program, pythonSourcesOptionsFor("ok"));
  ASSERT_TRUE(r.ok) << r.message << "\n" << r.log;
  EXPECT_EQ(r.errorCount(), 0u);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].name, "scale_kernel(float const*, float*, float, int)");
  EXPECT_EQ(r.kernels[0].arch, "sm_90");
  EXPECT_GT(r.kernels[0].registers, 0);
  EXPECT_GT(r.compileSeconds, 0);
  EXPECT_FALSE(r.cacheHit);
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "-arch=sm_90"), r.flags.end());
}

TEST(PythonSourcesBuild, CompileErrorPointsAtThePythonLine) {
  KS_REQUIRE_NVCC();
  std::string program = test::readFixture("scale_program.py");
  const std::string good = "y[i] = x[i] * s;";
  program.replace(program.find(good), good.size(), "y[i] = x[i] * scale_factor;");
  const int pythonLine = test::lineContaining(program, "scale_factor");
  ASSERT_GT(pythonLine, 0);

  BuildResult r = buildPythonSources(program, pythonSourcesOptionsFor("error"));
  EXPECT_FALSE(r.ok);
  ASSERT_GE(r.errorCount(), 1u) << r.log;
  const Diagnostic& e = r.diagnostics.front();
  EXPECT_EQ(e.severity, Severity::Error);
  EXPECT_EQ(e.file, "cuda_source.cu");
  EXPECT_NE(e.message.find("scale_factor"), std::string::npos) << e.message;
  ASSERT_TRUE(e.pythonLine.has_value());
  EXPECT_EQ(*e.pythonLine, pythonLine);
  EXPECT_NE(r.message.find("Python line " + std::to_string(pythonLine)), std::string::npos) << r.message;
}

TEST(PythonSourcesBuild, SecondBuildOfUnchangedSourcesIsACacheHit) {
  KS_REQUIRE_NVCC();
  const std::string program = test::readFixture("scale_program.py");
  BuildOptions o = pythonSourcesOptionsFor("cache");
  o.cacheDir = test::freshDir("cache-root");
  BuildResult first = buildPythonSources(program, o);
  ASSERT_TRUE(first.ok) << first.message;
  EXPECT_FALSE(first.cacheHit);
  ASSERT_FALSE(first.cacheKey.empty());

  BuildResult second = buildPythonSources(program, o);
  EXPECT_TRUE(second.cacheHit);
  EXPECT_TRUE(second.ok);
  EXPECT_EQ(second.cacheKey, first.cacheKey);
  ASSERT_EQ(second.kernels.size(), first.kernels.size());
  EXPECT_EQ(second.kernels[0].registers, first.kernels[0].registers);
  EXPECT_DOUBLE_EQ(second.compileSeconds, first.compileSeconds);
  EXPECT_LT(second.seconds, first.seconds);

  // Any change to what is compiled, or how, is a different build.
  BuildOptions otherArch = o;
  otherArch.arch = "sm_80";
  BuildResult third = buildPythonSources(program, otherArch);
  EXPECT_FALSE(third.cacheHit);
  EXPECT_NE(third.cacheKey, first.cacheKey);
  std::string edited = program;
  edited.replace(edited.find("x[i] * s"), 8, "x[i] * s + 1.0f");
  EXPECT_FALSE(buildPythonSources(edited, o).cacheHit);
}

TEST(PythonSourcesBuild, CompileErrorsAreCachedToo) {
  KS_REQUIRE_NVCC();
  std::string program = test::readFixture("scale_program.py");
  program.replace(program.find("x[i] * s;"), 9, "x[i] * undefined_s;");
  BuildOptions o = pythonSourcesOptionsFor("cached-error");
  o.cacheDir = test::freshDir("cache-root");
  BuildResult first = buildPythonSources(program, o);
  BuildResult second = buildPythonSources(program, o);
  EXPECT_FALSE(first.ok);
  EXPECT_FALSE(second.ok);
  EXPECT_TRUE(second.cacheHit);
  ASSERT_EQ(second.errorCount(), first.errorCount());
  EXPECT_EQ(second.diagnostics[0].pythonLine, first.diagnostics[0].pythonLine);
  EXPECT_EQ(second.message, first.message);
}

TEST(PythonSourcesBuild, ProgramWithoutSourcesNeedsNoCompiler) {
  BuildResult r =
      buildPythonSources("import torch\nclass ModelNew(torch.nn.Module):\n    pass\n", pythonSourcesOptionsFor("none"));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_NE(r.message.find("nothing to compile"), std::string::npos);
}

TEST(PythonSourcesBuild, MissingNvccIsAnActionableError) {
  BuildOptions o = pythonSourcesOptionsFor("no-nvcc");
  o.nvcc = "/nonexistent/cuda/bin/nvcc";
  BuildResult r = buildPythonSources(test::readFixture("scale_program.py"), o);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("/nonexistent/cuda/bin/nvcc"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace ks::nvcc
