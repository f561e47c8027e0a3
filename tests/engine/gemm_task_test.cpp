// The GEMM path of the runner without a GPU: inputs and padding, the candidate wrapper over a stand-in shim
// call, and a whole measurement on the CPU whose correctness uses the float32 check reference.
#include "core/engine/gemm_task.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/engine/measurement.h"
#include "core/engine/runtime_probes.h"
#include "tests/engine/python_environment.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

using protocol::GemmSpec;

// Stand-ins for a library's kscope_call (GemmOut): c = a · b_col_majorᵀ computed in float32 and rounded
// once, as a float32-accumulating kernel does; the "wrong" one leaves the last 16 products of each sum out.
int goodCall(const at::Tensor* in, int count, at::Tensor* out, char* error, std::size_t size) {
  if (count != 3) {
    std::snprintf(error, size, "takes 3 tensors");
    return 1;
  }
  *out = at::matmul(in[0].to(at::kFloat), in[2].to(at::kFloat).t()).to(at::kHalf);
  return 0;
}

int wrongCall(const at::Tensor* in, int, at::Tensor* out, char*, std::size_t) {
  const std::int64_t k = in[0].size(1) - 16;
  *out = at::matmul(in[0].narrow(1, 0, k).to(at::kFloat), in[2].narrow(1, 0, k).to(at::kFloat).t()).to(at::kHalf);
  return 0;
}

int throwingCall(const at::Tensor*, int, at::Tensor*, char* error, std::size_t size) {
  std::snprintf(error, size, "values must be torch::kHalf");
  return 2;
}

py::object pythonFunction(const std::string& lambda) {
  py::dict globals;
  globals["torch"] = py::module_::import("torch");
  return py::module_::import("builtins").attr("eval")(lambda, globals);
}

TEST(GemmTask, PaddingRoundsUpToTheTileAndOnlyWhenNeeded) {
  protocol::GemmRun run = gemmRun(GemmSpec{1024, 1024, 1024, {128, 256, 32}});
  EXPECT_FALSE(run.padded());
  run = gemmRun(GemmSpec{64, 1024, 96, {128, 256, 64}});
  EXPECT_TRUE(run.padded());
  EXPECT_EQ(run.paddedM, 128);
  EXPECT_EQ(run.paddedN, 1024);
  EXPECT_EQ(run.paddedK, 128);
  run = gemmRun(GemmSpec{64, 64, 64, {}});
  EXPECT_FALSE(run.padded());
  EXPECT_EQ(gemmInputNames(run), (std::vector<std::string>{"a", "b", "b_col_major"}));
}

TEST(GemmTask, ToleranceScalesWithTheSquareRootOfK) {
  EXPECT_DOUBLE_EQ(gemmTolerance(1024).atol, 0.32);
  EXPECT_DOUBLE_EQ(gemmTolerance(16384).atol, 1.28);
  EXPECT_DOUBLE_EQ(gemmTolerance(64).rtol, 1e-2);
}

TEST(GemmTask, InputsAreHalfAndBColMajorIsBTransposedContiguous) {
  testing::testEngine();
  const protocol::GemmRun run = gemmRun(GemmSpec{48, 40, 24, {}});
  ModelArgs args = gemmInputs(run, c10::Device(c10::kCPU), 7);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].tensor.sizes(), (at::IntArrayRef{48, 24}));
  EXPECT_EQ(args[1].tensor.sizes(), (at::IntArrayRef{24, 40}));
  EXPECT_EQ(args[2].tensor.sizes(), (at::IntArrayRef{40, 24}));
  for (const auto& a : args) EXPECT_EQ(a.tensor.scalar_type(), at::kHalf);
  EXPECT_TRUE(args[2].tensor.is_contiguous());
  EXPECT_TRUE(at::equal(args[2].tensor, args[1].tensor.t()));
  ModelArgs again = gemmInputs(run, c10::Device(c10::kCPU), 7);
  EXPECT_TRUE(at::equal(again[0].tensor, args[0].tensor));  // the seed decides
  ModelArgs other = gemmInputs(run, c10::Device(c10::kCPU), 8);
  EXPECT_FALSE(at::equal(other[0].tensor, args[0].tensor));
}

TEST(GemmTask, PaddedInputsAreZeroOutsideTheShapeAndTheOutputIsCropped) {
  testing::testEngine();
  const protocol::GemmRun run = gemmRun(GemmSpec{40, 24, 20, {32, 16, 16}});
  ASSERT_TRUE(run.padded());
  ModelArgs args = gemmInputs(run, c10::Device(c10::kCPU), 3);
  ASSERT_EQ(args.size(), 5u);
  const at::Tensor& a = args[0].tensor;
  const at::Tensor& aPadded = args[2].tensor;
  const at::Tensor& bPadded = args[3].tensor;
  EXPECT_EQ(aPadded.sizes(), (at::IntArrayRef{64, 32}));
  EXPECT_EQ(bPadded.sizes(), (at::IntArrayRef{32, 32}));
  EXPECT_EQ(args[4].tensor.sizes(), (at::IntArrayRef{32, 32}));
  EXPECT_TRUE(at::equal(aPadded.narrow(0, 0, 40).narrow(1, 0, 20), a));
  EXPECT_EQ(aPadded.narrow(0, 40, 24).abs().sum().item<double>(), 0);
  EXPECT_EQ(aPadded.narrow(1, 20, 12).abs().sum().item<double>(), 0);
  EXPECT_TRUE(at::equal(bPadded.narrow(0, 0, 20).narrow(1, 0, 24), args[1].tensor));
  EXPECT_TRUE(at::equal(args[4].tensor, bPadded.t()));

  py::object candidate = gemmCandidate(&goodCall, "cuda_l2_h100_fp32", run);
  py::tuple pyArgs = pythonArgs(args);
  auto out = unwrapTensor(candidate(*pyArgs));
  ASSERT_TRUE(out);
  EXPECT_EQ(out->sizes(), (at::IntArrayRef{40, 24}));
  const at::Tensor expected = at::matmul(a.to(at::kFloat), args[1].tensor.to(at::kFloat)).to(at::kHalf);
  EXPECT_TRUE(at::equal(*out, expected));
}

TEST(GemmTask, AFailedCallRaisesWithTheEntrysMessage) {
  testing::testEngine();
  const protocol::GemmRun run = gemmRun(GemmSpec{16, 16, 16, {}});
  py::object candidate = gemmCandidate(&throwingCall, "cuda_l2_h100_fp32", run);
  py::tuple pyArgs = pythonArgs(gemmInputs(run, c10::Device(c10::kCPU), 1));
  try {
    candidate(*pyArgs);
    FAIL() << "no exception";
  } catch (py::error_already_set& e) {
    EXPECT_NE(std::string(e.what()).find("cuda_l2_h100_fp32: values must be torch::kHalf"), std::string::npos)
        << e.what();
  }
}

Measurement measureOnCpu(NativeShimCall call, const protocol::GemmRun& run) {
  ModelPair pair;
  // torch 1.13 has no float16 matmul on the CPU: the stand-in reference computes in float32 too.
  pair.reference = {"reference", pythonFunction("lambda a, b, *rest: torch.matmul(a.float(), b.float()).half()")};
  pair.checkReference =
      ModelUnderTest{"reference", pythonFunction("lambda a, b, *rest: torch.matmul(a.float(), b.float()).to(a.dtype)")};
  pair.candidate = {"candidate", gemmCandidate(call, "cuda_l2_h100_fp32", run)};
  pair.inputs = [run](std::int64_t seed) -> Outcome<ModelArgs> {
    return gemmInputs(run, c10::Device(c10::kCPU), seed);
  };
  MeasureSettings s;
  s.seeds = 2;
  s.trials = 3;
  s.warmup = 0;
  s.profile = false;
  const Tolerance tol = gemmTolerance(run.k);
  s.atol = tol.atol;
  s.rtol = tol.rtol;
  s.scratch = std::filesystem::temp_directory_path();
  testing::RecordingSink sink;
  PhaseReporter reporter(sink);
  RuntimeProbes probes(s.device);
  Outcome<Measurement> m = measure(pair, s, reporter, probes);
  if (auto* e = failed(m)) {
    ADD_FAILURE() << e->message;
    return {};
  }
  return std::get<Measurement>(m);
}

TEST(GemmTask, MeasurementChecksAgainstTheFloat32ProductAndCatchesAMissingKSlice) {
  testing::testEngine();
  const protocol::GemmRun run = gemmRun(GemmSpec{96, 80, 256, {64, 64, 64}});
  ASSERT_TRUE(run.padded());
  Measurement good = measureOnCpu(&goodCall, run);
  EXPECT_TRUE(good.correctness.passed);
  ASSERT_EQ(good.correctness.seeds.size(), 2u);
  EXPECT_DOUBLE_EQ(good.correctness.seeds[0].atol, 0.16);
  ASSERT_EQ(good.correctness.outputs.size(), 1u);
  EXPECT_EQ(good.correctness.outputs[0].dtype, "float16");
  EXPECT_EQ(good.correctness.outputs[0].shape, (std::vector<std::int64_t>{96, 80}));
  EXPECT_FALSE(good.correctness.inputsMutated);
  EXPECT_TRUE(good.timing);

  Measurement wrong = measureOnCpu(&wrongCall, run);
  EXPECT_FALSE(wrong.correctness.passed);
  EXPECT_FALSE(wrong.timing);
}

}  // namespace
}  // namespace ks::engine
