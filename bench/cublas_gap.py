#!/usr/bin/env python3
"""Where CUDA-L2's harness spends the time of a baseline call (docs/method-fidelity.md, "The cuBLAS gap").

Runs on the GPU machine inside a scratch copy of CUDA-L2's harness (bench/gpu/crosscheck.sh gap), one python3
process per shape, with the extension the harness itself built (its tools/utils.py build_from_sources):

  python3 cublas_gap.py SHAPE BUILD_DIR SECONDS FUNCS OUT.json      (FUNCS: matmul,hgemm_cublas_tn,...)
  python3 cublas_gap.py report STATE                                 (anywhere: the table, from STATE/gap)

Per baseline function, against CUDA-L2's kernel, in the harness's own protocol (its benchmarking_utils
run_all_perf_funcs_once: fresh inputs every round, the two functions in a shuffled order):
  plain    the protocol as the harness runs it: its per-call host times (time.time() from after one
           synchronize to after the next), their mean: the harness's figure, in this process
  split    the same rounds with each call wrapped: the host time the call takes to return (launch and binding,
           not the GPU work), and CUDA events recorded just before and after it (the device's view)
  bare     the function called back to back on one set of inputs between two events (no synchronize between
           calls): the GPU's time per call with the launch hidden
  loop     KernelScope's cuda-l2-offline session loop (the Python of core/engine/cuda_l2_method.cpp, read from
           the source) run in this process on the same functions, host clock then events: whether the loop or
           the runner's process makes KernelScope-as-CUDA-L2 differ from the harness
  kernels  a torch.profiler trace of a few rounds (last, as a profile slows what runs after it): which kernels
           each call launches and their device time
Also written: which libcublas the process loaded and its version. Prints one JSON object to OUT.json.
"""
import ctypes
import json
import os
import random
import re
import statistics
import sys
import time

if sys.argv[1:2] != ["report"]:  # the measuring mode runs in the harness's folder, with torch and CUDA
    import torch

    sys.path.insert(0, os.getcwd())  # the harness's folder: its benchmarking_utils and tools
    from benchmarking_utils import run_all_perf_funcs_once  # noqa: E402  (CUDA-L2's, run unchanged)
    from tools.utils import build_from_sources, extract_bm_bk_bn  # noqa: E402

    torch.set_grad_enabled(False)


def loaded(name):
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f if name in line and "/" in line})


def cublas_version(paths):
    for p in paths:
        if "libcublas.so" in os.path.basename(p):
            lib = ctypes.CDLL(p)
            parts = []
            for which in range(3):  # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
                v = ctypes.c_int()
                lib.cublasGetProperty(which, ctypes.byref(v))
                parts.append(str(v.value))
            return ".".join(parts)
    return ""


def padding(mnk, m, n, k):
    with open(f"kernels/h100_F32F16F16F32/{mnk}.cu") as f:
        bm, bk, bn = extract_bm_bk_bn(f.read())
    if bm > 0 and bk > 0 and bn > 0:
        return (-m) % bm, (-n) % bn, (-k) % bk
    return 0, 0, 0


class Wrapped:
    """A harness function with its call split: host time to return, and events around it."""

    def __init__(self, f, name):
        self.f, self.name = f, name
        self.start, self.stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.call_ms, self.event_ms, self.pending = [], [], None

    def function(self):
        def call(a, b, bc=None, c=None, out=None):
            self.start.record()
            t0 = time.perf_counter()
            if out is not None:
                self.f(a, b, out=out)
            else:
                self.f(a, b, bc, c)
            t1 = time.perf_counter()
            self.stop.record()
            self.pending = (t1 - t0) * 1000
        call.__name__ = self.name  # the harness picks padding and the call form by this name
        return call

    def collect(self, keep):
        if self.pending is None:
            return
        if keep:
            self.call_ms.append(self.pending)
            self.event_ms.append(self.start.elapsed_time(self.stop))  # the round ended with a synchronize
        self.pending = None


def rounds(funcs, m, n, k, pads, seconds, shuffle=True, after=None):
    records, t_end = [], time.time() + seconds
    while time.time() < t_end:
        if shuffle:
            random.shuffle(funcs)
        records.append(run_all_perf_funcs_once(perf_func_list=funcs, m=m, n=n, k=k, acc_precise="fp32",
                                               device_type="h100", padding_m=pads[0], padding_k=pads[2],
                                               padding_n=pads[1]))
        if after:
            after()
    return records


def mean_of(records, key):
    return statistics.fmean(r[key] for r in records) if records else 0.0


def bare_ms(f, name, m, n, k, calls=200):
    a = torch.randn((m, k), dtype=torch.half, device="cuda")
    b = torch.randn((k, n), dtype=torch.half, device="cuda")
    bc = b.t().reshape(b.shape).contiguous()
    c = torch.zeros((m, n), dtype=torch.half, device="cuda")
    run = (lambda: f(a, b, out=c)) if name == "matmul" else (lambda: f(a, b, bc, c))
    for _ in range(20):
        run()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    s.record()
    for _ in range(calls):
        run()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / calls


def kernels(funcs, m, n, k, pads, n_rounds=30):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(n_rounds):
            run_all_perf_funcs_once(perf_func_list=list(funcs), m=m, n=n, k=k, acc_precise="fp32",
                                    device_type="h100", padding_m=pads[0], padding_k=pads[2], padding_n=pads[1])
        torch.cuda.synchronize()
    out = {}
    for ev in prof.key_averages():
        if str(getattr(ev, "device_type", "")).endswith("CUDA") or getattr(ev, "self_device_time_total", 0) > 0:
            total = getattr(ev, "self_device_time_total", None)
            if total is None:
                total = getattr(ev, "self_cuda_time_total", 0)
            if total <= 0:
                continue
            out[ev.key] = {"calls_per_round": ev.count / n_rounds, "device_us_per_call": total / max(ev.count, 1)}
    return out


def kscope_session():
    """KernelScope's session function, from the C++ source that embeds it (the same text the runner runs)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "engine", "cuda_l2_method.cpp")
    with open(src) as f:
        text = re.search(r'R"PY\((.*?)\)PY"', f.read(), re.S).group(1)
    scope = {"__name__": "kscope_cuda_l2_method"}
    exec(text, scope)
    return scope["session"]


def mean_rate_ratio(candidate_ms, baseline_ms):
    """cuda-l2-offline's statistic: the kernel's mean TFLOP/s over the baseline's (the FLOPs cancel)."""
    return statistics.fmean(1 / t for t in candidate_ms) / statistics.fmean(1 / t for t in baseline_ms)


PERF_NAMES = {"matmul": "torch.matmul", "hgemm_cublas_tn": "cuBLAS-tn", "hgemm_cublas_nn": "cuBLAS-nn"}


def report(state):
    """Per shape and baseline, median over repeats (µs a call): the harness's split beside KernelScope's
    cuda-l2-offline (host clock), its events twin and kscope-l2-warm, from STATE/gap/<r>/<shape>.{json,ours.json}."""
    rows = {}
    gap = os.path.join(state, "gap")
    for r in sorted(os.listdir(gap)):
        for name in sorted(os.listdir(os.path.join(gap, r))):
            if not name.endswith(".harness.json"):
                continue
            shape = name[:-len(".harness.json")]
            seed = json.load(open(os.path.join(gap, r, name)))
            try:
                ours = json.load(open(os.path.join(gap, r, shape + ".ours.json")))
                timings = (((ours.get("event") or {}).get("result") or {}).get("baselines") or {}).get("timings", [])
            except (OSError, ValueError):
                timings = []
            by = {(t["baseline"], t["method"]): t for t in timings}
            for func, e in seed["functions"].items():
                label = PERF_NAMES.get(func, func)
                off, warm = by.get((label, "cuda-l2-offline"), {}), by.get((label, "kscope-l2-warm"), {})
                row = rows.setdefault((shape, label), {})
                for key, value in [
                    ("harness host", e["plain_host_ms"]["baseline"]), ("split host", e["split_host_ms"]["baseline"]),
                    ("call returns", e["split_call_ms"]["baseline"]), ("events", e["split_event_ms"]["baseline"]),
                    ("back to back", e["bare_ms"]["baseline"]), ("kernel host", e["plain_host_ms"]["kernel"]),
                    ("kernel call returns", e["split_call_ms"]["kernel"]), ("kernel events", e["split_event_ms"]["kernel"]),
                    ("ours host", off.get("baseline_ms")), ("ours events", off.get("event_baseline_ms")),
                    ("ours kernel host", off.get("candidate_ms")), ("ours kernel events", off.get("event_candidate_ms")),
                    ("ours warm", warm.get("baseline_ms")), ("harness speedup", e["harness_speedup"]),
                    ("ours speedup", off.get("speedup")),
                    ("harness again host", (e.get("plain_again_host_ms") or {}).get("baseline")),
                    ("loop host", (e.get("loop_host_ms") or {}).get("baseline")),
                    ("loop kernel host", (e.get("loop_host_ms") or {}).get("kernel")),
                    ("loop events", (e.get("loop_events_ms") or {}).get("baseline")),
                    ("harness again speedup", e.get("harness_again_speedup")),
                    ("loop speedup", e.get("loop_host_speedup"))]:
                    if value:
                        row.setdefault(key, []).append(value * (1 if "speedup" in key else 1000))
                kern = e.get("kernels_with_cuda_l2") or {}
                row.setdefault("kernels", set()).update(
                    f"{k[:60]} ({v['calls_per_round']:.2f}/round, {v['device_us_per_call']:.1f} µs)"
                    for k, v in kern.items())
                row["libcublas"] = f"{seed.get('cublas_version', '')} {' '.join(seed.get('libcublas', []))}"
    cols = ["harness host", "split host", "call returns", "events", "back to back", "ours host", "ours events",
            "ours warm", "kernel host", "ours kernel host", "kernel events", "ours kernel events",
            "harness speedup", "ours speedup", "harness again host", "loop host", "loop kernel host", "loop events",
            "harness again speedup", "loop speedup"]
    print("| shape | baseline | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for (shape, label), row in sorted(rows.items()):
        cells = []
        for c in cols:
            v = row.get(c)
            cells.append("—" if not v else (f"{statistics.median(v):.2f}" if "speedup" in c
                                             else f"{statistics.median(v):.1f}") + (f" ({len(v)})" if len(v) > 1 else ""))
        print(f"| {shape.replace('_', '×')} | {label} | " + " | ".join(cells) + " |")
    print("\nµs a call, median over repeats (their count in brackets); speedups by each method's own rule.")
    for (shape, label), row in sorted(rows.items()):
        print(f"\n{shape} {label}: libcublas {row.get('libcublas', '')}")
        for line in sorted(row.get("kernels", [])):
            print(f"  {line}")


def main():
    if sys.argv[1] == "report":
        report(sys.argv[2])
        return
    mnk, build_dir, seconds, names, out_path = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]
    m, n, k = map(int, mnk.split("_"))
    torch.cuda.set_device(0)
    hgemm = build_from_sources(mnk=mnk, acc_precise="fp32", device_type="h100", base_dir=build_dir, verbose=False)
    hgemm.init_cublas_handle()
    hgemm.init_cublaslt_handle_v1()
    hgemm.init_cublaslt_handle_v2()
    torch.cuda.synchronize()
    kernel = hgemm.cuda_l2_h100_fp32
    pads = padding(mnk, m, n, k)
    libs = loaded("libcublas")
    result = {"shape": mnk, "seconds": seconds, "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
              "libcublas": libs, "cublas_version": cublas_version(libs), "functions": {}}
    random.seed(42)
    for name in names.split(","):
        f = torch.matmul if name == "matmul" else getattr(hgemm, name)
        funcs = [f, kernel]
        rounds(funcs, m, n, k, pads, 0.5)  # the harness's warm-up
        plain = rounds(funcs, m, n, k, pads, seconds)
        wb, wk = Wrapped(f, name), Wrapped(kernel, kernel.__name__)
        wrapped = [wb.function(), wk.function()]
        keep = [True]
        split = rounds(wrapped, m, n, k, pads, seconds, after=lambda: (wb.collect(keep[0]), wk.collect(keep[0])))
        entry = {
            "rounds": len(plain),
            "plain_host_ms": {"baseline": mean_of(plain, name + "_ms"),
                              "kernel": mean_of(plain, kernel.__name__ + "_ms")},
            "split_host_ms": {"baseline": mean_of(split, name + "_ms"),
                              "kernel": mean_of(split, kernel.__name__ + "_ms")},
            "split_call_ms": {"baseline": statistics.fmean(wb.call_ms), "kernel": statistics.fmean(wk.call_ms)},
            "split_event_ms": {"baseline": statistics.fmean(wb.event_ms), "kernel": statistics.fmean(wk.event_ms)},
            "bare_ms": {"baseline": bare_ms(f, name, m, n, k), "kernel": None},
        }
        # The harness's statistic: the ratio of the mean TFLOP/s of each function's calls.
        entry["harness_speedup"] = mean_of(plain, kernel.__name__) / mean_of(plain, name)
        session = kscope_session()
        for clock, events in (("host", False), ("events", True)):
            b_ms, k_ms, n_rounds, _ = session(None if name == "matmul" else f, kernel, m, n, k, pads[0], pads[1],
                                              pads[2], "cuda", 0.5, seconds, 0, 42, events, 10 ** 9)
            entry[f"loop_{clock}_ms"] = {"baseline": statistics.fmean(b_ms), "kernel": statistics.fmean(k_ms)}
            entry[f"loop_{clock}_speedup"] = mean_rate_ratio(k_ms, b_ms)
            entry[f"loop_{clock}_rounds"] = n_rounds
        again = rounds(funcs, m, n, k, pads, seconds)  # the harness once more: how far it drifts meanwhile
        entry["plain_again_host_ms"] = {"baseline": mean_of(again, name + "_ms"),
                                        "kernel": mean_of(again, kernel.__name__ + "_ms")}
        entry["harness_again_speedup"] = mean_of(again, kernel.__name__) / mean_of(again, name)
        result["functions"][name] = entry
    for name in names.split(","):  # the profiles last: CUPTI stays attached and slows what runs after it
        f = torch.matmul if name == "matmul" else getattr(hgemm, name)
        result["functions"][name]["kernels_with_cuda_l2"] = kernels([f, kernel], m, n, k, pads)
    with open(out_path, "w") as fh:
        json.dump(result, fh, indent=1)
    print(json.dumps({n: {kk: v for kk, v in e.items() if kk != "kernels_with_cuda_l2"}
                      for n, e in result["functions"].items()}, indent=1))


if __name__ == "__main__":
    main()
