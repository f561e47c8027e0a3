#include "core/engine/cuda_l1_method.h"

#include <pybind11/eval.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <numeric>

#include "core/stats/cuda_l1_stats.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

// The check and the timing loop (cuda_l1_method.h says what they do and why each step is as it is). Python on
// purpose: the calls are made from Python, as CUDA-L1's are.
constexpr const char* kMethod = R"PY(
import random
import time

import torch


def _on(xs, device):
    if device.type != "cuda":
        return list(xs)
    return [x.cuda(device=device) if isinstance(x, torch.Tensor) else x for x in xs]


def _seed(s, cuda):
    torch.manual_seed(s)
    if cuda:
        torch.cuda.manual_seed(s)


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device=device)


def _moved(model, device):
    return model.to(device) if hasattr(model, "to") else model


def _models(Model, ModelNew, get_init_inputs, s, device, cuda):
    _seed(s, cuda)
    init = _on(get_init_inputs(), device)
    _seed(s, cuda)
    ref = Model(*init)
    _seed(s, cuda)
    cand = ModelNew(*init)
    return _moved(ref, device), _moved(cand, device)


def _lazy(out, device):  # eval_cuda.py's validate_no_lazy_evaluation, on one output
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(outs):
        name = f"Output[{i}]" if len(outs) > 1 else "Output"
        if not isinstance(o, torch.Tensor):
            return f"{name} is not a tensor: {type(o)}"
        if type(o).__name__ not in ("Tensor", "Parameter"):
            return f"{name} is {type(o).__name__}, not standard torch.Tensor"
        if o.device.type != device.type:
            return f"{name} on wrong device: {o.device} (expected {device})"
        try:
            storage = o.untyped_storage() if hasattr(o, "untyped_storage") else o.storage()  # torch < 2
            if storage.size() == 0:
                return f"{name} has no allocated storage (likely lazy)"
        except Exception as e:
            return f"{name} cannot access storage: {e}"
        try:
            if o.data_ptr() == 0:
                return f"{name} storage pointer is null (likely lazy)"
        except Exception as e:
            return f"{name} cannot access data pointer: {e}"
    return ""


def _differences(o, c, atol, rtol):  # numbers for a person; the verdict is allclose's alone
    try:
        o64 = o.detach().double()
        c64 = c.detach().double()
        d = (o64 - c64).abs()
        if d.numel() == 0:
            return 0.0, 0.0, 0.0
        share = (d / (atol + rtol * c64.abs())).max().item()
        return d.max().item(), d.mean().item(), share
    except Exception:
        return 0.0, 0.0, 0.0


def check(Model, ModelNew, get_init_inputs, get_inputs, device, trials, seed, atol, rtol):
    device = torch.device(device)
    cuda = device.type == "cuda"
    t0 = time.perf_counter()
    r = {"trials": trials, "passed": 0, "ok": False, "message": "", "failed_trial": 0, "failed_seed": 0,
         "max_diff": 0.0, "avg_diff": 0.0, "worst_share": 0.0}
    with torch.no_grad():
        try:
            ref, cand = _models(Model, ModelNew, get_init_inputs, seed, device, cuda)
            _seed(seed, cuda)
            out = cand(*_on(get_inputs(), device))
            _sync(device)
            why = _lazy(out, device)
        except Exception as e:
            why = f"Error during validation: {e}"
        if why:
            r["message"] = why
            r["seconds"] = time.perf_counter() - t0
            return r
        torch.manual_seed(seed)
        seeds = [torch.randint(0, 2**32 - 1, (1,)).item() for _ in range(trials)]
        for t, ts in enumerate(seeds):
            try:
                _seed(ts, cuda)
                x = _on(get_inputs(), device)
                _seed(ts, cuda)
                ref.eval()
                o = ref(*x)
                _sync(device)
                _seed(ts, cuda)
                cand.eval()
                c = cand(*x)
                _sync(device)
                if o.shape != c.shape:
                    r.update(message="Shape mismatch to the original model", failed_trial=t + 1, failed_seed=ts)
                    break
                close = torch.allclose(o, c, atol=atol, rtol=rtol)
            except Exception as e:
                r.update(message=f"Runtime error in trial {t + 1}: {e}", failed_trial=t + 1, failed_seed=ts)
                break
            mx, avg, share = _differences(o, c, atol, rtol)
            if mx >= r["max_diff"]:
                r.update(max_diff=mx, avg_diff=avg)
            r["worst_share"] = max(r["worst_share"], share)
            if not close:
                r.update(message="Value mismatch to the original model", failed_trial=t + 1, failed_seed=ts)
                break
            r["passed"] += 1
    r["ok"] = r["passed"] == trials
    r["seconds"] = time.perf_counter() - t0
    return r


def _streams(model):  # eval_cuda.py's find_model_streams
    found = []
    for name in dir(model):
        try:
            v = getattr(model, name)
            if isinstance(v, torch.cuda.Stream):
                found.append(v)
            elif isinstance(v, (list, tuple)):
                found += [i for i in v if isinstance(i, torch.cuda.Stream)]
            elif isinstance(v, dict):
                found += [i for i in v.values() if isinstance(i, torch.cuda.Stream)]
        except (AttributeError, RuntimeError):
            continue
    return found


def _timed(model, x, device, streams, flush):
    if device.type != "cuda":
        t0 = time.perf_counter()
        model(*x)
        return (time.perf_counter() - t0) * 1000.0
    if flush is not None:
        flush()  # queued before the start event: not in the time
    s = torch.cuda.current_stream(device=device)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(s)
    model(*x)
    for other in streams:
        s.wait_stream(other)
    end.record(s)
    torch.cuda.synchronize(device=device)
    return start.elapsed_time(end)


def timing(Model, ModelNew, get_init_inputs, get_inputs, device, waits, global_trials, perf_trials, warmup,
           seed, order_seed, stop_below, score, flush, progress):
    device = torch.device(device)
    cuda = device.type == "cuda"
    order = random.Random(order_seed)
    trials = []
    stopped = False
    with torch.no_grad():
        for g in range(global_trials):
            s = seed + g
            _seed(s, cuda)
            init = _on(get_init_inputs(), device)
            _seed(s, cuda)
            warm = _moved(Model(*init), device)
            warm(*_on(get_inputs(), device))
            _sync(device)
            del warm
            ref, cand = _models(Model, ModelNew, get_init_inputs, s, device, cuda)
            try:
                w = _on(get_inputs(), device)
                for _ in range(warmup):
                    ref(*w)
                    cand(*w)
                    _sync(device)
            except Exception:
                pass  # eval_cuda.py: "warmup failure shouldn't block evaluation"
            rt, ct = [], []
            for _ in range(perf_trials):
                x = _on(get_inputs(), device)
                ref_first = order.choice([True, False])
                # eval_cuda.py walks the candidate's attributes before every trial, whether or not its
                # program uses streams: host work right before the first timed call, so it is done here too.
                found = _streams(cand)
                streams = found if (cuda and waits) else []
                for which in ((0, 1) if ref_first else (1, 0)):
                    if which == 0:
                        rt.append(_timed(ref, x, device, [], flush))
                    else:
                        ct.append(_timed(cand, x, device, streams, flush))
            trials.append((rt, ct))
            del ref, cand
            if progress is not None:
                progress(g + 1)
            if score(rt, ct) < stop_below:
                stopped = True
                break
    return trials, stopped
)PY";

double meanOf(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

py::dict& methodScope() {
  // Made once per process and never destroyed: a py::object must not outlive the interpreter's finalization.
  static py::dict* scope = [] {
    auto* s = new py::dict();
    (*s)["__builtins__"] = py::module_::import("builtins");
    (*s)["__name__"] = "kscope_cuda_l1_method";
    py::exec(kMethod, *s);
    return s;
  }();
  return *scope;
}

}  // namespace

CudaL1CheckOutcome runCudaL1Check(const CudaL1Programs& p, const std::string& device,
                                  const CudaL1CheckSettings& s) {
  py::dict got = methodScope()["check"](p.model, p.modelNew, p.getInitInputs, p.getInputs, device, s.trials,
                                        s.seed, s.atol, s.rtol);
  CudaL1CheckOutcome o;
  o.trials = got["trials"].cast<int>();
  o.passed = got["passed"].cast<int>();
  o.ok = got["ok"].cast<bool>();
  o.message = got["message"].cast<std::string>();
  o.failedTrial = got["failed_trial"].cast<int>();
  o.failedSeed = got["failed_seed"].cast<std::int64_t>();
  o.maxDiff = got["max_diff"].cast<double>();
  o.avgDiff = got["avg_diff"].cast<double>();
  o.worstShare = got["worst_share"].cast<double>();
  o.seconds = got["seconds"].cast<double>();
  return o;
}

CudaL1TimingOutcome runCudaL1Timing(const CudaL1Programs& p, const std::string& device,
                                    const CudaL1TimingSettings& s) {
  const py::cpp_function score(&stats::cudaL1Score);
  py::tuple got = methodScope()["timing"](p.model, p.modelNew, p.getInitInputs, p.getInputs, device,
                                          p.waitsForStreams, s.globalTrials, s.perfTrials, s.warmup, s.seed,
                                          s.orderSeed, s.stopBelow, score, s.flush ? s.flush : py::none(),
                                          s.progress ? s.progress : py::none());
  CudaL1TimingOutcome o;
  for (const py::handle trial : got[0].cast<py::list>()) {
    const auto rt = trial.cast<py::tuple>()[0].cast<std::vector<double>>();
    const auto ct = trial.cast<py::tuple>()[1].cast<std::vector<double>>();
    o.scores.push_back(stats::cudaL1Score(rt, ct));
    o.referenceMs.push_back(meanOf(rt));
    o.candidateMs.push_back(meanOf(ct));
  }
  o.stoppedEarly = got[1].cast<bool>();
  return o;
}

}  // namespace ks::engine
