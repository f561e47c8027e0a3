#!/usr/bin/env python3
"""Table of a `kscope batch` re-run of the CUDA-L1 release: recorded against measured speedup per task.

    python3 bench/cuda_l1_report.py COLD.jsonl [--repeat WARM.jsonl] [--cold-wall S] [--warm-wall S]
    python3 bench/cuda_l1_report.py AFTER.jsonl --before BEFORE.jsonl [--good GOOD_AFTER --good-before GOOD_BEFORE]

With --before, COLD.jsonl is a `kscope batch --repair` run and BEFORE.jsonl the same entries
run as they are: a "Repair" section comes first, with the recorded, fallback and kernel speedups side by
side and the cause of every extension that still does not build (bench/gpu/repair-batch.sh).

COLD.jsonl is the output of `kscope batch ../shared/datasets/cuda-l1/h100.jsonl --device cuda --out ...`
(docs/cli.md, "kscope batch"); --repeat is a second batch over the same file (the warm run: every extension
comes from the build cache), used for the repeat-run spread. Prints markdown: a summary, then one row per
entry. Standard library only, so it runs wherever the batch ran.

Definitions (docs/gpu-results.md quotes them):
  reproduces      correct on every seed and measured speedup within 20 % of the recorded one
                  (0.8 <= measured / recorded <= 1.25 would be symmetric in log; we use |m/r - 1| <= 0.2)
  |log ratio|     |ln(measured / recorded)| over correct, timed entries; the median is reported
  trial CV        the candidate's coefficient of variation over the timed trials of one run
  repeat spread   |ln(measured_warm / measured_cold)| for entries timed correct in both runs
  slow trials     candidate trials longer than twice the candidate's median (from trials_ms, which older
                  runners did not report), with their positions in the run: one outlier, or a stretch
  repeat-run CV   sample standard deviation / mean of the two measured speedups (cold, warm), over the
                  entries whose reference and candidate both take > 1 ms (as docs/cuda-l1-h100.md reports it);
                  also split by the kind of timing below
  GPU busy        a model's kernel time in its profiled call over its median timed call: timing.*.kernel_ms
                  (kernels merged across streams; older runners lack it), else the sum of its kernels'
                  total_us (overlaps counted twice). Below 50 % the model is host-bound: its time is mostly
                  the CPU launching work, and it moves with the CPU's speed and load; 50-90 % partly so;
                  an entry is GPU-bound when both models are at 90 % or more
  autotuned       a program turned on torch.backends.cudnn.benchmark: cuDNN picks its algorithms by timing
                  them in each process, and may pick others in the next run
  95 % interval   timing.speedup_ci95 (older runners lack it): the bootstrap interval over one run's trials;
                  the summary counts the warm speedups inside the cold run's interval
"""
import argparse
import collections
import json
import math
import statistics
import sys


def read(path):
    rows = collections.OrderedDict()
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[(row["task"], row["candidate"])] = row
    return rows


def task_order(key):
    level, task = key[0].lstrip("L").split("/")
    return int(level), int(task)


def result(row):
    event = row.get("event", {})
    return event.get("result") if event.get("event") == "result" else None


def error(row):
    event = row.get("event", {})
    return event.get("error") if event.get("event") == "error" else None


def failure_kind(row):
    """None for a correct, timed entry; otherwise a short kind: incorrect, or the error's kind."""
    r = result(row)
    if r is not None:
        if not r["correctness"]["passed"]:
            return "incorrect"
        return None if r.get("timing") else "untimed"
    e = error(row) or {}
    return e.get("kind", "error")


def build_cell(row):
    r = result(row)
    pre = row.get("prebuild")
    if r is None:
        return "-"
    b = r.get("build", {})
    if not b.get("extensions"):
        return "-"
    built = pre.get("build") if pre else None
    seconds = built["seconds"] if built else b.get("seconds", 0)
    hit = (built or b).get("cache_hit", False)
    return f"{seconds:.0f} s{' (cache)' if hit else ''}"


def fell_back(row):
    """kscope's own "this number is the PyTorch fallback's" note for the line (core/runs/fallback_note.h, the
    one rule for it, written by `kscope batch` as the line's "fallback"), or ''."""
    return row.get("fallback") or ""


def extension_status(row):
    """'compiled', 'fell back' (a candidate extension failed to build and the program caught it), or ''
    (none)."""
    exts = (result(row) or {}).get("build", {}).get("extensions", [])
    if not exts:
        return ""
    return "fell back" if fell_back(row) else "compiled"


def hack_families(r):
    return sorted({f["family"] for f in r.get("runtime_flags", []) if f["severity"] == "hack"})


def busy(r, t, model):
    """(share of the median timed call the GPU was busy, exact?) or (None, False) when not profiled."""
    if not t or not t[model].get("median_ms"):
        return None, False
    if t[model].get("kernel_ms") is not None:
        return t[model]["kernel_ms"] / t[model]["median_ms"], True
    us = sum(k.get("total_us") or 0 for k in r.get("kernels") or [] if k.get("model") == model)
    return (us / 1000 / t[model]["median_ms"], False) if us else (None, False)


def timing_kind(r, t):
    """'autotuned', 'host-bound', 'partly host-bound', 'gpu-bound' or None (not profiled)."""
    if any("cudnn.benchmark: False -> True" in c for c in r.get("torch_settings_changed") or []):
        return "autotuned"
    shares = [busy(r, t, m)[0] for m in ("reference", "candidate")]
    if None in shares:
        return None
    return "host-bound" if min(shares) < 0.5 else "partly host-bound" if min(shares) < 0.9 else "gpu-bound"


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


# Causes (core/repair/build_cause.h) with which the extension could not have built with any torch or CUDA:
# the number recorded for such a program was its PyTorch fallback's wherever it was timed.
NEVER_BUILDS = {"bound-kernel", "undeclared-bound-function", "duplicate-module", "cuda-in-cpp-sources"}


def build_state(row):
    """(state, cause): state 'built', 'fell back' (failed, the program caught it), 'error' (failed, the
    evaluation ended in a build error) or '' (no extension); cause: the first failed build's cause."""
    r = result(row)
    if r is not None:
        exts = [x for x in r.get("build", {}).get("extensions", []) if x.get("program", "candidate") != "reference"]
        if not exts:
            return "", ""
        if not fell_back(row):
            return "built", ""
        failed = next((x for x in exts if not x["ok"]), {})
        return "fell back", failed.get("cause") or "unknown"
    e = error(row) or {}
    if e.get("kind") == "build":
        import re
        m = re.search(r"failed \(([\w-]+)\)", e.get("message", ""))
        return "error", m.group(1) if m else "unknown"
    return "", ""


def repairs_of(row):
    return [x["kind"] for x in (row.get("repair") or {}).get("repairs", [])]


def repair_section(title, after, before):
    """Markdown lines: summary and per-entry table of a repaired batch against the unrepaired one."""
    keys = sorted(set(after) | set(before), key=task_order)
    rows, counts = [], collections.Counter()
    causes_before, causes_after, never = collections.Counter(), collections.Counter(), []
    vs_fallback, vs_recorded, fallback_vs_recorded = [], [], []
    for key in keys:
        a, b = after.get(key, {}), before.get(key, {})
        sa, ca = build_state(a) if a else ("", "")
        sb, cb = build_state(b) if b else ("", "")
        if not (sa or sb):
            continue
        counts["programs"] += 1
        counts["built before"] += sb == "built"
        counts["built after"] += sa == "built"
        counts["repaired"] += bool(repairs_of(a))
        if sb != "built" and cb:
            causes_before[cb] += 1
        if sa and sa != "built":
            causes_after[ca or "unknown"] += 1
        if cb in NEVER_BUILDS:
            never.append(key[0])
        recorded = a.get("recorded_speedup") or b.get("recorded_speedup")
        fallback = b.get("speedup") if sb == "fell back" and failure_kind(b) is None else None
        kernel = a.get("speedup") if sa == "built" and failure_kind(a) is None else None
        correct_after = sa == "built" and result(a) is not None and result(a)["correctness"]["passed"]
        counts["kernel correct"] += correct_after and sb != "built"
        if kernel and fallback:
            vs_fallback.append(kernel / fallback)
        if kernel and recorded and sb != "built":
            vs_recorded.append(kernel / recorded)
        if fallback and recorded:
            fallback_vs_recorded.append(fallback / recorded)
        note = "the recorded number is the fallback's" if cb in NEVER_BUILDS else ""
        rows.append(f"| {key[0]} | {', '.join(repairs_of(a)) or '-'} | {sb or '-'} | {cb or '-'} | {sa or '-'} | "
                    f"{ca or '-'} | {'yes' if correct_after else ('no' if sa == 'built' else '-')} | {fmt(recorded)} | "
                    f"{fmt(fallback)} | {fmt(kernel)} | {note} |")
    out = [f"## Repair summary: {title}\n"]
    out.append(f"- programs that build an extension: {counts['programs']}; their CUDA built for "
               f"**{counts['built before']} as they are, {counts['built after']} with --repair** "
               f"({counts['repaired']} programs repaired)")
    out.append(f"- newly built kernels correct: {counts['kernel correct']} of "
               f"{counts['built after'] - counts['built before']}")
    if vs_fallback:
        faster = sum(1 for x in vs_fallback if x > 1)
        out.append(f"- kernel against fallback speedup (both timed correct): median ratio "
                   f"{statistics.median(vs_fallback):.2f}, the kernel faster for {faster} of {len(vs_fallback)}")
    if vs_recorded:
        out.append(f"- kernel against recorded speedup: median ratio {statistics.median(vs_recorded):.2f} over "
                   f"{len(vs_recorded)} newly built kernels timed correct")
    if fallback_vs_recorded:
        out.append(f"- fallback against recorded speedup: median ratio {statistics.median(fallback_vs_recorded):.2f} "
                   f"over {len(fallback_vs_recorded)}")
    out.append(f"- could not have built with any torch or CUDA ({', '.join(sorted(NEVER_BUILDS))}): "
               f"{len(never)} programs: the recorded number is the fallback's" +
               (f" ({', '.join(never)})" if never else ""))
    out.append("- cause of the failures as they are: " +
               (", ".join(f"{k} {n}" for k, n in causes_before.most_common()) or "none"))
    out.append("- cause of the failures left with --repair: " +
               (", ".join(f"{k} {n}" for k, n in causes_after.most_common()) or "none"))
    out.append("\nbefore = the program as released; after = with --repair; fallback = the speedup measured "
               "before, when the program fell back to PyTorch; kernel = the speedup measured after, with its "
               "CUDA built.\n")
    out.append("| task | repairs | before | cause before | after | cause after | correct after | recorded | "
               "fallback | kernel | note |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    return out + rows + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cold")
    ap.add_argument("--repeat")
    ap.add_argument("--cold-wall", type=float)
    ap.add_argument("--warm-wall", type=float)
    ap.add_argument("--build-wall", type=float, help="wall seconds of the cold build stage")
    ap.add_argument("--dataset", help="the CUDA-L1 JSONL the batch ran over: entries not in COLD are listed")
    ap.add_argument("--before", help="the same entries run without --repair (COLD is the --repair run)")
    ap.add_argument("--good", help="good-kernels run with --repair")
    ap.add_argument("--good-before", help="good-kernels run as they are")
    a = ap.parse_args()

    cold = read(a.cold)
    if a.before:
        print("# Repair: the CUDA-L1 release's extension programs, as released and with `--repair`\n")
        print("\n".join(repair_section("CUDA-L1 H100 release", cold, read(a.before))))
        if a.good:
            print("\n".join(repair_section("Stanford good-kernels (L9/n)", read(a.good),
                                            read(a.good_before) if a.good_before else {})))
    warm = read(a.repeat) if a.repeat else {}
    keys = sorted(cold, key=task_order)

    reproduced, logs, failures, cvs_long, spreads, spreads_long = 0, [], collections.Counter(), [], [], []
    spreads_by_kind = collections.defaultdict(list)  # timing kind -> repeat-run CVs of entries > 1 ms
    inside = [0, 0]  # warm speedups inside the cold run's 95 % interval, entries with an interval
    exact_busy = False
    slow_trials = []  # (task key, trials, [(index, ms) of trials > 2x the candidate's median])
    env = None
    lines = []
    ext_counts = collections.Counter()
    runtime_flagged = collections.Counter()
    for key in keys:
        row = cold[key]
        r = result(row)
        env = env or (r or {}).get("environment")
        kind = failure_kind(row)
        recorded = row.get("recorded_speedup")
        measured = row.get("speedup") if kind is None else None
        t = r.get("timing") if r else None
        ratio = measured / recorded if measured and recorded else None
        if kind:
            failures[kind] += 1
        if ratio:
            logs.append(abs(math.log(ratio)))
            if abs(ratio - 1) <= 0.2:
                reproduced += 1
        cv = t["candidate"]["cv"] if t else None
        long_task = bool(t and t["reference"]["median_ms"] > 1.0 and t["candidate"]["median_ms"] > 1.0)
        if long_task and cv is not None:
            cvs_long.append(cv)
        if long_task:  # runners that report every trial: how many were > 2x the median
            trials = [x for x in t["candidate"].get("trials_ms") or [] if x is not None]
            if trials:
                med = statistics.median(trials)
                slow = [(i, x) for i, x in enumerate(trials) if x > 2 * med]
                slow_trials.append((key, len(trials), slow))
        repeat = None
        if key in warm and failure_kind(warm[key]) is None and measured:
            repeat = warm[key]["speedup"]
            spread = abs(math.log(repeat / measured))
            spreads.append(spread)
            if long_task:
                spreads_long.append(statistics.stdev([measured, repeat]) / statistics.mean([measured, repeat]))
                spreads_by_kind[timing_kind(r, t)].append(spreads_long[-1])
            if t.get("speedup_ci95"):
                lo, hi = t["speedup_ci95"]
                inside[0] += lo <= repeat <= hi
                inside[1] += 1
        shares = [busy(r, t, m) for m in ("reference", "candidate")] if t else []
        exact_busy = exact_busy or any(e for _, e in shares)
        busy_cell = "/".join(f"{100 * b:.0f}" if b is not None else "-" for b, _ in shares) or "-"
        ci = t.get("speedup_ci95") if t else None
        measured_cell = fmt(measured) + (f" [{fmt(ci[0])}–{fmt(ci[1])}]" if ci else "")
        flags = ", ".join(hack_families(r)) if r else ""
        ext = extension_status(row)
        if ext:
            ext_counts[ext] += 1
        for family in (hack_families(r) if r else []):
            runtime_flagged[family] += 1
        note = ""
        if kind and kind != "incorrect":
            e = error(row) or {}
            first = next((d for d in e.get("diagnostics", []) if d.get("severity") == "error"), None)
            text = (f"line {e.get('line')}: {first['message']}" if first else e.get("message") or kind)
            note = (text.splitlines() or [kind])[0][:90].replace("|", "\\|")
        elif kind == "incorrect":
            seeds = [s for s in r["correctness"]["seeds"] if not s["passed"]]
            note = (seeds[0]["message"] if seeds else "").splitlines()[0][:90].replace("|", "\\|") if seeds else ""
        lines.append(
            f"| {key[0]} | {'yes' if kind is None else kind} | {fmt(recorded)} | {measured_cell} | "
            f"{fmt(t['host_speedup']) if t else '-'} | {fmt(repeat)} | "
            f"{fmt(t['reference']['median_ms'], 3) if t else '-'} | {fmt(t['candidate']['median_ms'], 3) if t else '-'} | "
            f"{fmt(100 * cv, 1) if cv is not None else '-'} | {busy_cell} | {ext or '-'} | {build_cell(row)} | "
            f"{flags} | {note} |")

    timed = len(logs)
    missing = []
    if a.dataset:
        with open(a.dataset) as f:
            for line in f:
                d = json.loads(line)
                key = (f"L{d['level_id']}/{d['task_id']}", "cuda-l1")
                if d.get("custom_code") and key not in cold:
                    missing.append(key[0])
    print(f"# CUDA-L1 H100 release re-timed by `kscope batch`\n")
    if env:
        print(f"Device: {env.get('device_name')}, driver {env.get('driver')}, CUDA {env.get('cuda')}, "
              f"torch {env.get('torch')}, {env.get('runner')}.\n")
    print("## Summary\n")
    print(f"- entries re-run: {len(keys)}; correct and timed: {timed}; "
          f"reproduce within 20 % of the recorded speedup: {reproduced} of {len(keys)} "
          f"({100 * reproduced / max(1, len(keys)):.0f} %; {100 * reproduced / max(1, timed):.0f} % of the timed)")
    if logs:
        print(f"- median |ln(measured / recorded)|: {statistics.median(logs):.3f} "
              f"(a factor of {math.exp(statistics.median(logs)):.2f})")
    if a.dataset:
        print(f"- not reached by this batch: {len(missing)} of {len(keys) + len(missing)} entries with code"
              + (f" ({', '.join(missing[:12])}{', ...' if len(missing) > 12 else ''})" if missing else ""))
    if ext_counts:
        print(f"- programs that build an extension: {sum(ext_counts.values())}; it compiled for "
              f"{ext_counts['compiled']}, for {ext_counts['fell back']} it did not compile and the program "
              f"caught the error and ran its PyTorch fallback")
    if runtime_flagged:
        print("- runtime hack flags (entries): " +
              ", ".join(f"{k} {n}" for k, n in runtime_flagged.most_common()))
    print("- failures by kind: " + (", ".join(f"{k} {n}" for k, n in failures.most_common()) or "none"))
    if cvs_long:
        over = sum(1 for c in cvs_long if c > 0.03)
        print(f"- trial CV of the candidate, entries whose both models take > 1 ms: median "
              f"{100 * statistics.median(cvs_long):.2f} %, {over} of {len(cvs_long)} above 3 %")
    if slow_trials:
        hit = [(k, n, slow) for k, n, slow in slow_trials if slow]
        print(f"- candidate trials > 2x their median, entries > 1 ms: {sum(len(s) for _, _, s in hit)} trials in "
              f"{len(hit)} of {len(slow_trials)} entries" +
              ("" if not hit else " (" + "; ".join(
                  f"{k[0]}: trial {', '.join(str(i) for i, _ in slow[:6])} of {n}"
                  for k, n, slow in hit[:8]) + ")"))
    if spreads:
        print(f"- repeat run (warm batch against cold): median |ln(warm / cold)| {statistics.median(spreads):.3f} "
              f"over {len(spreads)} entries" +
              (f"; repeat-run CV of the speedup, entries > 1 ms: median {100 * statistics.median(spreads_long):.2f} %, "
               f"{sum(1 for s in spreads_long if s > 0.03)} of {len(spreads_long)} above 3 %" if spreads_long else ""))
    if spreads_by_kind:
        parts = []
        for kind, label in (("gpu-bound", "GPU-bound (both models' GPU busy >= 90 %)"),
                            ("partly host-bound", "partly host-bound (a model's 50-90 %)"),
                            ("host-bound", "host-bound (a model's < 50 %)"),
                            ("autotuned", "autotuned (cudnn.benchmark turned on)"), (None, "not profiled")):
            v = spreads_by_kind.get(kind)
            if v:
                parts.append(f"{label}: median {100 * statistics.median(v):.2f} %, "
                             f"{sum(1 for x in v if x > 0.03)} of {len(v)} above 3 %")
        print("- repeat-run CV by kind of timing, entries > 1 ms (GPU busy from " +
              ("timing kernel_ms" if exact_busy else "the kernels' summed total_us") + "): " + "; ".join(parts))
    if inside[1]:
        print(f"- warm speedup inside the cold run's 95 % interval: {inside[0]} of {inside[1]} entries")
    walls = []
    if a.build_wall is not None:
        walls.append(f"build stage {a.build_wall:.0f} s")
    if a.cold_wall is not None:
        walls.append(f"cold batch {a.cold_wall:.0f} s ({a.cold_wall / 60:.1f} min)")
    if a.warm_wall is not None:
        walls.append(f"warm batch {a.warm_wall:.0f} s ({a.warm_wall / 60:.1f} min)")
    if walls:
        print("- wall time: " + ", ".join(walls))
    print("\n## Per entry\n")
    print("measured = median CUDA-event time of the reference / of the candidate (L2 flushed before each call); "
          "host = the same by the host clock after a device-wide synchronize; repeat = the warm batch's measured; "
          "ms = medians; CV = candidate trial CV; busy = each model's GPU busy share of its median call, "
          "reference/candidate, % (below 50: host-bound); extension = whether the program's load_inline extension "
          "compiled or the program fell back to PyTorch; build = seconds the build stage spent on it; "
          "runtime hack flags = families the runner's probes flagged with hack severity.\n")
    print("| task | correct | recorded | measured [95 % interval] | host | repeat | ref ms | cand ms | CV % | "
          "busy % | extension | build | runtime hack flags | note |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
