#!/usr/bin/env python3
"""The table of docs/multi-gpu.md from a bench/gpu/multi-gpu-batch.sh run.

    python3 bench/multi_gpu_report.py --state DIR --subset subset.jsonl

DIR holds what the script's stages left: one.jsonl / all.jsonl (`kscope batch --gpus 0` and `--gpus all`
over the subset; shared.jsonl: the default one-GPU batch, --timing-jobs 4; all-shared.jsonl: --gpus all
--timing-jobs 4; prebuild: the build stage alone), their .wall files (seconds, whole command),
neighbour.jsonl and neighbour-gemm.jsonl (bench/multi_gpu_neighbour.py) and smi-<stage>.csv (nvidia-smi
samples during each neighbour test). Prints markdown. Standard library only.

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


def json_lines(path):
    """The JSON objects of a JSON Lines file, skipping lines that do not parse; [] when there is no file."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return rows


def read_batch(path):
    return {row["task"]: row for row in json_lines(path)}


def result(row):
    event = row.get("event", {})
    return event.get("result") if event.get("event") == "result" else None


def speedup(row):
    r = result(row)
    if not r or not r.get("correctness", {}).get("passed"):
        return None
    return (r.get("timing") or {}).get("speedup")


def wall(state, name):
    """Seconds of the whole command; with NAME-resume.wall (a second call that resumed a batch the first call's
    budget cut: "resume rc 0 168.0 s 227 lines"), the sum of both parts."""
    try:
        with open(os.path.join(state, name + ".wall")) as f:
            first = float(f.read().strip())
    except (OSError, ValueError):
        return None
    resumed = resumed_part(state, name)
    return first + resumed if resumed is not None else first


def resumed_part(state, name):
    try:
        with open(os.path.join(state, name + "-resume.wall")) as f:
            return float(f.read().split()[3])
    except (OSError, ValueError, IndexError):
        return None


def verdict(row):
    r = result(row)
    if r is None:
        err = row.get("event", {}).get("error", {})
        return "error: " + (err.get("kind") or "?")
    return "correct" if r.get("correctness", {}).get("passed") else "incorrect"


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def smi_samples(path):
    """nvidia-smi's CSV samples per GPU index: {index: {"util": [...], "power": [...], "clock": [...]}}."""
    per_gpu = {}
    if not os.path.exists(path):
        return per_gpu
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 5 or not parts[2].endswith("%"):
                continue
            try:
                sample = per_gpu.setdefault(parts[1], {"util": [], "power": [], "clock": []})
                sample["util"].append(float(parts[2].rstrip(" %")))
                sample["power"].append(float(parts[3].split()[0]))
                sample["clock"].append(float(parts[4].split()[0]))
            except (ValueError, IndexError):
                continue
    return per_gpu


def gpu0_by_neighbour(path):
    """GPU 0's samples while it was busy (utilization >= 50 %), split by whether GPU 1 was busy at the same
    timestamp: {"idle": [(clock, power, temperature, gpu1 power)], "busy": [...]}."""
    at = {}
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) >= 6 and parts[2].endswith("%"):
                at.setdefault(parts[0], {})[parts[1]] = parts
    out = {}
    for sample in at.values():
        if "0" not in sample or "1" not in sample:
            continue
        try:
            g0, g1 = sample["0"], sample["1"]
            if float(g0[2].rstrip(" %")) < 50:
                continue
            phase = "busy" if float(g1[2].rstrip(" %")) >= 50 else "idle"
            out.setdefault(phase, []).append((float(g0[4].split()[0]), float(g0[3].split()[0]), float(g0[5]),
                                              float(g1[3].split()[0])))
        except (ValueError, IndexError):
            continue
    return out


def neighbour_section(state, stage, label):
    """The neighbour test of one stage (bench/multi_gpu_neighbour.py's lines and nvidia-smi's samples)."""
    rows = json_lines(os.path.join(state, stage + ".jsonl"))
    if not rows:
        return
    passes = [r for r in rows if r["phase"] in ("warm-up", "alone", "busy")]
    load = [r for r in rows if r["phase"] == "neighbour"]
    timed = {p: [r for r in passes if r["phase"] == p and r.get("speedup")] for p in ("alone", "busy")}
    print(f"\n## Neighbour test: {label} (`{stage}`)\n")
    if timed["alone"] and timed["busy"]:
        def med(phase, key):
            return statistics.median(r["speedup"] if key == "speedup" else r[key]["median_ms"] for r in timed[phase])
        parts = []
        for key in ("candidate", "reference", "speedup"):
            alone, busy = med("alone", key), med("busy", key)
            parts.append(f"{key} {alone:.4g} alone, {busy:.4g} busy ({100 * (busy / alone - 1):+.1f} %)")
        print(f"- {len(timed['alone'])} passes alone, {len(timed['busy'])} with {label}: " + "; ".join(parts))
        for key in ("candidate", "speedup"):
            for phase in ("alone", "busy"):
                vals = [r["speedup"] if key == "speedup" else r[key]["median_ms"] for r in timed[phase]]
                print(f"  - {key} {phase}: {min(vals):.4g} to {max(vals):.4g} over the passes")
    if load:
        print(f"- the neighbour during the busy passes: " +
              ", ".join(f"{r['tflops']} TFLOP/s ({r['gemms']} GEMMs in {r['seconds']} s)" for r in load))
    smi = smi_samples(os.path.join(state, f"smi-{stage}.csv"))
    if not smi and stage == "neighbour":
        smi = smi_samples(os.path.join(state, "smi.csv"))  # the name before neighbour-gemm existed
    for gpu, s in sorted(smi.items()):
        print(f"- GPU {gpu} during the test (nvidia-smi, 0.5 s samples, {len(s['util'])}): utilization median "
              f"{statistics.median(s['util']):.0f} % (max {max(s['util']):.0f}), power median "
              f"{statistics.median(s['power']):.0f} W (max {max(s['power']):.0f}), SM clock median "
              f"{statistics.median(s['clock']):.0f} MHz (min {min(s['clock']):.0f})")
    split = gpu0_by_neighbour(os.path.join(state, f"smi-{stage}.csv"))
    for phase, v in split.items():
        print(f"- GPU 0 while timing (its utilization >= 50 %) with GPU 1 {phase}: {len(v)} samples, SM clock median "
              f"{statistics.median(x[0] for x in v):.0f} MHz (min {min(x[0] for x in v):.0f}), power median "
              f"{statistics.median(x[1] for x in v):.0f} W, temperature median {statistics.median(x[2] for x in v):.0f} C; "
              f"GPU 1 power median {statistics.median(x[3] for x in v):.0f} W")
    print("\n| phase | pass | correct | reference ms | candidate ms | speedup | candidate CV | neighbour |")
    print("|---|---|---|---|---|---|---|---|")
    by_pass = {r["pass"]: r for r in load}
    for r in passes:
        if "load" in r:
            text = f"batch {'running' if r['load']['running'] else 'ended'}, {r['load']['lines']} done"
        elif r["phase"] == "busy" and r["pass"] in by_pass:
            text = f"GEMMs at {by_pass[r['pass']]['tflops']} TFLOP/s"
        else:
            text = "—"
        if "error" in r:
            print(f"| {r['phase']} | {r['pass']} | error: {r['error'][:80]} | | | | | {text} |")
            continue
        print(f"| {r['phase']} | {r['pass']} | {'yes' if r.get('passed') else 'NO'} | "
              f"{fmt(r['reference'].get('median_ms'), 4)} | {fmt(r['candidate'].get('median_ms'), 4)} | "
              f"{fmt(r.get('speedup'))} | {fmt(r['candidate'].get('cv'))} | {text} |")


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
    print("# Per-GPU batch on a machine with several GPUs\n")
    print("## Summary\n")
    building = sum(1 for r in subset if any(w in (r.get("custom_code") or "") for w in ("load_inline", "cpp_extension", "load(")))
    levels = sorted({r["level_id"] for r in subset})
    print(f"- entries: {len(subset)} of the CUDA-L1 H100 release (levels {', '.join(map(str, levels))}; "
          f"{building} build an extension)")
    wp = wall(a.state, "prebuild")
    if wp is not None:
        print(f"- the build stage alone (`--build-only`, an empty build cache): {wp:.1f} s")
    if one or every:
        print(f"- `--gpus 0`: {len(one)} results in {fmt(w1, 1)} s; `--gpus all`: {len(every)} results on "
          f"{len(gpus)} GPU(s) ({', '.join(gpus)}) in {fmt(wn, 1)} s")
    if w1 and wn and gpus and one and every:
        print(f"- speed-up {w1 / wn:.2f}x on {len(gpus)} GPUs; scaling efficiency {100 * w1 / (len(gpus) * wn):.0f} %")
    shared, ws = read_batch(os.path.join(a.state, "shared.jsonl")), wall(a.state, "shared")
    if shared:
        print(f"- for comparison, the default one-GPU batch (`--timing-jobs 4`: four runners on GPU 0, checks side by "
              f"side, timing alone): {len(shared)} results in {fmt(ws, 1)} s")
        part = resumed_part(a.state, "shared")
        if part is not None:
            print(f"  - in two parts: the first call's budget cut it after {fmt(ws - part, 1)} s and the same command "
                  f"resumed it in the next call for {fmt(part, 1)} s (its runners' start-up and the build stage's "
                  f"cache check counted twice)")
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
    for stage, label in (("neighbour", "GPU 1 timing a batch"), ("neighbour-gemm", "GPU 1 running bf16 GEMMs")):
        neighbour_section(a.state, stage, label)
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
