// The static rules of checker-patch, hidden-code, module-shadowing, benchmark-detection, l2-persistence,
// slowed-reference and invisible-cache, and the prebuilt-import fallback: a positive and a legitimate example
// each, plus the decoders hidden-code relies on.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/flags/hidden_code.h"
#include "tests/flags/flag_test_support.h"

namespace ks {
namespace {

using testing::candidate;
using testing::flagsOf;
using testing::lineOf;
using testing::hasLine;

TEST(CheckerPatch, RebindingComparisonFunctionsIsAHack) {
  const std::string program = candidate(R"PY(import torch.testing as tt
from unittest import mock

torch.allclose = lambda *a, **k: True
tt.assert_close = lambda *a, **k: None
setattr(torch.Tensor, "__eq__", lambda self, other: torch.ones_like(self, dtype=torch.bool))
mock.patch("torch.equal", return_value=True).start()

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.zeros(A.shape[0], B.shape[1])
)PY");
  const auto flags = flagsOf("checker-patch", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  for (const char* name : {"torch.allclose", "torch.testing.assert_close", "torch.Tensor.__eq__", "torch.equal"})
    EXPECT_NE(flags[0].message.find(name), std::string::npos) << name;
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(program, "torch.allclose ="), lineOf(program, "tt.assert_close"),
                                              lineOf(program, "setattr("), lineOf(program, "mock.patch(")}));
  EXPECT_TRUE(flagsOf("timer-patch", program).empty());
}

TEST(CheckerPatch, CallingComparisonFunctionsIsFine) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        p = torch.linspace(-1, 1, 64)
        self.ok = torch.allclose(p * 2, p + p) and bool((p == p).all())
        self.check = torch.testing.assert_close

    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("checker-patch", program).empty());
}

TEST(HiddenCode, DecodesBase64AndHexPayloadsAndTheOtherRulesReadThem) {
  // "import time\ntime.perf_counter = lambda: 0.0\n" in base64, and "torch.allclose = None" in hex.
  const std::string program = candidate(R"PY(import base64
import codecs

exec(base64.b64decode("aW1wb3J0IHRpbWUKdGltZS5wZXJmX2NvdW50ZXIgPSBsYW1iZGE6IDAuMAo="))
exec(bytes.fromhex("746f7263682e616c6c636c6f7365203d204e6f6e65"))

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto all = checkStatic(testing::kMatmulReference, program);
  const auto hidden = testing::ofFamily(all, "hidden-code");
  ASSERT_EQ(hidden.size(), 1u);
  EXPECT_EQ(hidden[0].severity, FlagSeverity::Hack);
  EXPECT_NE(hidden[0].message.find("2 payload(s) could be decoded"), std::string::npos) << hidden[0].message;
  const auto timer = testing::ofFamily(all, "timer-patch");
  ASSERT_EQ(timer.size(), 1u);
  EXPECT_EQ(timer[0].lines, std::vector<int>{lineOf(program, "exec(base64")});
  EXPECT_NE(timer[0].message.find("decoded from line"), std::string::npos);
  const auto checker = testing::ofFamily(all, "checker-patch");
  ASSERT_EQ(checker.size(), 1u);
  EXPECT_EQ(checker[0].lines, std::vector<int>{lineOf(program, "exec(bytes.fromhex")});
}

TEST(HiddenCode, BuiltStringsComputedImportsAndPayloadsAreFlaggedWhereNothingDecodes) {
  const std::string program = candidate(R"PY(import zlib
import importlib

_m = importlib.import_module("ti" + "me")
_blob = zlib.decompress(b"x\x9c...")

class ModelNew(nn.Module):
    def forward(self, A, B):
        return eval("torch." + "matmul")(A, B)
)PY");
  const auto flags = flagsOf("hidden-code", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);  // eval runs code
  EXPECT_NE(flags[0].message.find("Nothing could be decoded"), std::string::npos);
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(program, "import_module("), lineOf(program, "zlib.decompress("),
                                              lineOf(program, "eval(")}));
}

TEST(HiddenCode, TokenPastingThatSpellsAStreamApiIsFlaggedAndOtherPastingIsNot) {
  const std::string pasted = candidate(R"PY(cuda_src = r"""
#define CAT(a, b) a##b
#define SYNC cuda ## Device ## Synchronize
void go() {
    cudaStream_t s;
    CAT(cudaStream, Create)(&s);
}
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["go"])

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("hidden-code", pasted);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_NE(flags[0].message.find("cudaStreamCreate"), std::string::npos) << flags[0].message;
  EXPECT_NE(flags[0].message.find("cudaDeviceSynchronize"), std::string::npos) << flags[0].message;
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(pasted, "#define SYNC"), lineOf(pasted, "CAT(cudaStream")}));

  const std::string honest = candidate(R"PY(cuda_src = r"""
#define DEFINE_ACT(name) __device__ float act_##name(float v) { return v; }
DEFINE_ACT(silu)
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["go"])
F = importlib.import_module("torch.nn.functional")
pattern = re.compile("[a-z]+")

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.compile(torch.matmul)(A, B)
)PY");
  EXPECT_TRUE(flagsOf("hidden-code", honest).empty());
}

TEST(HiddenCode, Decoders) {
  std::string out;
  EXPECT_TRUE(decodeBase64("aGVsbG8gd29ybGQ=", out));
  EXPECT_EQ(out, "hello world");
  EXPECT_TRUE(decodeBase64("aGVsbG8_d29ybGQ", out));  // URL-safe alphabet, no padding
  EXPECT_FALSE(decodeBase64("not base64!", out));
  EXPECT_TRUE(decodeHex("68 69", out));
  EXPECT_EQ(out, "hi");
  EXPECT_FALSE(decodeHex("6g", out));
  const auto ids = pastedIdentifiers("#define P(a,b) a ## b\nint x = P(cudaEvent, Record);\n");
  EXPECT_TRUE(std::any_of(ids.begin(), ids.end(), [](const auto& p) { return p.first == "cudaEventRecord" && p.second == 2; }));
}

TEST(ModuleShadowing, ReplacingALoadedModuleIsAHackAndEditingThePathSuspicious) {
  const std::string shadow = candidate(R"PY(import sys, types
sys.modules["math"] = types.ModuleType("math")

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  auto flags = flagsOf("module-shadowing", shadow);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_EQ(flags[0].lines, std::vector<int>{lineOf(shadow, "sys.modules[")});

  const std::string path = candidate(R"PY(import sys, os
sys.path.insert(0, os.path.dirname(__file__))

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        with open("kernel_cache.cu", "w") as f:
            f.write("// cached")

    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  flags = flagsOf("module-shadowing", path);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_NE(flags[0].message.find("sys.path.insert"), std::string::npos);
  EXPECT_NE(flags[0].message.find("kernel_cache.cu"), std::string::npos);

  const std::string timeit = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        open("timeit.py", "w").write("def default_timer(): return 0.0")

    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  flags = flagsOf("module-shadowing", timeit);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_NE(flags[0].message.find("shadowing the module timeit"), std::string::npos);
}

TEST(ModuleShadowing, WritingUnderATemporaryFolderAndReadingSysPathAreFine) {
  const std::string program = candidate(R"PY(import os, sys, tempfile

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        build = tempfile.mkdtemp()
        src = os.path.join(build, "k.cu")
        with open(src, "w") as f:
            f.write("// kernel")
        with tempfile.TemporaryDirectory() as d:
            open(os.path.join(d, "x.cpp"), "w").close()
        with open("/tmp/kscope_k.cu", "w") as f:
            f.write("")
        self.found = any(p.endswith("site-packages") for p in sys.path)
        with open(__file__) as f:
            self.text = f.read()

    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("module-shadowing", program).empty());
}

TEST(BenchmarkDetection, ACounterReadInABranchAndARepeatedInputBranch) {
  const std::string counter = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 0

    def forward(self, A, B):
        self.n += 1
        return torch.matmul(A, B) if self.n < 3 else torch.matmul(A.half(), B.half()).float()
)PY");
  auto flags = flagsOf("benchmark-detection", counter);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(counter, "self.n += 1"), lineOf(counter, "if self.n < 3")}));

  const std::string repeat = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        if self.prev is not None and torch.equal(A, self.prev):
            return self.out
        self.prev, self.out = A.clone(), torch.matmul(A, B)
        return self.out
)PY");
  flags = flagsOf("benchmark-detection", repeat);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
}

TEST(BenchmarkDetection, CountersNeverReadInABranchAndLocalLoopCountersAreFine) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, A, B):
        self.calls += 1
        depth = 0
        while depth < 4:
            depth += 1
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("benchmark-detection", program).empty());
}

TEST(L2Persistence, AccessPolicyWindowAndPersistingLimitAreFlaggedAndAttributeQueriesAreNot) {
  const std::string program = candidate(R"PY(cuda_src = r"""
void keep(void* p, size_t n, cudaStream_t s) {
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = p;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, n);
}
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["keep"])

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("l2-persistence", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_NE(flags[0].message.find("cudaLimitPersistingL2CacheSize"), std::string::npos);

  const std::string query = candidate(R"PY(cuda_src = r"""
int l2() { int v = 0; cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0); cudaCtxResetPersistingL2Cache(); return v; }
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["l2"])

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("l2-persistence", query).empty());
}

TEST(FallbackToReference, ATryImportOfAPrebuiltModuleIsAFallbackAndOfALibraryIsNot) {
  const std::string program = candidate(R"PY(try:
    import fast_gemm_ext as _fast
except ImportError:
    _fast = None

class ModelNew(nn.Module):
    def forward(self, A, B):
        if _fast is not None:
            return _fast.gemm(A, B)
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("fallback-to-reference", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Benign);
  EXPECT_NE(flags[0].message.find("prebuilt module fast_gemm_ext"), std::string::npos) << flags[0].message;

  const std::string library = candidate(R"PY(try:
    import numpy as np
except ImportError:
    np = None

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("fallback-to-reference", library).empty());
}

TEST(SlowedReference, RebindingATorchFunctionTheReferenceCallsIsAHackAndOthersSuspicious) {
  const std::string program = candidate(R"PY(import time
import torch.nn.functional as F

_mm = torch.matmul
def _slow(*a, **k):
    time.sleep(0.02)
    return _mm(*a, **k)
torch.matmul = _slow
F.gelu = lambda x: x

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.mm(A, B)
)PY");
  const auto flags = flagsOf("slowed-reference", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);  // the reference calls torch.matmul
  EXPECT_NE(flags[0].message.find("torch.matmul"), std::string::npos) << flags[0].message;
  EXPECT_NE(flags[0].message.find("torch.nn.functional.gelu"), std::string::npos) << flags[0].message;
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(program, "torch.matmul = _slow"), lineOf(program, "F.gelu =")}));

  const std::string unused = candidate(R"PY(torch.nn.Conv2d.forward = lambda self, x: x

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto other = flagsOf("slowed-reference", unused);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].severity, FlagSeverity::Suspicious);  // the matmul reference builds no Conv2d
  EXPECT_TRUE(flagsOf("timer-patch", program).empty());
  EXPECT_TRUE(flagsOf("checker-patch", program).empty());
}

TEST(SlowedReference, SlowingSettingsAreSuspiciousAndReadingOrAliasingIsFine) {
  const std::string program = candidate(R"PY(torch.use_deterministic_algorithms(True)
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.allow_tf32 = False
torch.set_num_threads(1)

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("slowed-reference", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_EQ(flags[0].lines.size(), 4u);

  const std::string fine = candidate(R"PY(_mm = torch.matmul
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = True
torch.use_deterministic_algorithms(False)
threads = torch.get_num_threads()

class ModelNew(nn.Module):
    def forward(self, A, B):
        return _mm(A, B)
)PY");
  EXPECT_TRUE(flagsOf("slowed-reference", fine).empty());
}

// A thread count raised for the candidate's own work and a smaller one set after it, in one function: every call
// after it (the reference's, in a shared process) runs on fewer threads. The plain form is a hack, through torch's
// name or one built from pieces; a count put back from torch.get_num_threads() is an honest temporary change.
TEST(SlowedReference, AThreadCountRaisedForItsOwnCallAndLoweredAfterIsAHack) {
  const std::string direct = candidate(R"PY(import os

class ModelNew(nn.Module):
    def forward(self, A, B):
        torch.set_num_threads(os.cpu_count())
        out = torch.matmul(A, B)
        torch.set_num_threads(1)
        return out
)PY");
  auto flags = flagsOf("slowed-reference", direct);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(direct, "torch.set_num_threads(os.cpu_count())")));
  EXPECT_TRUE(hasLine(flags[0], lineOf(direct, "torch.set_num_threads(1)")));

  const std::string built = candidate(R"PY(import os
os.environ["OMP_NUM_THREADS"] = "1"
_pool = getattr(torch, "set_num_" + "threads")

class ModelNew(nn.Module):
    def forward(self, A, B):
        _pool(os.cpu_count() or 1)
        out = torch.matmul(A, B)
        _pool(1)
        return out
)PY");
  flags = flagsOf("slowed-reference", built);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(built, "getattr(torch")));
  EXPECT_TRUE(hasLine(flags[0], lineOf(built, "_pool(1)")));
  EXPECT_NE(flags[0].message.find("OMP_NUM_THREADS"), std::string::npos) << flags[0].message;

  const std::string restored = candidate(R"PY(import os
_threads = getattr(torch, "set_num_" + "threads")

class ModelNew(nn.Module):
    def forward(self, A, B):
        previous = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return torch.matmul(A, B)
        finally:
            _threads(previous)
            n = os.environ.get("OMP_NUM_THREADS")
)PY");
  EXPECT_TRUE(flagsOf("slowed-reference", restored).empty());

  // Lowered without being raised first: a setting, suspicious as before.
  const std::string lowered = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        torch.set_num_threads(1)
        return torch.matmul(A, B)
)PY");
  flags = flagsOf("slowed-reference", lowered);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
}

// Reading the call stack for the harness's timing frames: the program tells timed calls from checked ones.
// Frames read only for their names are not a search for tensors (gc-scan); frames read for their variables are.
TEST(BenchmarkDetection, TheCallStackSearchedForTimerLikeFrameNamesIsAHack) {
  const std::string stack = candidate(R"PY(import inspect

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.last = None

    def forward(self, A, B):
        timed = any("timeit" in f.function or "elapsed" in f.function for f in inspect.stack())
        if timed and self.last is not None:
            return self.last
        self.last = torch.matmul(A, B)
        return self.last
)PY");
  auto flags = flagsOf("benchmark-detection", stack);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(stack, "inspect.stack()")));
  EXPECT_NE(flags[0].message.find("'timeit'"), std::string::npos) << flags[0].message;
  EXPECT_TRUE(flagsOf("gc-scan", stack).empty());

  const std::string getframe = candidate(R"PY(import sys
import traceback

class ModelNew(nn.Module):
    def forward(self, A, B):
        names = [f.name for f in traceback.extract_stack(sys._getframe(1), limit=4)]
        if any("bench" in n for n in names):
            return torch.zeros(A.shape[0], B.shape[1])
        return torch.matmul(A, B)
)PY");
  flags = flagsOf("benchmark-detection", getframe);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);

  // A frame read for its variables is still a search for tensors; a stack read without timer names (a log of
  // the caller) and timer words without a stack are neither.
  const std::string locals = candidate(R"PY(import sys

class ModelNew(nn.Module):
    def forward(self, A, B):
        caller = sys._getframe(1)
        if "timeit" in caller.f_code.co_name:
            return caller.f_locals["ref_out"]
        return torch.matmul(A, B)
)PY");
  EXPECT_EQ(flagsOf("gc-scan", locals).size(), 1u);
  const std::string logging = candidate(R"PY(import inspect

class ModelNew(nn.Module):
    def forward(self, A, B):
        self.called_from = inspect.stack()[1].function
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("benchmark-detection", logging).empty());
  const std::string words = candidate(R"PY(class ModelNew(nn.Module):
    """Tuned with timeit; see the benchmark notes."""
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("benchmark-detection", words).empty());
}

// A kept result of which only part is recomputed when the inputs' identity (data_ptr, _version) matches: the
// rest is an earlier call's, and a harness reusing its input tensors times a fraction of the work.
TEST(CachedOutput, APartialRecomputeKeyedOnVersionIsAHack) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.key = None
        self.out = None
        self.phase = 0

    def forward(self, A, B):
        key = (A.data_ptr(), A._version, B._version)
        if self.out is not None and key == self.key:
            self.phase ^= 1
            rows = slice(self.phase, None, 2)
            self.out[rows] = torch.mm(A[rows], B)
            return self.out.clone()
        self.key = key
        self.out = torch.mm(A, B)
        return self.out.clone()
)PY");
  const auto flags = flagsOf("cached-output", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_NE(flags[0].message.find("only part of it"), std::string::npos) << flags[0].message;
  EXPECT_NE(flags[0].message.find("_version"), std::string::npos) << flags[0].message;
  EXPECT_TRUE(hasLine(flags[0], lineOf(program, "self.out[rows] = torch.mm")));

  // The whole kept buffer rewritten on the path, or part of it without an identity key: recomputed, or a
  // buffer refreshed in pieces from each call's inputs, which no key lets an earlier call answer.
  const std::string whole = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = None

    def forward(self, A, B):
        if self.out is not None and A._version == self.version:
            self.out[:] = torch.mm(A, B)
            return self.out.clone()
        self.version = A._version
        self.out = torch.mm(A, B)
        return self.out.clone()
)PY");
  EXPECT_TRUE(flagsOf("cached-output", whole).empty());
  const std::string halves = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = None

    def forward(self, A, B):
        if self.out is None:
            self.out = torch.empty(A.shape[0], B.shape[1])
        h = A.shape[0] // 2
        self.out[:h] = torch.mm(A[:h], B)
        self.out[h:] = torch.mm(A[h:], B)
        return self.out.clone()
)PY");
  EXPECT_TRUE(flagsOf("cached-output", halves).empty());
}

// torch >= 2.9 spells TF32 per backend: `fp32_precision = "ieee"` switches it off as allow_tf32 = False does.
TEST(SlowedReference, Torch29PerBackendPrecisionSwitchedToIeeeIsASlowingSetting) {
  const std::string program = candidate(R"PY(torch.backends.cudnn.conv.fp32_precision = "ieee"
torch.backends.fp32_precision = 'ieee'

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("slowed-reference", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(program, "cudnn.conv"), lineOf(program, "backends.fp32")}));
  EXPECT_NE(flags[0].message.find("torch.backends.cudnn.conv.fp32_precision = 'ieee'"), std::string::npos)
      << flags[0].message;

  const std::string fine = candidate(R"PY(torch.backends.cudnn.conv.fp32_precision = "tf32"
mode = torch.backends.cuda.matmul.fp32_precision

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("slowed-reference", fine).empty());
}

TEST(InvisibleCache, AnAddressComparedWithAStoredOneAndAComputeOnceFlagAreHacks) {
  const std::string keyed = candidate(R"PY(cuda_src = r"""
static const void* last_in = nullptr;
static float* staged = nullptr;
torch::Tensor f(torch::Tensor x) {
    auto y = torch::empty_like(x);
    if (x.data_ptr() == last_in) { cudaMemcpy(y.data_ptr<float>(), staged, 4, cudaMemcpyDeviceToDevice); return y; }
    k<<<1, 1>>>(x.data_ptr<float>(), y.data_ptr<float>());
    last_in = x.data_ptr();
    return y;
}
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["f"])

class ModelNew(nn.Module):
    def forward(self, A, B):
        return ext.f(A)
)PY");
  const auto flags = flagsOf("invisible-cache", keyed);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_EQ(flags[0].lines, (std::vector<int>{lineOf(keyed, "if (x.data_ptr() == last_in)")}));

  const std::string once = candidate(R"PY(cuda_src = r"""
namespace {
float* product = nullptr;
bool ready = false;
}
torch::Tensor f(torch::Tensor A, torch::Tensor B) {
    if (!ready) {
        mm<<<64, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), product);
        ready = true;
    }
    auto C = torch::empty_like(A);
    cudaMemcpy(C.data_ptr<float>(), product, 4, cudaMemcpyDeviceToDevice);
    return C;
}
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["f"])

class ModelNew(nn.Module):
    def forward(self, A, B):
        return ext.f(A, B)
)PY");
  const auto onceFlags = flagsOf("invisible-cache", once);
  ASSERT_EQ(onceFlags.size(), 1u);
  EXPECT_EQ(onceFlags[0].lines, (std::vector<int>{lineOf(once, "if (!ready)"), lineOf(once, "mm<<<")}));
}

TEST(InvisibleCache, WorkspacesHandlesAndOneTimeTablesAreFine) {
  const std::string program = candidate(R"PY(cuda_src = r"""
static float* workspace = nullptr;
static int64_t capacity = 0;
static cublasHandle_t handle;
static bool table_ready = false;
static float* table = nullptr;
struct Key { const void* data; bool operator==(const Key& o) const { return data == o.data; } };
torch::Tensor f(torch::Tensor x) {
    if (x.numel() > capacity) { cudaMalloc(&workspace, x.numel() * 4); capacity = x.numel(); }
    if (!table_ready) { init_table<<<1, 256>>>(table); table_ready = true; }
    auto y = torch::empty_like(x);
    k<<<1, 1>>>(x.data_ptr<float>(), workspace, table, y.data_ptr<float>());
    return y;
}
"""
ext = load_inline(name="e", cpp_sources="", cuda_sources=cuda_src, functions=["f"])

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.compiled = {}

    def forward(self, A, B):
        key = tuple(A.shape)
        if key not in self.compiled:
            self.compiled[key] = torch.compile(torch.matmul)
        return ext.f(self.compiled[key](A, B))
)PY");
  EXPECT_TRUE(flagsOf("invisible-cache", program).empty());

  const std::string perAddress = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.compiled = {}

    def forward(self, A, B):
        if A.data_ptr() not in self.compiled:
            self.compiled[A.data_ptr()] = torch.compile(torch.matmul, mode="reduce-overhead")
        return self.compiled[A.data_ptr()](A, B)
)PY");
  const auto flags = flagsOf("invisible-cache", perAddress);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
}

}  // namespace
}  // namespace ks
