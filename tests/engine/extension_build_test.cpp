// Builds inside the runner without a GPU: load_inline with C++ sources (the CUDA path is in
// gpu_evaluate_test) — compiler errors mapped to Python lines, failed builds a program swallows kept as
// evidence, the cache — and native .cu builds through core/nvcc (skipped without nvcc).
// Slow: each compile includes torch's headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/nvcc/nvcc_locator.h"
#include "tests/engine/python_environment.h"
#include "tests/engine/task_programs.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;

namespace {

// Line 7 holds the statement missing its ';'.
const std::string kBrokenExtension = R"(import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor twice(torch::Tensor x) {
    return x * 2
}
"""
)";
constexpr int kBrokenLine = 7;

const std::string kGoodExtension = R"(
good_source = """
torch::Tensor relu_twice(torch::Tensor x) { return x.clamp_min(0) * 2; }
"""
good = load_inline(name="kscope_test_good", cpp_sources=good_source, functions=["relu_twice"])
)";

}  // namespace

TEST(ExtensionBuild, CompileErrorIsABuildErrorOnThePythonLine) {
  const std::string code = kBrokenExtension +
                           "\next = load_inline(name='kscope_test_broken', cpp_sources=cpp_source, "
                           "functions=['twice'])\n\n" +
                           candidateWith("return torch.relu(self.linear(x))");
  RecordingSink sink;
  const auto o = testEngine().evaluate(evaluateRequest("broken", code), sink);
  ASSERT_TRUE(failed(o));
  const protocol::ErrorInfo& e = *failed(o);
  EXPECT_EQ(e.kind, protocol::ErrorKind::Build);
  EXPECT_EQ(e.program, "candidate");
  EXPECT_EQ(e.line, kBrokenLine);
  ASSERT_FALSE(e.diagnostics.empty());
  EXPECT_EQ(e.diagnostics[0].file, "main.cpp");
  EXPECT_EQ(e.diagnostics[0].severity, "error");
  EXPECT_EQ(e.diagnostics[0].pythonLine, kBrokenLine);
  EXPECT_NE(e.message.find("building extension 'kscope_test_broken' failed"), std::string::npos) << e.message;
  const std::vector<protocol::Phase> phases = {protocol::Phase::Load, protocol::Phase::Build,
                                               protocol::Phase::Load};
  EXPECT_EQ(sink.phases, phases);
  EXPECT_EQ(sink.deadlines[1], 600);
}

TEST(ExtensionBuild, SwallowedFailuresStayOnRecordAndUnchangedBuildsComeFromTheCache) {
  const std::string code = kBrokenExtension +
                           "\ntry:\n    ext = load_inline(name='kscope_test_broken', cpp_sources=cpp_source, "
                           "functions=['twice'])\nexcept Exception:\n    ext = None\n" +
                           kGoodExtension + candidateWith("return good.relu_twice(self.linear(x)) / 2");
  RecordingSink sink;
  const auto first = testEngine().evaluate(evaluateRequest("fallback1", code), sink);
  ASSERT_FALSE(failed(first)) << failed(first)->message;
  const protocol::EvaluateResult& r = std::get<protocol::EvaluateResult>(first);
  EXPECT_TRUE(r.correctness.passed);
  ASSERT_EQ(r.build.extensions.size(), 2u);
  const protocol::ExtensionBuild& broken = r.build.extensions[0];
  EXPECT_EQ(broken.name, "kscope_test_broken");
  EXPECT_FALSE(broken.ok);
  EXPECT_EQ(broken.program, "candidate");
  ASSERT_FALSE(broken.diagnostics.empty()) << broken.error;
  EXPECT_EQ(broken.diagnostics[0].pythonLine, kBrokenLine);
  const protocol::ExtensionBuild& good = r.build.extensions[1];
  EXPECT_TRUE(good.ok);
  EXPECT_FALSE(good.cacheHit);
  EXPECT_FALSE(r.build.cacheHit);
  EXPECT_GT(good.seconds, 0);
  // Each finished build was also reported as it happened (a `build` event), in the order of the record.
  EXPECT_EQ(sink.builds, r.build.extensions);

  const std::string onlyGood = "import torch\nfrom torch.utils.cpp_extension import load_inline\n" +
                               kGoodExtension + candidateWith("return good.relu_twice(self.linear(x)) / 2");
  const auto second = testEngine().evaluate(evaluateRequest("fallback2", onlyGood), sink);
  ASSERT_FALSE(failed(second)) << failed(second)->message;
  const protocol::EvaluateResult& again = std::get<protocol::EvaluateResult>(second);
  ASSERT_EQ(again.build.extensions.size(), 1u);
  EXPECT_TRUE(again.build.extensions[0].cacheHit);
  EXPECT_TRUE(again.build.cacheHit);
  EXPECT_EQ(again.build.extensions[0].directory, good.directory);

  // The same failing sources again: the compiler's verdict comes from the cache (the program still sees the
  // exception and falls back), with the same diagnostics on the same line and no compile.
  const auto third = testEngine().evaluate(evaluateRequest("fallback3", code), sink);
  ASSERT_FALSE(failed(third)) << failed(third)->message;
  const protocol::EvaluateResult& cached = std::get<protocol::EvaluateResult>(third);
  EXPECT_TRUE(cached.correctness.passed);
  ASSERT_EQ(cached.build.extensions.size(), 2u);
  const protocol::ExtensionBuild& brokenAgain = cached.build.extensions[0];
  EXPECT_FALSE(brokenAgain.ok);
  EXPECT_TRUE(brokenAgain.cacheHit);
  EXPECT_LT(brokenAgain.seconds, 1.0);
  EXPECT_EQ(brokenAgain.directory, broken.directory);
  EXPECT_EQ(brokenAgain.error, broken.error);
  ASSERT_FALSE(brokenAgain.diagnostics.empty());
  EXPECT_EQ(brokenAgain.diagnostics[0].pythonLine, kBrokenLine);
  EXPECT_TRUE(cached.build.extensions[1].cacheHit);
}

TEST(ExtensionBuild, AFailedBuildFromTheCacheIsTheSameBuildError) {
  const std::string code = kBrokenExtension +
                           "\next = load_inline(name='kscope_test_broken_twice', cpp_sources=cpp_source, "
                           "functions=['twice'])\n\n" +
                           candidateWith("return torch.relu(self.linear(x))");
  RecordingSink sink;
  std::vector<protocol::ErrorInfo> errors;
  for (const char* id : {"broken-first", "broken-again"}) {
    const auto o = testEngine().evaluate(evaluateRequest(id, code), sink);
    ASSERT_TRUE(failed(o));
    errors.push_back(*failed(o));
  }
  for (const protocol::ErrorInfo& e : errors) {
    EXPECT_EQ(e.kind, protocol::ErrorKind::Build);
    EXPECT_EQ(e.line, kBrokenLine);
    EXPECT_NE(e.message.find("building extension 'kscope_test_broken_twice' failed"), std::string::npos)
        << e.message;
  }
  EXPECT_EQ(errors[0].message, errors[1].message);
  EXPECT_EQ(errors[0].diagnostics.size(), errors[1].diagnostics.size());
}

// CUDA-L1 programs that name their extension after the process (f"..._{os.getpid()}") or build into a folder
// of their own (build_directory='cuda_extensions', relative to the request's scratch folder) were compiled
// again by every runner. The pid becomes "pid" and the folder the cache's, so the next request, in any
// runner, finds the build.
TEST(ExtensionBuild, PerProcessNamesAndOwnBuildFoldersStillHitTheCache) {
  const std::string code = kBrokenExtension +
                           "\nimport os\ntry:\n    ext = load_inline(name=f'kscope_test_pid_{os.getpid()}', "
                           "cpp_sources=cpp_source, functions=['twice'], build_directory='own_build')\n"
                           "except Exception:\n    ext = None\n\n" +
                           candidateWith("return torch.relu(self.linear(x))");
  RecordingSink sink;
  std::vector<protocol::ExtensionBuild> builds;
  for (const char* id : {"own-folder-1", "own-folder-2"}) {
    const auto o = testEngine().evaluate(evaluateRequest(id, code), sink);
    ASSERT_FALSE(failed(o)) << failed(o)->message;
    const auto& r = std::get<protocol::EvaluateResult>(o);
    ASSERT_EQ(r.build.extensions.size(), 1u);
    builds.push_back(r.build.extensions[0]);
  }
  EXPECT_EQ(builds[0].name, "kscope_test_pid_pid");
  EXPECT_FALSE(builds[0].ok);
  EXPECT_FALSE(builds[0].cacheHit);
  EXPECT_EQ(builds[0].directory.find("own_build"), std::string::npos) << builds[0].directory;
  EXPECT_NE(builds[0].directory.find("torch-extensions"), std::string::npos) << builds[0].directory;
  EXPECT_TRUE(builds[1].cacheHit) << "the second request compiled again";
  EXPECT_EQ(builds[1].directory, builds[0].directory);
  EXPECT_LT(builds[1].seconds, 1.0);
}

// load() names files, not code: CUDA-L1 L3/28 writes its sources to build_dir/fused_kernels.cu and loads
// that path. Its --repair run on the H100 got the unrepaired build's failure back from the cache, keyed by
// the path alone. The key holds the files' content: other code at the same path builds anew, and the same
// code again comes from the cache.
TEST(ExtensionBuild, LoadOfFilesIsCachedByTheirContentNotTheirPath) {
  auto program = [](const std::string& body) {
    return "import os, pathlib, torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load\n"
           "d = pathlib.Path('own_files'); d.mkdir(exist_ok=True)\n"
           "(d / 'ext.cpp').write_text('''#include <torch/extension.h>\n" +
           body +
           "\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"twice\", &twice); }\n''')\n"
           "try:\n    ext = load(name='kscope_test_files', sources=[str(d / 'ext.cpp')])\n"
           "except Exception:\n    ext = None\n\n" +
           candidateWith("return torch.relu(self.linear(x))");
  };
  const std::string broken = "torch::Tensor twice(torch::Tensor x) { return x * 2 }";
  const std::string good = "torch::Tensor twice(torch::Tensor x) { return x * 2; }";
  RecordingSink sink;
  std::vector<protocol::ExtensionBuild> builds;
  for (const auto& [id, body] : {std::pair{"files-broken", broken}, std::pair{"files-fixed", good},
                                 std::pair{"files-fixed-again", good}}) {
    const auto o = testEngine().evaluate(evaluateRequest(id, program(body)), sink);
    ASSERT_FALSE(failed(o)) << failed(o)->message;
    const auto& r = std::get<protocol::EvaluateResult>(o);
    ASSERT_EQ(r.build.extensions.size(), 1u) << id;
    builds.push_back(r.build.extensions[0]);
  }
  EXPECT_FALSE(builds[0].ok);
  EXPECT_TRUE(builds[1].ok) << "the fixed file got the broken one's cached failure: " << builds[1].error;
  EXPECT_FALSE(builds[1].cacheHit);
  EXPECT_NE(builds[1].directory, builds[0].directory);
  EXPECT_TRUE(builds[2].ok);
  EXPECT_TRUE(builds[2].cacheHit) << "the same file content compiled again";
  EXPECT_EQ(builds[2].directory, builds[1].directory);
}

// A runner killed mid-build leaves torch's `lock` file in the build directory, and torch waits for it to go
// forever: on the H100 a resumed `kscope batch --repair` sat "building" the good-kernels until its time ran
// out. Every build now runs in a fresh staging folder of its own and is published by rename, so a lock left
// in a published (or half-built) folder never blocks the next build.
TEST(ExtensionBuild, AStaleTorchLockLeftByAKilledBuildDoesNotBlockTheNext) {
  const std::string code = "from torch.utils.cpp_extension import load_inline\n" + kGoodExtension +
                           candidateWith("return good.relu_twice(self.linear(x)) / 2");
  RecordingSink sink;
  const auto first = testEngine().evaluate(evaluateRequest("lock-first", code), sink);
  ASSERT_FALSE(failed(first)) << failed(first)->message;
  const auto& built = std::get<protocol::EvaluateResult>(first).build.extensions;
  ASSERT_EQ(built.size(), 1u);
  ASSERT_TRUE(built[0].ok);
  const std::filesystem::path dir = built[0].directory;
  // As a killed build leaves it: no completion marker, torch's lock still there.
  std::filesystem::remove(dir / "kscope-built");
  std::ofstream(dir / "lock") << "";
  const auto second = testEngine().evaluate(evaluateRequest("lock-second", code), sink);
  ASSERT_FALSE(failed(second)) << failed(second)->message;
  const auto& again = std::get<protocol::EvaluateResult>(second).build.extensions;
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(again[0].ok) << again[0].error;  // and did not wait on the lock: a fresh staging folder
}

// CUDA-L1 L3/45 builds the same broken sources, verbose=True, once per module instance (18 of them). With
// verbose, torch prints the compiler's output instead of raising it, so nothing told the runner the compiler
// had rejected the sources and each instance compiled again (18 x 15 s on the H100 machine). The runner turns
// verbose off: the first build fails with its diagnostics, the others come from the cache.
TEST(ExtensionBuild, AVerboseFailedBuildIsRememberedForTheNextInstance) {
  const std::string code = kBrokenExtension +
                           "\nexts = []\nfor _ in range(3):\n    try:\n"
                           "        exts.append(load_inline(name='kscope_test_verbose', cpp_sources=cpp_source, "
                           "functions=['twice'], verbose=True))\n    except Exception:\n        exts.append(None)\n\n" +
                           candidateWith("return torch.relu(self.linear(x))");
  RecordingSink sink;
  const auto o = testEngine().evaluate(evaluateRequest("verbose-3", code), sink);
  ASSERT_FALSE(failed(o)) << failed(o)->message;
  const auto& r = std::get<protocol::EvaluateResult>(o);
  ASSERT_EQ(r.build.extensions.size(), 3u);
  const protocol::ExtensionBuild& first = r.build.extensions[0];
  EXPECT_FALSE(first.ok);
  EXPECT_FALSE(first.cacheHit);
  ASSERT_FALSE(first.diagnostics.empty()) << "no compiler output in the error: " << first.error;
  EXPECT_EQ(first.diagnostics[0].pythonLine, kBrokenLine);
  for (std::size_t i = 1; i < 3; ++i) {
    const protocol::ExtensionBuild& again = r.build.extensions[i];
    EXPECT_FALSE(again.ok);
    EXPECT_TRUE(again.cacheHit) << "instance " << i << " compiled again";
    EXPECT_LT(again.seconds, 1.0);
    EXPECT_EQ(again.error, first.error);
  }
}

TEST(ExtensionBuild, BuildOpLoadsOnlyTheCandidate) {
  protocol::Request request;
  request.id = "build-op";
  request.op = protocol::Op::Build;
  request.candidate = protocol::CandidateSpec{
      "c", CodeLanguage::Python,
      "import torch\nfrom torch.utils.cpp_extension import load_inline\n" + kGoodExtension, ""};
  RecordingSink sink;
  const auto o = testEngine().build(request, sink);
  ASSERT_FALSE(failed(o)) << failed(o)->message;
  const protocol::BuildResult& r = std::get<protocol::BuildResult>(o);
  ASSERT_EQ(r.build.extensions.size(), 1u);
  EXPECT_TRUE(r.build.extensions[0].ok);
  EXPECT_EQ(r.codeHash.rfind("sha256:", 0), 0u);
}

// Most CUDA-L1 programs that compile anything call load_inline in ModelNew.__init__ or on the first forward;
// with its task, the build op constructs the models and calls the candidate once, so those extensions are
// built by the build op and the evaluate that follows imports them from the cache.
TEST(ExtensionBuild, BuildOpWithATaskBuildsWhatTheModelCompilesOnItsFirstCall) {
  const std::string lazy = R"(import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
torch::Tensor relu_twice(torch::Tensor x) { return x.clamp_min(0) * 2; }
"""

class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)
        self.ext = None

    def forward(self, x):
        if self.ext is None:
            self.ext = load_inline(name="kscope_test_lazy", cpp_sources=source, functions=["relu_twice"])
        return self.ext.relu_twice(self.linear(x)) / 2
)";
  const std::string cache = ::testing::TempDir() + "kscope-lazy-build-cache";
  std::filesystem::remove_all(cache);
  protocol::Request request = evaluateRequest("lazy", lazy);
  request.options.cache = cache;
  request.op = protocol::Op::Build;
  RecordingSink sink;
  const auto built = testEngine().build(request, sink);
  ASSERT_FALSE(failed(built)) << failed(built)->message;
  const protocol::BuildResult& b = std::get<protocol::BuildResult>(built);
  ASSERT_EQ(b.build.extensions.size(), 1u);
  EXPECT_EQ(b.build.extensions[0].name, "kscope_test_lazy");
  EXPECT_TRUE(b.build.extensions[0].ok);
  EXPECT_FALSE(b.build.cacheHit);

  request.op = protocol::Op::Evaluate;
  request.id = "lazy-evaluate";
  const auto evaluated = testEngine().evaluate(request, sink);
  ASSERT_FALSE(failed(evaluated)) << failed(evaluated)->message;
  const protocol::EvaluateResult& r = std::get<protocol::EvaluateResult>(evaluated);
  EXPECT_TRUE(r.correctness.passed);
  ASSERT_EQ(r.build.extensions.size(), 1u);
  EXPECT_TRUE(r.build.cacheHit);  // built by the build op, imported here
  std::filesystem::remove_all(cache);
}

TEST(ExtensionBuild, NativeBuildOpCompilesCachesAndLocatesErrorsInTheKernel) {
  if (const nvcc::NvccLocation nvcc = nvcc::findNvcc(); !nvcc.found())
    GTEST_SKIP() << "no nvcc: " << nvcc.error;
  const std::string kernel = R"(#include <torch/types.h>

__global__ void twice_kernel(const float* x, float* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}

torch::Tensor kscope_twice(torch::Tensor x) {
  auto y = torch::empty_like(x);
  twice_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
)";
  protocol::Request request;
  request.op = protocol::Op::Build;
  request.task = protocol::TaskSpec{"native/twice", CodeLanguage::Cuda, "2 * x", {{"x", {64}, "float32"}}};
  request.candidate = protocol::CandidateSpec{"c", CodeLanguage::Cuda, kernel, "kscope_twice"};
  RecordingSink sink;
  for (const bool cached : {false, true}) {
    request.id = cached ? "native-again" : "native";
    const auto o = testEngine().build(request, sink);
    ASSERT_FALSE(failed(o)) << failed(o)->message;
    const protocol::ExtensionBuild& x = std::get<protocol::BuildResult>(o).build.extensions.at(0);
    EXPECT_TRUE(x.ok);
    EXPECT_EQ(x.cacheHit, cached);
    ASSERT_EQ(x.kernels.size(), 1u);  // ptxas -v
    EXPECT_NE(x.kernels[0].name.find("twice_kernel"), std::string::npos);
  }
  EXPECT_EQ(sink.phases.front(), protocol::Phase::Build);

  request.id = "native-broken";
  request.candidate->code.replace(request.candidate->code.find("2 * x[i]"), 8, "2 * z[i]");  // line 5
  const auto o = testEngine().build(request, sink);
  ASSERT_TRUE(failed(o));
  EXPECT_EQ(failed(o)->kind, protocol::ErrorKind::Build);
  EXPECT_EQ(failed(o)->line, 5);
  ASSERT_FALSE(failed(o)->diagnostics.empty());
  EXPECT_EQ(failed(o)->diagnostics[0].file, "kernel.cu");
}
