#!/usr/bin/env python3
"""The table of docs/multi-gpu.md from a bench/gpu/multi-gpu-batch.sh run (issue 20).

    python3 bench/multi_gpu_report.py --state DIR --subset subset.jsonl

DIR holds what the script's stages left: one.jsonl / all.jsonl (`kscope batch --gpus 0` and `--gpus all`
over the subset; shared.jsonl: the default one-GPU batch, --timing-jobs 4), their .wall files (seconds, whole command), neighbour.jsonl (bench/multi_gpu_neighbour.py)
and smi.csv (nvidia-smi samples during the neighbour test). Prints markdown. Standard library only.

Definitions:
  scaling efficiency   wall(one GPU) / (GPUs x wall(all GPUs)); 100 % is perfect scaling
  agreement            |ln(speedup on --gpus all / speedup on --gpus 0)| per entry timed correct in both
  neighbour effect     median over the busy passes / median over the alone passes, of the candidate's
                       median time, the reference's, and the speedup
"""
import argparse
import json
import math
import os
import statistics


def read_batch(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[row["task"]] = row
    return rows


def result(row):
    event = row.get("event", {})
    return event.get("result") if event.get("event") == "result" else None


def speedup(row):
    r = result(row)
    if not r or not r.get("correctness", {}).get("passed"):
        return None
    return (r.get("timing") or {}).get("speedup")


def wall(state, name):
    try:
        with open(os.path.join(state, name + ".wall")) as f:
            return float(f.read().strip())
    except (OSError, ValueError):
        return None


def verdict(row):
    r = result(row)
    if r is None:
        err = row.get("event", {}).get("error", {})
        return "error: " + (err.get("kind") or "?")
    return "correct" if r.get("correctness", {}).get("passed") else "incorrect"


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--state", required=True)
    ap.add_argument("--subset", required=True)
    a = ap.parse_args()
    with open(a.subset) as f:
        subset = [json.loads(line) for line in f if line.strip()]
    one, every = read_batch(os.path.join(a.state, "one.jsonl")), read_batch(os.path.join(a.state, "all.jsonl"))
    w1, wn = wall(a.state, "one"), wall(a.state, "all")
    gpus = sorted({row.get("gpu", "?") for row in every.values()})
    print("# Per-GPU batch on a machine with several GPUs (issue 20)\n")
    print("## Summary\n")
    print(f"- subset: {len(subset)} CUDA-L1 H100 entries (levels 1-2, no extension build)")
    if one or every:
        print(f"- `--gpus 0`: {len(one)} results in {fmt(w1, 1)} s; `--gpus all`: {len(every)} results on "
          f"{len(gpus)} GPU(s) ({', '.join(gpus)}) in {fmt(wn, 1)} s")
    if w1 and wn and gpus and one and every:
        print(f"- speed-up {w1 / wn:.2f}x on {len(gpus)} GPUs; scaling efficiency {100 * w1 / (len(gpus) * wn):.0f} %")
    shared, ws = read_batch(os.path.join(a.state, "shared.jsonl")), wall(a.state, "shared")
    if shared:
        print(f"- for comparison, the default one-GPU batch (`--timing-jobs 4`: four runners on GPU 0, checks side by "
              f"side, timing alone): {len(shared)} results in {fmt(ws, 1)} s")
    both, wb = read_batch(os.path.join(a.state, "all-shared.jsonl")), wall(a.state, "all-shared")
    if both:
        on = sorted({row.get("gpu", "?") for row in both.values()})
        print(f"- `--gpus all --timing-jobs 4` (four runners on each of {len(on)} GPUs): {len(both)} results in "
              f"{fmt(wb, 1)} s; per GPU: " +
              ", ".join(f"GPU {g}: {sum(1 for r in both.values() if r.get('gpu') == g)}" for g in on))
        if ws and wb and on:
            print(f"- against the default one-GPU batch: speed-up {ws / wb:.2f}x on {len(on)} GPUs; scaling efficiency "
                  f"{100 * ws / (len(on) * wb):.0f} %")
    # Every result of a --gpus batch names its GPU; the two batches of each pair agree entry by entry.
    for name, rows in (("--gpus all", every), ("--gpus all --timing-jobs 4", both)):
        if rows:
            named = sum(1 for row in rows.values() if row.get("gpu"))
            print(f"- results that name their GPU: {named} of {len(rows)} (`{name}`)")
    for (na, ra), (nb, rb) in ((("--gpus 0", one), ("--gpus all", every)),
                               (("--timing-jobs 4", shared), ("--gpus all --timing-jobs 4", both))):
        common = set(ra) & set(rb)
        if not common:
            continue
        same = sum(1 for k in common if verdict(ra[k]) == verdict(rb[k]))
        ratios = [abs(math.log(speedup(rb[k]) / speedup(ra[k]))) for k in common if speedup(ra[k]) and speedup(rb[k])]
        line = f"- `{na}` against `{nb}`: same verdict on {same} of {len(common)}"
        if ratios:
            line += (f"; speedup agreement (|ln ratio|, {len(ratios)} entries timed correct in both): "
                     f"median {statistics.median(ratios):.3f}, max {max(ratios):.3f}")
        print(line)
    neighbour = []
    path = os.path.join(a.state, "neighbour.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            neighbour = [json.loads(line) for line in f if line.strip()]
    timed = {p: [r for r in neighbour if r["phase"] == p and r.get("speedup")] for p in ("alone", "busy")}
    if timed["alone"] and timed["busy"]:
        def med(phase, key):
            vals = [r[key]["median_ms"] if key != "speedup" else r["speedup"] for r in timed[phase]]
            return statistics.median(vals)
        parts = []
        for key, name in (("candidate", "candidate"), ("reference", "reference"), ("speedup", "speedup")):
            alone, busy = med("alone", key), med("busy", key)
            parts.append(f"{name} {alone:.4g} alone, {busy:.4g} busy ({100 * (busy / alone - 1):+.1f} %)")
        print(f"- neighbour test ({len(timed['alone'])} passes alone, {len(timed['busy'])} with GPU 1 timing a "
              f"batch): " + "; ".join(parts))
    print("\n## Neighbour passes\n")
    print("| phase | pass | correct | reference ms | candidate ms | speedup | candidate CV | load batch on GPU 1 |")
    print("|---|---|---|---|---|---|---|---|")
    for r in neighbour:
        load = r.get("load")
        load_text = "—" if not load else f"{'running' if load['running'] else 'ended'}, {load['lines']} done"
        if "error" in r:
            print(f"| {r['phase']} | {r['pass']} | error: {r['error'][:80]} | | | | | {load_text} |")
            continue
        print(f"| {r['phase']} | {r['pass']} | {'yes' if r.get('passed') else 'NO'} | "
              f"{fmt(r['reference'].get('median_ms'), 4)} | {fmt(r['candidate'].get('median_ms'), 4)} | "
              f"{fmt(r.get('speedup'))} | {fmt(r['candidate'].get('cv'))} | {load_text} |")
    smi = os.path.join(a.state, "smi.csv")
    if os.path.exists(smi):
        util = {}
        with open(smi) as f:
            for line in f:
                parts = [p.strip() for p in line.split(",")]
                if len(parts) >= 3 and parts[2].endswith("%"):
                    util.setdefault(parts[1], []).append(float(parts[2].rstrip(" %")))
        if util:
            print("\nGPU utilization during the neighbour test (nvidia-smi, 0.5 s samples): " +
                  "; ".join(f"GPU {g}: median {statistics.median(v):.0f} %, {len(v)} samples"
                            for g, v in sorted(util.items())))
    print("\n## Per entry\n")
    present = [(n, r) for n, r in (("--gpus 0", one), ("--gpus all", every), ("--timing-jobs 4", shared),
                                    ("--gpus all --timing-jobs 4", both)) if r]
    print("| task | " + " | ".join(f"`{n}`: verdict | GPU | speedup" for n, _ in present) + " |")
    print("|---|" + "---|---|---|" * len(present))
    for row in subset:
        key = f"L{row['level_id']}/{row['task_id']}"
        cells = []
        for _, rows in present:
            r = rows.get(key)
            cells += [verdict(r), r.get("gpu", "—"), fmt(speedup(r))] if r else ["not run", "—", "—"]
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
