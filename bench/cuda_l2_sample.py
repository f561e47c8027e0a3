#!/usr/bin/env python3
"""CUDA-L2 re-timing sample and report (issue 13, item 5).

  sample KERNELS_DIR [--count N] [--seed S]      print the chosen shapes, one M_N_K a line
  prepare RELEASE_ROOT OUT_ROOT [--count N] [--seed S]
                                                 a mini release in OUT_ROOT (kernels/<gpu>_<ACC>/ with the
                                                 sampled kernels, eval_results/ copied) that `kscope batch`
                                                 opens like the real one; the shapes also in OUT_ROOT/shapes.txt
  report RELEASE_ROOT BATCH_JSONL                the table per shape and the summary (markdown, stdout)

Sampling. The H100 release is the full grid of M, N, K over ten sizes each (64 … 16384, every power of two
and 12288): 1000 shapes. The strata are those sizes per extent (their "decades" on a log scale). The sample
is rounds of a Latin design: each round draws a random permutation of the sizes for each of M, N and K and
pairs them position by position, so in every round each size of each extent appears exactly once; a shape
already taken (or without a kernel) is redrawn. `--count` is rounded up to whole rounds (default 70: every
size of every extent seven times). random.Random(seed): the same file list and seed give the same sample.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import shutil
import statistics
import sys

DEFAULT_COUNT = 70
DEFAULT_SEED = 20261125


def shape_of(name):
    stem = name[:-3] if name.endswith(".cu") else name
    parts = stem.split("_")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def kernel_shapes(kernels_dir):
    return sorted(s for s in (shape_of(n) for n in os.listdir(kernels_dir)) if s)


def stratified_sample(shapes, count=DEFAULT_COUNT, seed=DEFAULT_SEED):
    available = set(shapes)
    sizes = [sorted({s[i] for s in shapes}) for i in range(3)]
    per_round = max(len(x) for x in sizes)
    rounds = max(1, math.ceil(count / per_round))
    rng = random.Random(seed)
    chosen = []
    for _ in range(rounds):
        for _attempt in range(1000):
            perms = [rng.sample(x, len(x)) for x in sizes]
            picked = [tuple(perms[d][i % len(perms[d])] for d in range(3)) for i in range(per_round)]
            if all(p in available and p not in chosen for p in picked) and len(set(picked)) == len(picked):
                chosen.extend(picked)
                break
        else:
            raise SystemExit("cannot draw another round: the grid has too few shapes left")
    return chosen


def release_folder(root):
    kernels = os.path.join(root, "kernels")
    names = sorted(d for d in os.listdir(kernels) if os.path.isdir(os.path.join(kernels, d)))
    if len(names) != 1:
        raise SystemExit(f"{kernels}: expected one release folder, found {names}")
    return names[0]


def read_tables(root, release):
    """{mode: {(m, n, k): {baseline: speedup}}} from eval_results/*_<release>_speedup_<mode>.csv."""
    tables = {}
    for mode in ("offline", "server"):
        path = os.path.join(root, "eval_results", f"cuda_l2_{release}_speedup_{mode}.csv")
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            rows = {}
            for row in csv.DictReader(f):
                shape = shape_of(row.pop("mnk"))
                if shape:
                    rows[shape] = {k: float(v) for k, v in row.items() if v}
            tables[mode] = rows
    return tables


def cmd_sample(a):
    for m, n, k in stratified_sample(kernel_shapes(a.kernels), a.count, a.seed):
        print(f"{m}_{n}_{k}")


def cmd_prepare(a):
    release = release_folder(a.release)
    src = os.path.join(a.release, "kernels", release)
    chosen = stratified_sample(kernel_shapes(src), a.count, a.seed)
    dst = os.path.join(a.out, "kernels", release)
    os.makedirs(dst, exist_ok=True)
    for m, n, k in chosen:
        shutil.copyfile(os.path.join(src, f"{m}_{n}_{k}.cu"), os.path.join(dst, f"{m}_{n}_{k}.cu"))
    # Only the sampled rows, so the reader has no "row without a kernel" warning per other shape.
    os.makedirs(os.path.join(a.out, "eval_results"), exist_ok=True)
    wanted = {f"{m}_{n}_{k}" for m, n, k in chosen}
    for name in os.listdir(os.path.join(a.release, "eval_results")):
        if release not in name:
            continue
        with open(os.path.join(a.release, "eval_results", name), newline="") as f, \
                open(os.path.join(a.out, "eval_results", name), "w", newline="") as out:
            lines = f.read().splitlines()
            out.write(lines[0] + "\n")
            for line in lines[1:]:
                if line.split(",", 1)[0] in wanted:
                    out.write(line + "\n")
    with open(os.path.join(a.out, "shapes.txt"), "w") as f:
        for m, n, k in chosen:
            f.write(f"{release}/{m}x{n}x{k}\n")
    print(f"{len(chosen)} shapes of {release} in {a.out}")


def fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


BUILT = re.compile(r"^\[build \d+/\d+\] (\S+) \S+: built, .*, (\d+) s$")


def cold_builds(logs):
    """task -> seconds of its compile in the --build-only stage (a kernel built again later is a cache hit)."""
    seconds = {}
    for path in logs:
        if os.path.exists(path):
            for line in open(path):
                m = BUILT.match(line.strip())
                if m:
                    seconds[m.group(1)] = int(m.group(2))
    return seconds


def cmd_report(a):
    release = release_folder(a.release)
    cold = cold_builds(a.compile_log)
    tables = read_tables(a.release, release)
    lines = []
    with open(a.batch) as f:
        for line in f:
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    print(f"# CUDA-L2 re-timing: {len(lines)} shapes of {release}\n")
    print("Measured: KernelScope's own timing (CUDA events, L2 flushed), speedup over torch.matmul(a, b) in the "
          "same process on identical inputs. Recorded: the release's tables. cuBLAS baselines and CUDA-L2's "
          "offline/server methods are not measured by this runner yet (issue 13 items 2-3), so their columns "
          "show the recorded numbers only.\n")
    print("| shape | correct | padded | measured vs torch.matmul | recorded offline | recorded server "
          "| recorded offline vs cuBLAS-max | cold build s | timed run's build | regs | smem B |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, within = [], 0
    for e in sorted(lines, key=lambda e: shape_of(e["task"].split("/")[-1].replace("x", "_")) or (0, 0, 0)):
        shape = shape_of(e["task"].split("/")[-1].replace("x", "_"))
        off = tables.get("offline", {}).get(shape, {})
        srv = tables.get("server", {}).get(shape, {})
        event = e.get("event", {})
        result = event.get("result", {}) if event.get("event") == "result" else {}
        build = (e.get("prebuild") or {}).get("build") or result.get("build") or {}
        kernels = [k for x in build.get("extensions", []) for k in x.get("kernels", [])]
        regs = max((k.get("registers", 0) for k in kernels), default=None)
        smem = max((k.get("shared_bytes", 0) for k in kernels), default=None)
        measured = e.get("speedup")
        recorded = off.get("torch.matmul")
        if measured and recorded:
            r = math.log(measured / recorded)
            ratios.append(abs(r))
            within += abs(measured / recorded - 1) <= 0.10
        correct = {"correct": "yes", "incorrect": "NO"}.get(e.get("outcome"), "error: " + str(
            (event.get("error") or {}).get("message", "?")).split("\n")[0][:60].replace("|", "/"))
        padded = "yes" if (result.get("gemm") or {}).get("padded") else "no"
        print(f"| {e['task']} | {correct} | {padded} | {fmt(measured)} | {fmt(recorded)} | "
              f"{fmt(srv.get('torch.matmul'))} | {fmt(off.get('cuBLAS-max'))} | {cold.get(e['task'], '—')} | "
              f"{'cache hit' if build.get('cache_hit') else 'built'} | {regs if regs is not None else '—'} | "
              f"{smem if smem is not None else '—'} |")
    n_correct = sum(e.get("outcome") == "correct" for e in lines)
    print(f"\n## Summary\n\n- correct: {n_correct} of {len(lines)}")
    print(f"- measured within 10 % of the recorded offline speedup over torch.matmul: {within} of {len(ratios)} "
          "timed shapes")
    if ratios:
        print(f"- median |ln(measured / recorded offline)| over torch.matmul: {statistics.median(ratios):.3f}")
    print("- over cuBLAS-max: not measured yet (issue 13 item 2)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("kernels")
    s.add_argument("--count", type=int, default=DEFAULT_COUNT)
    s.add_argument("--seed", type=int, default=DEFAULT_SEED)
    s.set_defaults(run=cmd_sample)
    s = sub.add_parser("prepare")
    s.add_argument("release")
    s.add_argument("out")
    s.add_argument("--count", type=int, default=DEFAULT_COUNT)
    s.add_argument("--seed", type=int, default=DEFAULT_SEED)
    s.set_defaults(run=cmd_prepare)
    s = sub.add_parser("report")
    s.add_argument("release")
    s.add_argument("batch")
    s.add_argument("--compile-log", action="append", default=[],
                   help="kscope batch --build-only stderr: the cold build time of each kernel (repeatable)")
    s.set_defaults(run=cmd_report)
    a = p.parse_args(argv)
    a.run(a)


if __name__ == "__main__":
    main()
