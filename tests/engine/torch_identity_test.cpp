// Which replaced torch functions torch_identity.h reports: a program's replacement, yes; the wrapper torch
// installs on itself on a lazy import (`import torch._dynamo` wraps torch.manual_seed), no. Found on the
// H200 run of 2026-11-28: six corpus entries got "replaced torch.manual_seed with manual_seed" from torch's own
// wrapper (docs/gpu-results.md). torch 1.13 (this machine's) has no torch._dynamo, so the wrapper is built
// the way torch builds it: functools.wraps over the original, its code in a file of torch's package.
#include <gtest/gtest.h>
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include "core/engine/torch_identity.h"
#include "tests/engine/python_environment.h"

namespace py = pybind11;
using namespace ks::engine;

namespace {

// Runs `body` with `wrap(fn)` defined in a module whose code claims `file`; restores torch.manual_seed.
std::vector<TorchReplacement> replacedAfter(const std::string& file, const std::string& body) {
  ks::engine::testing::testEngine();  // starts the embedded Python with torch
  py::gil_scoped_acquire gil;
  TorchIdentity identity = TorchIdentity::take();
  py::dict scope;
  scope["file"] = file;
  py::exec(R"PY(
import functools, os, torch
source = '''
import functools
def wrap(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)
    return inner
'''
path = file if os.path.isabs(file) else os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), file)
helpers = {}
exec(compile(source, path, "exec"), helpers)
wrap = helpers["wrap"]
)PY",
           scope);
  py::exec(body, scope);
  std::vector<TorchReplacement> out = identity.replaced();
  identity.restore();
  return out;
}

}  // namespace

TEST(TorchIdentity, TorchsOwnWrapperOfTheOriginalIsNotAReplacement) {
  EXPECT_TRUE(replacedAfter("_compile.py", "torch.manual_seed = wrap(torch.manual_seed)").empty());
  // ... and the original is back afterwards either way.
  py::gil_scoped_acquire gil;
  EXPECT_TRUE(py::eval("__import__('torch').manual_seed is __import__('torch').random.manual_seed").cast<bool>());
}

TEST(TorchIdentity, AProgramsWrapperIsReportedWithItsName) {
  const auto r = replacedAfter("/tmp/kscope-candidate.py", "torch.manual_seed = wrap(torch.manual_seed)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].name, "torch.manual_seed");
  EXPECT_EQ(r[0].file, "/tmp/kscope-candidate.py");
}

TEST(TorchIdentity, AWrapperInTorchsFilesOfSomethingElseIsReported) {
  // torch's own code, but not wrapping the function it replaces: a program put it there.
  const auto r = replacedAfter("_compile.py", "torch.matmul = wrap(torch.mm)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].name, "torch.matmul");
}

TEST(TorchIdentity, TorchsOwnClosureOverTheOriginalIsNotAReplacement) {
  // torch.compile's mutation guard (install_generation_tagging_init): nn.Module.__init__ becomes a closure
  // that calls the original; CUDA-L1 L2/34, L2/49, L2/62, L2/74, L2/91 and L3/17 got slowed-reference notes
  // from it on the H200.
  const std::string patch = R"PY(
def tagging(init):
    def patched_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
    return patched_init
torch.nn.Module.__init__ = tagging(torch.nn.Module.__init__)
)PY";
  // The closure must be torch's: compiled under a file of torch's package, as the helper `wrap` is.
  const std::string inTorch = "exec(compile(" + std::string("'''") + patch + "'''" +
                              ", os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "
                              "'_dynamo/mutation_guard.py'), 'exec'), {'torch': torch})";
  EXPECT_TRUE(replacedAfter("_compile.py", inTorch).empty());
  const std::string inProgram = "exec(compile(" + std::string("'''") + patch + "'''" +
                                ", '/tmp/kscope-candidate.py', 'exec'), {'torch': torch})";
  const auto r = replacedAfter("_compile.py", inProgram);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].name, "torch.nn.Module.__init__");
}
