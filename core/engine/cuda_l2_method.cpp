#include "core/engine/cuda_l2_method.h"

#include <pybind11/eval.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::engine {
namespace {

// The session loop (cuda_l2_method.h says what it does and why each step is as it is). Python on purpose:
// the calls are made from Python, as CUDA-L2's are, so their call overhead is in the host time as in its.
constexpr const char* kSession = R"PY(
import math
import random
import time

import torch


def _randn(shape, device):
    if device.type == "cuda":
        return torch.randn(shape, dtype=torch.half, device=device)
    return torch.randn(shape).half()  # CPU torch may lack a float16 generator


def _col_major(x):
    # x's column-major copy in x's shape: the bytes of x.t() laid out contiguously
    return x.t().reshape(x.shape).contiguous()


def _cpu_matmul(a, b, out):  # bookkeeping on CPU, where torch may lack a float16 matmul
    out.copy_(torch.matmul(a.float(), b.float()))


def session(baseline, candidate, m, n, k, pm, pn, pk, device, warmup_s, seconds, qps, seed, events,
            max_rounds):
    device = torch.device(device)
    cuda = device.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    now = time.perf_counter
    matmul = baseline is None
    funcs = [(torch.matmul if cuda else _cpu_matmul) if matmul else baseline, candidate]
    padded = bool(pm or pn or pk)
    orders = random.Random(seed)
    gaps = random.Random(seed + 1)
    torch.manual_seed(seed)
    start = torch.cuda.Event(enable_timing=True) if (cuda and events) else None
    end = torch.cuda.Event(enable_timing=True) if (cuda and events) else None
    times = ([], [])

    def inputs(order):
        a = _randn((m, k), device)
        b = _randn((k, n), device)
        made = []
        for i in order:
            if i == 1 and padded:
                a_i = torch.zeros((m + pm, k + pk), dtype=torch.half, device=device)
                a_i[:m, :k] = a
                b_i = torch.zeros((k + pk, n + pn), dtype=torch.half, device=device)
                b_i[:k, :n] = b
                c_i = _randn((m + pm, n + pn), device)
            else:
                a_i = a.clone()
                b_i = b.clone()
                c_i = _randn((m, n), device)
            made.append((a_i, b_i, _col_major(b_i), c_i))
        sync()
        return made

    def timed(i, args):
        a_i, b_i, bc_i, c_i = args
        f = funcs[i]
        c_i.fill_(0)
        sync()
        if start is not None:
            start.record()
            if i == 0 and matmul:
                f(a_i, b_i, out=c_i)
            else:
                f(a_i, b_i, bc_i, c_i)
            end.record()
            sync()
            return start.elapsed_time(end)
        t0 = now()
        if i == 0 and matmul:
            f(a_i, b_i, out=c_i)
        else:
            f(a_i, b_i, bc_i, c_i)
        sync()
        return (now() - t0) * 1000.0

    def one_round(order, keep):
        for i, args in zip(order, inputs(order)):
            ms = timed(i, args)
            if keep:
                times[i].append(ms)
        if qps > 0:
            time.sleep(-math.log(1.0 - gaps.random()) / qps)

    warmup_rounds = 0
    since = now()
    while now() - since < warmup_s and warmup_rounds < max_rounds:
        one_round([0, 1], False)
        warmup_rounds += 1
    rounds = 0
    since = now()
    order = [0, 1]
    while now() - since < seconds and rounds < max_rounds:
        orders.shuffle(order)
        one_round(order, True)
        rounds += 1
    return times[0], times[1], rounds, warmup_rounds
)PY";

py::object& sessionFunction() {
  // Made once per process and never destroyed: a py::object must not outlive the interpreter's finalization.
  static py::object* function = [] {
    py::dict scope;
    scope["__builtins__"] = py::module_::import("builtins");
    scope["__name__"] = "kscope_cuda_l2_method";
    py::exec(kSession, scope);
    return new py::object(scope["session"]);
  }();
  return *function;
}

}  // namespace

CudaL2SessionTimes runCudaL2Session(const py::object& baseline, const py::object& candidate,
                                    const CudaL2Shape& shape, const std::string& device,
                                    const CudaL2SessionSettings& s) {
  py::tuple got = sessionFunction()(baseline, candidate, shape.m, shape.n, shape.k, shape.padM, shape.padN,
                                    shape.padK, device, s.warmupSeconds, s.seconds, s.serverQps, s.seed,
                                    s.clock == CudaL2SessionSettings::Clock::Events, s.maxRounds);
  CudaL2SessionTimes t;
  t.baselineMs = got[0].cast<std::vector<double>>();
  t.candidateMs = got[1].cast<std::vector<double>>();
  t.rounds = got[2].cast<int>();
  t.warmupRounds = got[3].cast<int>();
  return t;
}

}  // namespace ks::engine
