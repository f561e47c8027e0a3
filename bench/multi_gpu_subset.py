#!/usr/bin/env python3
"""The CUDA-L1 subset of bench/gpu/multi-gpu-batch.sh (docs/multi-gpu.md), and the neighbour test's requests.

    python3 bench/multi_gpu_subset.py RELEASE.jsonl OUTDIR [--count 32 | --whole] [--neighbour 1/60]

Writes OUTDIR/subset.jsonl (COUNT entries of levels 1-2 whose program builds no extension, spread evenly
over the task ids in release order), OUTDIR/warm.jsonl (two of them, for the warm-up batch) and
OUTDIR/fixcheck.jsonl (--fixcheck's entries) and OUTDIR/neighbour.jsonl (the evaluate request of task NEIGHBOUR, as the runner protocol takes it:
docs/runner-protocol.md). A program that builds no extension times the same on a cold machine as on a warm
one, so the batches measure the timing stage and not the compiler. With --whole, subset.jsonl is the whole
release instead (every level, extensions included: the stage `prebuild` then fills the build cache before
the timed batches). Standard library only.
"""
import argparse
import json
import os
import sys

BUILDS = ("load_inline", "cpp_extension", "load(")


def builds_nothing(row):
    code = row.get("custom_code") or ""
    return bool(code) and not any(word in code for word in BUILDS)


def spread(rows, count):
    """count rows spread evenly over rows (all of them when there are fewer)."""
    if count >= len(rows):
        return list(rows)
    step = len(rows) / count
    return [rows[int(i * step)] for i in range(count)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("release")
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=32)
    ap.add_argument("--whole", action="store_true", help="subset.jsonl is the whole release")
    ap.add_argument("--neighbour", default="1/60", help="LEVEL/TASK of the candidate timed alone and beside load")
    ap.add_argument("--fixcheck", default="2/37 2/49 2/87",
                    help="LEVEL/TASK entries for fixcheck.jsonl: the programs containment broke in the first run "
                         "(CuPy's ~/.cupy cache; Inductor's compile workers), run again after the fix")
    a = ap.parse_args()
    with open(a.release) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    eligible = [r for r in rows if r["level_id"] in (1, 2) and builds_nothing(r)]
    subset = list(rows) if a.whole else spread(eligible, a.count)
    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, "subset.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in subset)
    with open(os.path.join(a.outdir, "warm.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in eligible[:2])
    level, task = (int(x) for x in a.neighbour.split("/"))
    row = next((r for r in rows if r["level_id"] == level and r["task_id"] == task), None)
    if row is None or not builds_nothing(row):
        sys.exit(f"--neighbour {a.neighbour}: not in the release, or its program builds an extension")
    request = {"op": "evaluate", "task": {"key": f"L{level}/{task}", "reference": row["ref_code"]},
               "candidate": {"id": "cuda-l1", "code": row["custom_code"]}}
    with open(os.path.join(a.outdir, "neighbour.jsonl"), "w") as f:
        f.write(json.dumps(request) + "\n")
    wanted = [tuple(int(x) for x in key.split("/")) for key in a.fixcheck.split()]
    with open(os.path.join(a.outdir, "fixcheck.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows if (r["level_id"], r["task_id"]) in wanted)
    keys = " ".join(f"L{r['level_id']}/{r['task_id']}" for r in subset)
    if a.whole:
        print(f"the whole release: {len(subset)} entries")
    else:
        print(f"{len(subset)} of {len(eligible)} eligible entries (levels 1-2, no extension build): {keys}")
    print(f"neighbour: L{level}/{task}")


if __name__ == "__main__":
    main()
