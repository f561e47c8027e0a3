#include <gtest/gtest.h>
#include <string>

#include "core/protocol/json_codec.h"

using namespace ks;
using namespace ks::protocol;

namespace {

Request fullEvaluate() {
  Request r;
  r.id = "7";
  r.op = Op::Evaluate;
  r.task = TaskSpec{"L1/12", CodeLanguage::Python, "import torch\nclass Model: ...\n", {}};
  r.candidate = CandidateSpec{"r2", CodeLanguage::Python, "import torch\n\"quoted\"\tü\n", ""};
  r.options.device = "cpu";
  r.options.seeds = 3;
  r.options.trials = 20;
  r.options.warmup = 0;
  r.options.seed = 1234567890123;
  r.options.scratch = "/tmp/s";
  r.options.cache = "~/.cache/k";
  r.options.atol = 1e-3;
  r.options.rtol = 2e-3;
  r.options.profileKernels = false;
  r.options.gpuShare = "/tmp/kscope-batch/gpu.lock";
  r.options.cpuPin = CpuPinScope::Process;
  return r;
}

}  // namespace

TEST(RequestCodec, EvaluateRoundTripsEveryField) {
  const Request r = fullEvaluate();
  const std::string line = encodeRequest(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  Decoded<Request> d = decodeRequest(line);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
}

TEST(RequestCodec, NativeTaskRoundTrips) {
  Request r;
  r.id = "n";
  r.op = Op::Build;
  r.task = TaskSpec{"hgemm",
                    CodeLanguage::Cuda,
                    "torch.matmul(A, B)",
                    {{"A", {64, 32}, "float16"}, {"B", {32, 16}, "float16"}}};
  r.candidate = CandidateSpec{"c", CodeLanguage::Cuda, "__global__ void k() {}", "hgemm"};
  Decoded<Request> d = decodeRequest(encodeRequest(r));
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
}

TEST(RequestCodec, GemmTaskAndArchRoundTrip) {
  Request r;
  r.id = "g";
  r.op = Op::Evaluate;
  TaskSpec task;
  task.key = "h100_F32F16F16F32/64x128x64";
  task.language = CodeLanguage::Cuda;
  task.reference = "torch.matmul(a, b)";
  task.gemm = GemmSpec{64, 128, 64, {128, 256, 32}};
  r.task = task;
  r.candidate = CandidateSpec{"64_128_64.cu", CodeLanguage::Cuda, "#include <cute/tensor.hpp>\n", "cuda_l2_h100_fp32"};
  r.options.arch = "sm_90a";
  const std::string line = encodeRequest(r);
  EXPECT_NE(line.find(R"("gemm":{"m":64,"n":128,"k":64,"pad_to":[128,256,32]})"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("arch":"sm_90a")"), std::string::npos) << line;
  Decoded<Request> d = decodeRequest(line);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);

  // Without a tile there is no padding, and pad_to is left out.
  r.task->gemm->padTo.clear();
  d = decodeRequest(encodeRequest(r));
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_TRUE(d.value->task->gemm->padTo.empty());
  EXPECT_EQ(encodeRequest(r).find("pad_to"), std::string::npos);
}

TEST(RequestCodec, GemmTimingOptionsRoundTripAndAreChecked) {
  Request r;
  r.id = "g";
  r.op = Op::Evaluate;
  TaskSpec task;
  task.key = "h100_F32F16F16F32/64x128x64";
  task.language = CodeLanguage::Cuda;
  task.reference = "torch.matmul(a, b)";
  task.gemm = GemmSpec{64, 128, 64, {}};
  r.task = task;
  r.candidate = CandidateSpec{"64_128_64.cu", CodeLanguage::Cuda, "#include <cute/tensor.hpp>\n", "cuda_l2_h100_fp32"};
  r.options.gemmWarmupSeconds = 1;
  r.options.gemmSeconds = 2.5;
  r.options.gemmBaselines = {"torch.matmul", "cuBLAS-tn"};
  r.options.gemmMethods = {"cuda-l2-offline"};
  const std::string line = encodeRequest(r);
  EXPECT_NE(line.find(R"("gemm_s":2.5)"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("gemm_baselines":["torch.matmul","cuBLAS-tn"])"), std::string::npos) << line;
  Decoded<Request> d = decodeRequest(line);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  // Left out when not chosen: a request of an older client is the same request.
  r.options = Options{};
  EXPECT_EQ(encodeRequest(r).find("gemm_"), std::string::npos);
  d = decodeRequest(R"({"id": "1", "op": "hello", "options": {"gemm_s": -1}})");
  EXPECT_FALSE(d.value);
  EXPECT_EQ(d.error, "options.gemm_s: seconds from 0 to 3600");
}

TEST(RequestCodec, GemmTaskErrorsNameTheField) {
  const std::string candidate = R"("candidate": {"code": "x", "language": "cuda", "entry": "f"})";
  struct Case {
    std::string task, error;
  };
  const Case cases[] = {
      {R"({"language": "cuda", "reference": "r", "gemm": {"m": 64, "n": 64, "k": 64, "pad_to": [128, 128]}})",
       "task.gemm.pad_to: expected [BM, BN, BK]"},
      {R"({"language": "cuda", "reference": "r", "gemm": {"m": 64, "n": 64, "k": 64, "pad_to": [0, 1, 1]}})",
       "task.gemm.pad_to: tile sizes must be >= 1"},
      {R"({"language": "cuda", "reference": "r", "gemm": {"m": 0, "n": 64, "k": 64}})",
       "task.gemm.m: expected an integer >= 1, got integer 0"},
      {R"({"language": "cuda", "reference": "r", "gemm": {"m": 1, "n": 64, "k": 64, "bm": 1}})",
       "task.gemm.bm: unknown key"},
      {R"({"language": "python", "reference": "r", "gemm": {"m": 1, "n": 1, "k": 1}})",
       "task.gemm: only a native (cuda) task is a GEMM"},
      {R"({"language": "cuda", "reference": "r", "gemm": {"m": 1, "n": 1, "k": 1},
           "inputs": [{"name": "a", "shape": [1, 1]}]})",
       "task.inputs: a GEMM task's inputs are made by the runner; give task.gemm alone"},
  };
  for (const Case& c : cases) {
    const std::string line = R"({"id": "1", "op": "evaluate", "task": )" + c.task + ", " + candidate + "}";
    Decoded<Request> d = decodeRequest(line);
    EXPECT_FALSE(d.value) << line;
    EXPECT_EQ(d.error, c.error) << line;
  }
  Decoded<Request> d = decodeRequest(
      R"({"id": "1", "op": "hello", "options": {"arch": "90a"}})");
  EXPECT_FALSE(d.value);
  EXPECT_EQ(d.error, "options.arch: expected an nvcc -arch such as \"sm_90a\", got \"90a\"");
}

TEST(RequestCodec, WarmUpRoundTripsWithItsDevice) {
  Request r;
  r.id = "w1";
  r.op = Op::WarmUp;
  r.options.device = "cuda";
  const std::string line = encodeRequest(r);
  EXPECT_NE(line.find(R"("op":"warm_up")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("device":"cuda")"), std::string::npos) << line;
  Decoded<Request> d = decodeRequest(line);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);

  // The documented line, and one that leaves the device to the runner (options are optional).
  d = decodeRequest(R"({"id": "w2", "op": "warm_up", "options": {"device": "cpu"}})");
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(d.value->op, Op::WarmUp);
  EXPECT_EQ(d.value->options.device, "cpu");
  EXPECT_FALSE(d.value->task);
  EXPECT_FALSE(d.value->candidate);
  d = decodeRequest(R"({"id": "w3", "op": "warm_up"})");
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(d.value->op, Op::WarmUp);
  EXPECT_TRUE(d.value->options.device.empty());
}

TEST(RequestCodec, MinimalRequestsTakeDefaults) {
  Decoded<Request> d = decodeRequest(R"({"id": "1", "op": "hello"})");
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(d.value->op, Op::Hello);
  EXPECT_EQ(d.value->options.seeds, 5);
  EXPECT_EQ(d.value->options.seed, 42);
  EXPECT_FALSE(d.value->options.trials);
  EXPECT_TRUE(d.value->options.device.empty());
}

TEST(RequestCodec, CudaL1EvalRoundTripsAndIsAbsentUnlessAsked) {
  Request r = fullEvaluate();
  EXPECT_EQ(encodeRequest(r).find("cuda_l1_eval"), std::string::npos);
  r.options.cudaL1Eval = Options::CudaL1EvalOptions{4, 2, 5, false};
  Decoded<Request> d = decodeRequest(encodeRequest(r));
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  // An empty object takes CUDA-L1's own counts: 10 correctness trials, 7 global trials of 10, the flushed twin.
  Decoded<Request> defaults = decodeRequest(
      R"({"id": "1", "op": "evaluate", "task": {"reference": "x"}, "candidate": {"code": "y"}, "options": {"cuda_l1_eval": {}}})");
  ASSERT_TRUE(defaults.value) << defaults.error;
  ASSERT_TRUE(defaults.value->options.cudaL1Eval);
  EXPECT_EQ(*defaults.value->options.cudaL1Eval, (Options::CudaL1EvalOptions{10, 7, 10, true}));
}

TEST(RequestCodec, ErrorsNameTheField) {
  struct Case {
    std::string line;
    std::string error;
  };
  const Case cases[] = {
      {R"({"id": "1", "op": "evaluate"})", "evaluate needs \"task\" and \"candidate\""},
      {R"({"id": "1", "op": "fly"})",
       "op: expected one of hello, evaluate, build, warm_up, shutdown, got \"fly\""},
      {R"({"id": "1", "op": "warmup"})",
       "op: expected one of hello, evaluate, build, warm_up, shutdown, got \"warmup\""},
      {R"({"id": "1", "op": "warm_up", "options": {"device": "tpu"}})",
       "options.device: expected \"cuda\" or \"cpu\", got \"tpu\""},
      {R"({"id": "1", "op": "warm_up", "options": {"devices": "cpu"}})", "options.devices: unknown key"},
      {R"({"id": "1", "op": "warm_up", "options": "cpu"})",
       "options: expected an object, got string \"cpu\""},
      {R"({"op": "hello"})", "id: expected a string, got nothing"},
      {R"({"id": 3, "op": "hello"})", "id: expected a string, got integer 3"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"seeds": "5"}})",
       "options.seeds: expected an integer >= 1, got string \"5\""},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"seeds": 0}})",
       "options.seeds: expected an integer >= 1, got integer 0"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"trials": 3000000000}})",
       "options.trials: expected an integer >= 1, got integer 3000000000"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"trails": 5}})",
       "options.trails: unknown key"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"device": "tpu"}})",
       "options.device: expected \"cuda\" or \"cpu\", got \"tpu\""},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x", "language": "cuda"}})",
       "candidate.entry: a native (cuda) candidate needs the C++ function to call"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"seed": -1}})",
       "options.seed: expected an integer >= 0, got integer -1"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"cpu_pin": "core"}})",
       "options.cpu_pin: expected \"process\", \"thread\" or \"none\", got \"core\""},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"cuda_l1_eval": {"global_trials": 0}}})",
       "options.cuda_l1_eval.global_trials: expected an integer >= 1, got integer 0"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"cuda_l1_eval": {"perf_trials": 5000}}})",
       "options.cuda_l1_eval.perf_trials: at most 1000 trials"},
      {R"({"id": "1", "op": "build", "candidate": {"code": "x"}, "options": {"cuda_l1_eval": {"trials": 5}}})",
       "options.cuda_l1_eval.trials: unknown key"},
      {R"([1, 2])", "message: expected an object, got array"},
      {R"({"id": "1", "op": "hello")", "not valid JSON"},
      {R"({"id": "1", "op": "hello", "x": )" + std::string(600, '{') + "}", "JSON nested deeper than 512 levels (column 544)"},
  };
  for (const Case& c : cases) {
    Decoded<Request> d = decodeRequest(c.line);
    EXPECT_FALSE(d.value) << c.line;
    EXPECT_EQ(d.error, c.error) << c.line;
  }
}

TEST(RequestCodec, IdIsRecoveredFromRequestsThatDoNotDecode) {
  EXPECT_EQ(requestIdOf(R"({"id": "9", "op": "fly"})"), "9");
  EXPECT_EQ(requestIdOf(R"({"op": "fly"})"), "");
  EXPECT_EQ(requestIdOf("garbage"), "");
}
