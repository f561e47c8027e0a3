#!/usr/bin/env python3
"""Method fidelity, CUDA-L1: its own eval_cuda.py (eval_pipeline) beside KernelScope's cuda-l1-eval, on one GPU.

  prepare RELEASE_JSONL HARNESS OUT [--tasks L1/1,...]   (here) the chosen tasks' lines of the release and
                                                         CUDA-L1's eval_cuda.py, under OUT
  harness OUT TASK LOG                                   (device) CUDA-L1's eval_pipeline on TASK as its
                                                         authors call it (setup vanilla, 10 correctness trials,
                                                         7 global trials of 10); its log in LOG
  plain OUT TASK LOG                                     (device) KernelScope's cuda-l1-eval loop in a plain
                                                         Python process, without the runner (cmd_plain)
  report OUT STATE [--gpu NAME]                          (anywhere) the table of docs/method-fidelity.md

STATE holds per repeat r and task t (L1/1 written L1_1): seed/r/t.log (eval_pipeline's JSON-lines log) and
ours/r/t.json (`kscope run --json --cuda-l1-eval` of the same task). The report prints per task: the release's
recorded score, the harness's score and KernelScope's cuda-l1-eval (median over repeats, with their range),
their ratio (median of the per-repeat ratios), the within-run spread of each, KernelScope's own speedup and
CUDA-L1's protocol with the L2 flushed; both verdicts; then how many tasks agree within 5 %.
"""
import argparse
import json
import os
import shutil
import statistics
import sys

DEFAULT_TASKS = ("L1/1,L1/6,L1/14,L1/17,L1/40,L1/59,L1/70,L2/41,L2/49,L2/77,L2/83,L2/96,L3/31,L3/35,L3/44")
TOLERANCE = 0.05


def key(level, task):
    return f"L{level}/{task}"


def cmd_prepare(a):
    wanted = [t for t in a.tasks.split(",") if t]
    os.makedirs(os.path.join(a.out, "harness"), exist_ok=True)
    shutil.copyfile(os.path.join(a.harness, "eval_cuda.py"), os.path.join(a.out, "harness", "eval_cuda.py"))
    found = {}
    with open(a.release) as f:
        for line in f:
            d = json.loads(line)
            k = key(d["level_id"], d["task_id"])
            if k in wanted:
                found[k] = line if line.endswith("\n") else line + "\n"
    missing = [t for t in wanted if t not in found]
    if missing:
        raise SystemExit(f"{a.release}: no line for {', '.join(missing)}")
    with open(os.path.join(a.out, "tasks.jsonl"), "w") as out:
        for t in wanted:
            out.write(found[t])
    with open(os.path.join(a.out, "tasks.txt"), "w") as out:
        out.write("\n".join(wanted) + "\n")
    print(f"{len(wanted)} tasks and eval_cuda.py in {a.out}")


def cmd_harness(a):
    sys.path.insert(0, os.path.join(a.out, "harness"))
    import eval_cuda  # CUDA-L1's own, unchanged

    with open(os.path.join(a.out, "tasks.jsonl")) as f:
        rows = {key(d["level_id"], d["task_id"]): d for d in map(json.loads, f)}
    d = rows[a.task]
    # As its eval() calls it: the reference is the warm-up and the original model, setup "vanilla".
    eval_cuda.eval_pipeline(warmup_src=d["ref_code"], original_model_src=d["ref_code"],
                            custom_model_src=d["custom_code"], num_correct_trials=10, num_perf_trials=10,
                            global_n_trials=7, gpu_index=0, verbose=False, log_path=a.log, max_time=1800,
                            original_eval_setup="vanilla")


def install_allow_all_filter(spec_allow):
    """A seccomp filter that allows every system call, installed as the runner installs its network filter
    (core/sandbox/network_filter.cpp: no_new_privs, every thread): what a filter costs the process by itself.
    Without SECCOMP_FILTER_FLAG_SPEC_ALLOW a kernel whose speculation mitigations are in "seccomp" mode also
    turns on Speculative Store Bypass Disable (and STIBP) for the process."""
    import ctypes

    class SockFilter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]

    libc = ctypes.CDLL(None, use_errno=True)
    allow = (SockFilter * 1)(SockFilter(0x06, 0, 0, 0x7FFF0000))  # BPF_RET | BPF_K, SECCOMP_RET_ALLOW
    prog = SockFprog(1, allow)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
    flags = 1 | (4 if spec_allow else 0)  # SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_SPEC_ALLOW
    if libc.syscall(317, 1, flags, ctypes.byref(prog)) != 0:  # SYS_seccomp, SECCOMP_SET_MODE_FILTER
        raise OSError(ctypes.get_errno(), "seccomp")


def speculation_status():
    """The kernel's speculation mitigations for this process (/proc/self/status)."""
    with open("/proc/self/status") as f:
        return {k.strip(): v.strip() for k, v in (l.split(":", 1) for l in f) if k.startswith(("Speculation", "Seccomp"))}


def profile_once(model, model_new, get_init_inputs, get_inputs):
    """One candidate and one reference call under torch.profiler over CUDA activity, as KernelScope's kernel
    profile makes them (core/engine/kernel_profile.cpp), before the seed's method runs."""
    import tempfile
    import torch
    config = torch._C._profiler._ExperimentalConfig(enable_cuda_sync_events=True)
    for cls in (model, model_new):
        m = cls(*get_init_inputs()).cuda()
        x = [t.cuda() if isinstance(t, torch.Tensor) else t for t in get_inputs()]
        m(*x)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA],
                                    experimental_config=config) as session:
            m(*x)
            torch.cuda.synchronize()
        session.export_chrome_trace(os.path.join(tempfile.gettempdir(), "kscope-plain-trace.json"))


def cmd_plain(a):
    """KernelScope's cuda-l1-eval loop (the Python of core/engine/cuda_l1_method.cpp, read from the source)
    in a plain Python process on models loaded as CUDA-L1's harness loads them: separates what the loop does
    from what the runner's process adds (its earlier measurement, containment, probes)."""
    import re
    if a.teardown_cupti:
        os.environ["TEARDOWN_CUPTI"] = "1"  # before torch loads: Kineto then finalizes CUPTI after a profile
    if a.seccomp != "none":
        install_allow_all_filter(a.seccomp == "spec-allow")
    import torch
    engine = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "engine")
    src = open(os.path.join(engine, "cuda_l1_method.cpp")).read()
    method = re.search(r'R"PY\((.*?)\)PY"', src, re.S).group(1)
    scope = {"__name__": "kscope_cuda_l1_method"}
    exec(method, scope)
    with open(os.path.join(a.out, "tasks.jsonl")) as f:
        rows = {key(d["level_id"], d["task_id"]): d for d in map(json.loads, f)}
    d = rows[a.task]
    ref, cand = {}, {}
    exec(d["ref_code"], ref)
    exec(d["custom_code"], cand)
    score = lambda rt, ct: (sum(rt) / len(rt)) / (sum(ct) / len(ct))
    if "audit-hook" in a.before:
        hook = re.search(r'R"PY\((.*?)\)PY"', open(os.path.join(engine, "write_watch.cpp")).read(), re.S).group(1)
        exec(hook, {"__name__": "kscope_write_watch"})  # installed, inactive: as the runner leaves it
    if a.teardown_cupti_late:
        os.environ["TEARDOWN_CUPTI"] = "1"  # torch loaded already: does Kineto read it at the profile's end?
    if "profiler" in a.before:
        profile_once(ref["Model"], cand["ModelNew"], ref["get_init_inputs"], ref["get_inputs"])
    check = scope["check"](ref["Model"], cand["ModelNew"], ref["get_init_inputs"], ref["get_inputs"], "cuda:0", 10,
                           42, 1e-2, 1e-2)
    out = {"task": a.task, "check": check, "label": a.label or a.seccomp, "seccomp": a.seccomp, "before": a.before, "speculation": speculation_status()}
    if check["ok"]:
        trials, stopped = scope["timing"](ref["Model"], cand["ModelNew"], ref["get_init_inputs"], ref["get_inputs"],
                                          "cuda:0", "cuda.Stream" in d["custom_code"], 7, 10, 3, 42, 42, 0.3, score,
                                          None, None)
        out["scores"] = [score(rt, ct) for rt, ct in trials]
        out["reference_ms"] = [sum(rt) / len(rt) for rt, _ in trials]
        out["candidate_ms"] = [sum(ct) / len(ct) for _, ct in trials]
        out["speedup"] = statistics.mean(out["scores"])
    torch.cuda.synchronize()
    with open(a.log, "w") as f:
        json.dump(out, f)
    print(json.dumps({k: v for k, v in out.items() if k != "check"}))


def harness_outcome(path):
    """(score, std, verdict) from eval_pipeline's log: its last line has the score or the error."""
    try:
        with open(path) as f:
            lines = [json.loads(l) for l in f if l.strip().startswith("{")]
    except (OSError, ValueError):
        return None, None, "no log"
    if not lines:
        return None, None, "no log"
    last = lines[-1]
    if last.get("done") and not last.get("error") and last.get("score") is not None:
        return float(last["score"]), last.get("std"), "correct"
    return None, None, last.get("error_msg") or last.get("info") or "did not finish"


def harness_times(path):
    """(reference ms, candidate ms), means over the global trials, from eval_pipeline's per-trial lines: each
    gives the score (mean reference / mean candidate) and ave_gpu_execution_time (their sum, in seconds)."""
    refs, cands = [], []
    try:
        with open(path) as f:
            lines = [json.loads(l) for l in f if l.strip().startswith("{")]
    except (OSError, ValueError):
        return None, None
    for l in lines:
        if "trial" in l and l.get("score") and l.get("ave_gpu_execution_time"):
            both, score = 1000.0 * l["ave_gpu_execution_time"], l["score"]
            refs.append(both * score / (1 + score))
            cands.append(both / (1 + score))
    return (statistics.mean(refs), statistics.mean(cands)) if refs else (None, None)


def ours_outcome(path):
    """(l1 score, l1 spread, own speedup, flushed, own verdict, l1 verdict) from `kscope run --json`."""
    try:
        with open(path) as f:
            j = json.load(f)
    except (OSError, ValueError):
        return None
    event = j.get("event") or {}
    if event.get("event") != "result":
        return {"own_verdict": (event.get("error") or {}).get("kind", "error")}
    r = event.get("result") or {}
    l1 = r.get("cuda_l1_eval") or {}
    check = l1.get("check") or {}
    timing = r.get("timing") or {}
    return {
        "l1": l1.get("speedup") or None,
        "l1_spread": l1.get("spread"),
        "flushed": l1.get("flushed_speedup") or None,
        "reference_ms": statistics.mean(l1["reference_ms"]) if l1.get("reference_ms") else None,
        "candidate_ms": statistics.mean(l1["candidate_ms"]) if l1.get("candidate_ms") else None,
        "own": timing.get("speedup"),
        "own_verdict": "correct" if (r.get("correctness") or {}).get("passed") else "incorrect",
        "l1_verdict": ("correct" if check.get("ok") else (check.get("message") or l1.get("note") or "not run")),
        "flags": [f.get("family") for f in r.get("runtime_flags") or [] if f.get("severity") == "hack"],
    }


def spread_text(values):
    values = [v for v in values if v]
    if not values:
        return "—"
    m = statistics.median(values)
    if len(values) == 1:
        return f"{m:.2f}"
    return f"{m:.2f} [{min(values):.2f}–{max(values):.2f}]"


def cmd_report(a):
    with open(os.path.join(a.out, "tasks.jsonl")) as f:
        recorded = {key(d["level_id"], d["task_id"]): d.get("score_default") for d in map(json.loads, f)}
    tasks = [t for t in open(os.path.join(a.out, "tasks.txt")).read().split() if t]
    repeats = sorted(os.listdir(os.path.join(a.state, "seed"))) if os.path.isdir(os.path.join(a.state, "seed")) else []
    print(f"# CUDA-L1's eval_pipeline beside KernelScope's cuda-l1-eval{' on ' + a.gpu if a.gpu else ''}\n")
    kinds = []
    for r in repeats:
        try:
            kinds.append(open(os.path.join(a.state, "ours", r, "RUNNER")).read().strip())
        except OSError:
            kinds.append("warm")
    print(f"KernelScope's runner per repeat: {', '.join(f'{r} {k}' for r, k in zip(repeats, kinds))} "
          "(warm: `kscope serve`'s, which served the earlier tasks; cold: one per task).\n")
    print(f"{len(repeats)} repeat(s); medians over repeats [range]; ratio = median of per-repeat ratios "
          "KernelScope-as-CUDA-L1 / harness; ± = each method's own 95 % half-width over its 7 global trials.\n")
    print("| task | recorded (H100) | CUDA-L1 harness | KernelScope as CUDA-L1 | ratio | same, L2 flushed | "
          "KernelScope's own | verdicts (harness / as CUDA-L1 / own) |")
    print("|---|---|---|---|---|---|---|---|")
    agree = compared = 0
    noisy = []
    split = {}  # task: [(harness reference ms, ours, harness candidate ms, ours)] per repeat with both
    for t in tasks:
        name = t.replace("/", "_")
        seeds, ours, ratios, seed_sd, our_spread = [], [], [], [], []
        verdicts = set()
        flushed, own, flags = [], [], set()
        for r in repeats:
            s, sd, sv = harness_outcome(os.path.join(a.state, "seed", r, name + ".log"))
            o = ours_outcome(os.path.join(a.state, "ours", r, name + ".json")) or {}
            if sv != "no log" or o:  # a repeat that reached this task
                verdicts.add(f"{sv} / {o.get('l1_verdict', '—')} / {o.get('own_verdict', '—')}")
            hr, hc = harness_times(os.path.join(a.state, "seed", r, name + ".log"))
            if hr and hc and o.get("reference_ms") and o.get("candidate_ms"):
                split.setdefault(t, []).append((hr, o["reference_ms"], hc, o["candidate_ms"]))
            flags.update(o.get("flags") or [])
            if s:
                seeds.append(s)
                if sd is not None:
                    seed_sd.append(1.96 * sd / (7 ** 0.5) / s)
            if o.get("l1"):
                ours.append(o["l1"])
                if o.get("l1_spread"):
                    our_spread.append(o["l1_spread"])
            if s and o.get("l1"):
                ratios.append(o["l1"] / s)
            if o.get("flushed"):
                flushed.append(o["flushed"])
            if o.get("own"):
                own.append(o["own"])
        ratio = statistics.median(ratios) if ratios else None
        noise = max([TOLERANCE] + seed_sd + our_spread)
        if ratio is not None:
            compared += 1
            if abs(ratio - 1) <= TOLERANCE:
                agree += 1
            elif noise > TOLERANCE:
                noisy.append(f"{t} ({noise * 100:.0f} %)")
        rec = recorded.get(t)
        pm = lambda xs: f" ±{statistics.median(xs) * 100:.0f} %" if xs else ""
        print(f"| {t} | {rec:.2f} | {spread_text(seeds)}{pm(seed_sd)} | {spread_text(ours)}{pm(our_spread)} | "
              f"{'—' if ratio is None else f'{ratio:.3f}'} | {spread_text(flushed)} | {spread_text(own)} | "
              f"{'; '.join(sorted(verdicts))}{' · hack flag: ' + ', '.join(sorted(flags)) if flags else ''} |"
              if rec else f"| {t} | — | {spread_text(seeds)} | {spread_text(ours)} | — | — | — | — |")
    print(f"\n{agree} of {compared} tasks within ±{TOLERANCE * 100:.0f} % (median of per-repeat ratios).")
    if noisy:
        print("Outside ±5 % where a method's own spread is larger than 5 %: " + ", ".join(noisy) + ".")
    if split:
        print("\nWhere a ratio comes from: each model's mean time a call (ms, median over repeats with both), "
              "KernelScope-as-CUDA-L1 against the harness.\n")
        print("| task | reference: harness | as CUDA-L1 | ours / harness | candidate: harness | as CUDA-L1 | "
              "ours / harness |")
        print("|---|---|---|---|---|---|---|")
        for t in tasks:
            if t not in split:
                continue
            med = lambda i: statistics.median(x[i] for x in split[t])
            rel = lambda i, j: statistics.median(x[j] / x[i] for x in split[t])
            print(f"| {t} | {med(0):.3f} | {med(1):.3f} | {rel(0, 1):.3f} | {med(2):.3f} | {med(3):.3f} | "
                  f"{rel(2, 3):.3f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("prepare")
    s.add_argument("release")
    s.add_argument("harness")
    s.add_argument("out")
    s.add_argument("--tasks", default=DEFAULT_TASKS)
    s.set_defaults(func=cmd_prepare)
    s = sub.add_parser("harness")
    s.add_argument("out")
    s.add_argument("task")
    s.add_argument("log")
    s.set_defaults(func=cmd_harness)
    s = sub.add_parser("plain")
    s.add_argument("out")
    s.add_argument("task")
    s.add_argument("log")
    s.add_argument("--seccomp", choices=("none", "default", "spec-allow"), default="none",
                   help="install an allow-all seccomp filter first (default flags or SPEC_ALLOW)")
    s.add_argument("--teardown-cupti", action="store_true", help="TEARDOWN_CUPTI=1 before torch loads")
    s.add_argument("--teardown-cupti-late", action="store_true", help="TEARDOWN_CUPTI=1 after torch loads")
    s.add_argument("--label", default="", help="the variant's name in the result")
    s.add_argument("--before", default="",
                   help="comma list of what runs first: profiler (a kernel profile), audit-hook (the write watch)")
    s.set_defaults(func=cmd_plain)
    s = sub.add_parser("report")
    s.add_argument("out")
    s.add_argument("state")
    s.add_argument("--gpu", default="")
    s.set_defaults(func=cmd_report)
    a = p.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
