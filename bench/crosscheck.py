#!/usr/bin/env python3
"""Method fidelity: CUDA-L2's own harness beside KernelScope's implementation of its method, on one GPU.

  prepare RELEASE OUT [--shapes M_N_K,...]   (here) the chosen shapes as a small release (kernels and their
                                             recorded rows) plus the harness files to run, under OUT
  report OUT_DIR STATE [--gpu NAME]          (anywhere) the table of docs/method-fidelity.md from what
                                             bench/gpu/crosscheck.sh left in STATE

STATE holds, per repeat r, shape s and baseline b: seed/r/s/b.json (CUDA-L2's benchmark_result_<b>.json
after its benchmarking_offline.py ran) and ours/r/s.json (`kscope run --json` of the same shape). The report
prints per shape and baseline: the release's recorded speedup (H100), the seed harness's and KernelScope's
cuda-l2-offline (median over repeats, with their range), their ratio (median of the per-repeat ratios, with its
range), the same protocol by CUDA events, and KernelScope's own methods; then how many pairs agree within 5 %.
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import sys

DEFAULT_SHAPES = "64_4096_4096,256_2048_2048,1024_4096_256,64_256_16384,4096_4096_4096"
# CUDA-L2's --perf_func names and the release's column names (its summarize_result.py rule).
PERF_FUNCS = {
    "matmul": "torch.matmul",
    "hgemm_cublas_tn": "cuBLAS-tn",
    "hgemm_cublas_nn": "cuBLAS-nn",
    "hgemm_cublaslt_heuristic_tn": "cuBLASLt-heuristic-tn",
    "hgemm_cublaslt_heuristic_nn": "cuBLASLt-heuristic-nn",
    "hgemm_cublaslt_auto_tuning_tn": "cuBLASLt-auto-tuning-tn",
    "hgemm_cublaslt_auto_tuning_nn": "cuBLASLt-auto-tuning-nn",
}
DEFAULT_FUNCS = "matmul,hgemm_cublas_tn,hgemm_cublas_nn"
TOLERANCE = 0.05


def release_folder(root):
    names = sorted(d for d in os.listdir(os.path.join(root, "kernels"))
                   if os.path.isdir(os.path.join(root, "kernels", d)))
    if len(names) != 1:
        raise SystemExit(f"{root}/kernels: expected one release folder, found {names}")
    return names[0]


def cmd_prepare(a):
    release = release_folder(a.release)
    shapes = [s for s in a.shapes.split(",") if s]
    kernels = os.path.join(a.out, "release", "kernels", release)
    os.makedirs(kernels, exist_ok=True)
    for s in shapes:
        shutil.copyfile(os.path.join(a.release, "kernels", release, s + ".cu"), os.path.join(kernels, s + ".cu"))
    results = os.path.join(a.out, "release", "eval_results")
    os.makedirs(results, exist_ok=True)
    for name in os.listdir(os.path.join(a.release, "eval_results")):
        if release not in name:
            continue
        with open(os.path.join(a.release, "eval_results", name)) as f, open(os.path.join(results, name), "w") as out:
            lines = f.read().splitlines()
            out.write(lines[0] + "\n")
            out.writelines(line + "\n" for line in lines[1:] if line.split(",", 1)[0] in shapes)
    # The harness travels unchanged (the device has no ../shared); crosscheck.sh runs it from a scratch copy.
    harness = os.path.join(a.out, "harness")
    shutil.rmtree(harness, ignore_errors=True)
    shutil.copytree(a.harness, harness)
    with open(os.path.join(a.out, "shapes.txt"), "w") as f:
        f.writelines(s + "\n" for s in shapes)
    with open(os.path.join(a.out, "funcs.txt"), "w") as f:
        f.writelines(x + "\n" for x in a.funcs.split(",") if x)
    print(f"{len(shapes)} shapes of {release} and the harness in {a.out}")


def recorded_table(release_root):
    release = release_folder(release_root)
    path = os.path.join(release_root, "eval_results", f"cuda_l2_{release}_speedup_offline.csv")
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows[row.pop("mnk")] = {k: float(v) for k, v in row.items() if v}
    return rows


def seed_speedup(path):
    records = json.load(open(path))["records"]
    kernel = next(v for k, v in records.items() if k.startswith("cuda_l2_"))
    func = os.path.basename(path)[:-len(".json")]
    return kernel / records[func]


def our_timings(path):
    """{(baseline, method): timing} of one `kscope run --json` document, or {} when it has none."""
    try:
        doc = json.load(open(path))
    except (OSError, ValueError):
        return {}
    result = ((doc.get("event") or {}).get("result") or {})
    return {(t["baseline"], t["method"]): t for t in (result.get("baselines") or {}).get("timings", [])}


def spread(values):
    return (min(values), max(values)) if values else (None, None)


def fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


def rng(values):
    lo, hi = spread(values)
    return "" if lo is None or len(values) < 2 else f" [{lo:.2f}–{hi:.2f}]"


def noise(spreads):  # KernelScope's own estimate of one run's noise (95 % half-width, %)
    return f" ±{statistics.median(spreads):.0f} %" if spreads else ""


def cmd_report(a):
    state = a.state
    recorded = recorded_table(os.path.join(a.dir, "release"))
    shapes = [s.strip() for s in open(os.path.join(a.dir, "shapes.txt")) if s.strip()]
    funcs = [s.strip() for s in open(os.path.join(a.dir, "funcs.txt")) if s.strip()]
    repeats = sorted(os.listdir(os.path.join(state, "seed"))) if os.path.isdir(os.path.join(state, "seed")) else []
    print(f"Method fidelity on {a.gpu}: CUDA-L2's benchmarking_offline.py beside KernelScope's cuda-l2-offline, "
          f"{len(repeats)} repeats, interleaved\n")
    print("| shape | baseline | recorded (H100) | CUDA-L2 harness | KernelScope as CUDA-L2 | ratio | "
          "same, CUDA events | kscope-l2-warm | kscope-l2-flushed |")
    print("|---|---|---|---|---|---|---|---|---|")
    within = compared = 0
    noisy = []
    for shape in shapes:
        for func in funcs:
            column = PERF_FUNCS[func]
            seeds, ours, ratios, events, warm, flushed, spreads = [], [], [], [], [], [], []
            for r in repeats:
                sp = os.path.join(state, "seed", r, shape, func + ".json")
                t = our_timings(os.path.join(state, "ours", r, shape + ".json"))
                s = seed_speedup(sp) if os.path.exists(sp) else None
                o = t.get((column, "cuda-l2-offline"))
                if s:
                    seeds.append(s)
                if o and o.get("speedup"):
                    ours.append(o["speedup"])
                    if o.get("event_speedup"):
                        events.append(o["event_speedup"])
                    if o.get("spread"):
                        spreads.append(o["spread"] * 100)
                    if s:
                        ratios.append(o["speedup"] / s)
                for method, into in (("kscope-l2-warm", warm), ("kscope-l2-flushed", flushed)):
                    x = t.get((column, method))
                    if x and x.get("speedup"):
                        into.append(x["speedup"])
            med = lambda v: statistics.median(v) if v else None  # noqa: E731
            ratio = med(ratios)
            seed_lo, seed_hi = spread(seeds)
            if ratio is not None:
                compared += 1
                if abs(ratio - 1) <= TOLERANCE:
                    within += 1
                elif seed_lo and seed_hi and (seed_hi / seed_lo - 1) > TOLERANCE:
                    noisy.append(f"{shape} {column}: the harness itself ranges {seed_lo:.2f}–{seed_hi:.2f}")
            rec = recorded.get(shape, {}).get(column)
            print(f"| {shape.replace('_', '×')} | {column} | {fmt(rec)} | {fmt(med(seeds))}{rng(seeds)} | "
                  f"{fmt(med(ours))}{rng(ours)}{noise(spreads)} | {fmt(ratio, 3)}{rng(ratios)} | {fmt(med(events))} | "
                  f"{fmt(med(warm))} | {fmt(med(flushed))} |")
    print(f"\n**{within} of {compared} shape × baseline pairs within ±{TOLERANCE:.0%}** of CUDA-L2's own harness "
          f"(median of the per-repeat ratios).")
    for line in noisy:
        print(f"- outside ±5 %, where the harness's own repeats spread more than 5 %: {line}")
    if a.note:
        print("\n" + a.note)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("prepare")
    s.add_argument("release")
    s.add_argument("out")
    s.add_argument("--shapes", default=DEFAULT_SHAPES)
    s.add_argument("--funcs", default=DEFAULT_FUNCS, help="CUDA-L2 --perf_func names, comma-separated")
    s.add_argument("--harness", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                     "shared", "harnesses", "cuda-l2"))
    s.set_defaults(run=cmd_prepare)
    s = sub.add_parser("report")
    s.add_argument("dir", help="what prepare made (the release, shapes.txt, funcs.txt)")
    s.add_argument("state", help="what bench/gpu/crosscheck.sh left (seed/, ours/)")
    s.add_argument("--gpu", default="the GPU")
    s.add_argument("--note", default="")
    s.set_defaults(run=cmd_report)
    a = p.parse_args(argv)
    a.run(a)


if __name__ == "__main__":
    sys.exit(main())
