#!/usr/bin/env python3
"""CUDA-L2 re-timing sample and report (bench/gpu/cuda-l2-sample.sh, docs/cuda-l2-h100.md).

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


# "built, regs ..., 180 s" or, without a ptxas summary, "built, 180 s"
BUILT = re.compile(r"^\[build \d+/\d+\] (\S+) \S+: built\b.*, (\d+) s$")


BUILD_LINE = re.compile(r"^\[build \d+/\d+\] (\S+) \S+: (built|cached)\b")


def compiled(logs):
    """Tasks the --build-only stage built or found cached (any line of any log): the ones that time at once."""
    done = set()
    for path in logs:
        if os.path.exists(path):
            for line in open(path):
                m = BUILD_LINE.match(line.strip())
                if m:
                    done.add(m.group(1))
    return done


def cmd_order(a):
    """The sample's shapes the compile stage built, one per line; --rest: the others (built while timing)."""
    done = compiled(a.compile_log)
    for key in open(a.shapes).read().split():
        if (key in done) != a.rest:
            print(key)


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


METHODS = ["cuda-l2-offline", "cuda-l2-server", "kscope-l2-flushed", "kscope-l2-warm"]
RECORDED_MODE = {"cuda-l2-offline": "offline", "cuda-l2-server": "server"}
# The baselines the table shows, each by every method (the release has ten columns; these carry the story).
TABLE_BASELINES = ["torch.matmul", "cuBLAS-max", "cuBLASLt-heuristic-max", "cuBLASLt-auto-tuning-max"]


# "kscope batch: builds: 70 candidates compile code; 34 from the cache, 32 built, 0 failed, 4 not finished,
#  on 15 runners in 560 s"
BUILD_SUMMARY = re.compile(r"^kscope batch: builds: .*?(\d+) built, (\d+) failed.* on (\d+) runners in (\d+) s")


def build_throughput(logs):
    """(kernels built or failed, wall seconds, runners) summed over the --build-only stages' summary lines."""
    done = wall = runners = 0
    for path in logs:
        if os.path.exists(path):
            for line in open(path):
                m = BUILD_SUMMARY.match(line.strip())
                if m:
                    done += int(m.group(1)) + int(m.group(2))
                    runners = max(runners, int(m.group(3)))
                    wall += int(m.group(4))
    return done, wall, runners


def measured_speedups(result):
    """(baseline, method) -> the candidate's measured speedup, from result.baselines."""
    out = {}
    for t in (result.get("baselines") or {}).get("timings", []):
        if t.get("speedup"):
            out[(t["baseline"], t["method"])] = t["speedup"]
    return out


def agreement(pairs):
    """[(measured, recorded)] -> (within 10 %, count, median |ln(measured / recorded)| or None)."""
    pairs = [(m, r) for m, r in pairs if m and r]
    logs = [abs(math.log(m / r)) for m, r in pairs]
    within = sum(abs(m / r - 1) <= 0.10 for m, r in pairs)
    return within, len(pairs), (statistics.median(logs) if logs else None)


def report_rows(lines, tables, cold):
    """One dict per batch line: what the table prints, and the pairs the summary counts."""
    rows = []
    for e in sorted(lines, key=lambda e: shape_of(e["task"].split("/")[-1].replace("x", "_")) or (0, 0, 0)):
        shape = shape_of(e["task"].split("/")[-1].replace("x", "_"))
        event = e.get("event", {})
        result = event.get("result", {}) if event.get("event") == "result" else {}
        build = (e.get("prebuild") or {}).get("build") or result.get("build") or {}
        kernels = [k for x in build.get("extensions", []) for k in x.get("kernels", [])]
        error = None
        if e.get("outcome") not in ("correct", "incorrect"):
            error = str((event.get("error") or {}).get("message", "?")).split("\n")[0][:60].replace("|", "/")
        measured = measured_speedups(result)
        recorded = {}
        for method, mode in RECORDED_MODE.items():
            for baseline in TABLE_BASELINES:
                recorded[(baseline, method)] = tables.get(mode, {}).get(shape, {}).get(baseline)
        rows.append({
            "task": e["task"],
            "correct": "yes" if e.get("outcome") == "correct" else "NO" if e.get("outcome") == "incorrect"
            else "error: " + error,
            "padded": "yes" if (result.get("gemm") or {}).get("padded") else "no",
            "events_speedup": e.get("speedup"),  # evaluate's own timing (L2 flushed, interleaved, median)
            "measured": measured,
            "recorded": recorded,
            "cold_build": cold.get(e["task"]),
            # An error result carries no build: nothing to say about the cache then.
            "cache": "—" if not build else "cache hit" if build.get("cache_hit") else "built",
            "regs": max((k.get("registers", 0) for k in kernels), default=None),
            "smem": max((k.get("shared_bytes", 0) for k in kernels), default=None),
            "seconds": e.get("seconds"),
            "phases": e.get("phase_seconds") or {},
            "notes": (result.get("baselines") or {}).get("notes", []),
        })
    return rows


def cell(row, baseline, method):
    m = row["measured"].get((baseline, method))
    r = row["recorded"].get((baseline, method))
    return fmt(m) + (f" ({fmt(r)})" if r is not None else "")


def summary(rows):
    out = {}
    for baseline in ("torch.matmul", "cuBLAS-max"):
        for method in METHODS:
            mode_method = "cuda-l2-offline" if method not in RECORDED_MODE else method
            pairs = [(r["measured"].get((baseline, method)), r["recorded"].get((baseline, mode_method)))
                     for r in rows if r["correct"] == "yes"]
            out[(baseline, method)] = agreement(pairs)
    return out


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
    rows = report_rows(lines, tables, cold)
    print(f"# CUDA-L2 re-timing: {len(rows)} shapes of {release}\n")
    print("Each cell: the candidate's measured speedup over the baseline by the method, and in parentheses the "
          "release's recorded one of the same baseline and mode (CUDA-L2's offline and server methods; "
          "KernelScope's own methods have none). Methods (core/stats/gemm_methods.h): cuda-l2-offline / "
          "-server = CUDA-L2's (fresh inputs per round, shuffled order, mean TFLOP/s; server with exponential "
          "gaps), kscope-l2-flushed / -warm = KernelScope's (CUDA events, medians, L2 flushed or not). "
          "The -max baselines are the faster of TN and NN, as the release counts them. "
          "'events' is evaluate's own timing over torch.matmul.\n")
    head = ["shape", "correct", "padded", "events"]
    for baseline in TABLE_BASELINES:
        for method in METHODS:
            head.append(f"{baseline} {method.replace('cuda-l2-', 'L2 ').replace('kscope-l2-', 'ks ')}")
    head += ["cold build s", "timed run's build", "s", "regs", "smem B"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [r["task"], r["correct"], r["padded"], fmt(r["events_speedup"])]
        cells += [cell(r, b, m) for b in TABLE_BASELINES for m in METHODS]
        cells += [str(r["cold_build"]) if r["cold_build"] is not None else "—", r["cache"],
                  fmt(r["seconds"], 0) if r["seconds"] is not None else "—",
                  str(r["regs"]) if r["regs"] is not None else "—",
                  str(r["smem"]) if r["smem"] is not None else "—"]
        print("| " + " | ".join(cells) + " |")
    failed = [r for r in rows if r["correct"].startswith("error")]
    if failed:
        print("\n## Where the time of failed shapes went (phase seconds of the batch line)\n")
        for r in failed:
            phases = ", ".join(f"{k} {v:.0f}" for k, v in r["phases"].items()) or "none recorded"
            print(f"- {r['task']}: {fmt(r['seconds'], 0)} s in all; {phases}")
    notes = sorted({n for r in rows for n in r["notes"]})
    if notes:
        print("\n## Runner notes\n")
        for n in notes:
            print(f"- {n}")
    n_correct = sum(r["correct"] == "yes" for r in rows)
    print(f"\n## Summary\n\n- correct: {n_correct} of {len(rows)}")
    s = summary(rows)
    for baseline in ("torch.matmul", "cuBLAS-max"):
        for method in METHODS:
            within, count, med = s[(baseline, method)]
            against = "recorded offline" if method not in RECORDED_MODE else f"recorded {RECORDED_MODE[method]}"
            print(f"- over {baseline}, {method}: {within} of {count} within 10 % of the {against} speedup; "
                  f"median |ln(measured / recorded)| {fmt(med, 3)}")
    events = agreement([(r["events_speedup"], r["recorded"].get(("torch.matmul", "cuda-l2-offline")))
                        for r in rows if r["correct"] == "yes"])
    print(f"- evaluate's own timing over torch.matmul: {events[0]} of {events[1]} within 10 % of the recorded "
          f"offline speedup; median |ln| {fmt(events[2], 3)}")
    projection(rows, a, release)
    if a.warm_log and os.path.exists(a.warm_log):
        print("\n## Warm re-time of one shape\n")
        for line in open(a.warm_log):
            print("- " + line.strip())


def projection(rows, a, release):
    """Cold and warm wall time for the whole release on this machine, from the rates this run measured."""
    built, wall, runners = build_throughput(a.compile_log)
    timed = [r["seconds"] for r in rows if r["cache"] == "cache hit" and r["seconds"] is not None]
    kernels = os.path.join(a.whole_release, "kernels", release)
    total = len([f for f in os.listdir(kernels) if f.endswith(".cu")]) if os.path.isdir(kernels) else 0
    if not built or not timed:
        return
    per_build = wall / built
    per_time = sum(timed) / len(timed)
    print("\n## Projection for the whole release on one such machine\n")
    print(f"- builds: {built} kernels compiled in {wall} s of --build-only stages on {runners} runners "
          f"({per_build:.1f} s a kernel; the stages cut short count their unfinished builds' time too)")
    print(f"- timing: {len(timed)} cached shapes timed in {sum(timed):.0f} s by one timing runner "
          f"({per_time:.1f} s a shape: correctness, probes, seven baselines by four methods)")
    if total:
        cold = total * (per_build + per_time)
        warm = total * per_time
        print(f"- the release's {total} shapes (from the folder {release}): cold about {cold / 3600:.1f} h "
              f"(builds then timing), warm (every kernel in the build cache) about {warm / 60:.0f} min")


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
    s = sub.add_parser("order")
    s.add_argument("shapes")
    s.add_argument("--compile-log", action="append", default=[])
    s.add_argument("--rest", action="store_true")
    s.set_defaults(run=cmd_order)
    s = sub.add_parser("report")
    s.add_argument("release")
    s.add_argument("batch")
    s.add_argument("--compile-log", action="append", default=[],
                   help="kscope batch --build-only stderr: the cold build time of each kernel (repeatable)")
    s.add_argument("--warm-log", default="", help="the warm stage's click-to-number lines")
    s.add_argument("--whole-release", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared",
                                                            "datasets", "cuda-l2"),
                   help="the release the sample was cut from: its shape count for the projection")
    s.set_defaults(run=cmd_report)
    a = p.parse_args(argv)
    a.run(a)


if __name__ == "__main__":
    main()
