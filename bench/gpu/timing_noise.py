#!/usr/bin/env python3
"""Where does a re-time's spread come from? Evaluates the same CUDA-L1 entries through kscope-runner under
several conditions and prints, per entry and condition, each model's median, trial CV and the speedup, with
the machine's CPU steal and load over the pass (bench/gpu/timing-noise.sh runs it on the GPU machine).

Conditions (in the order given on the command line):
  quiet    one runner, nothing else running (run it twice to see the repeat spread of a quiet machine)
  more     the quiet runner with 200 trials per model instead of 50 (how much of the spread is sampling?)
  burn     the quiet runner while 16 busy-looping processes take the CPUs (how CPU-bound is the timing?)
  share    the quiet runner with a gpu_share lock while 3 other runners check other entries under the same
           lock, as `kscope batch --timing-jobs 4` does (does the batch's company add spread?)
  pin-none, pin-thread, pin-process
           the quiet runner with options.cpu_pin set so (the others take the runner's default: "process" on
           cuda); interleave them, e.g. pin-none pin-process pin-thread, three times, to see which pin keeps
           the repeat spread of host-bound timings smallest

  timing_noise.py RUNNER DATASET CACHE OUTDIR SECONDS CONDITION...
"""
import json
import os
import statistics
import subprocess
import sys
import threading
import time

ENTRIES = os.environ.get("NOISE_ENTRIES", "1/77 1/70 3/11 3/15 3/30 3/31 3/39 3/48").split()
COMPANY = os.environ.get("NOISE_COMPANY", "1/1 1/2 1/3 1/4 2/1 2/2 2/3 2/4 1/5 1/6 2/5 2/6").split()
LOCK = "/tmp/kscope-noise.lock"
DEVICE = os.environ.get("NOISE_DEVICE", "cuda")  # cpu: a smoke test of this script on a machine without a GPU


class Runner:
    def __init__(self, exe, tag):
        self.tag = tag
        self.err = open(os.path.join(OUTDIR, f"runner-{tag}.err"), "a")
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                  text=True, bufsize=1)
        self.ready = json.loads(self.p.stdout.readline())
        self.n = 0

    def ask(self, req):
        self.n += 1
        req = dict(req, id=f"{self.tag}-{self.n}")
        self.p.stdin.write(json.dumps(req) + "\n")
        for line in self.p.stdout:
            e = json.loads(line)
            if e.get("id") == req["id"] and e.get("event") in ("result", "error"):
                return e
        raise RuntimeError(f"runner {self.tag} ended")

    def close(self):
        try:
            self.p.stdin.write(json.dumps({"id": "bye", "op": "shutdown"}) + "\n")
            self.p.stdin.flush()
            self.p.wait(timeout=20)
        except Exception:
            self.p.kill()


def cpu_times():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v), v[7] if len(v) > 7 else 0, v[3]  # total, steal, idle


def evaluate(runner, key, share=False, trials=None, pin=None):
    r = ROWS[key]
    opts = {"device": DEVICE, "cache": CACHE}
    if pin:
        opts["cpu_pin"] = pin
    if trials:
        opts["trials"] = trials
    if share:
        opts["gpu_share"] = LOCK
    return runner.ask({"op": "evaluate", "task": {"key": "L" + key, "reference": r["ref_code"]},
                       "candidate": {"id": "cuda-l1", "code": r["custom_code"]}, "options": opts})


def summary(e):
    if e.get("event") != "result":
        return {"error": e.get("error", {}).get("message", "")[:200]}
    res = e["result"]
    t = res.get("timing")
    if not t:
        return {"not_timed": res.get("correctness", {}).get("passed")}
    out = {"speedup": t["speedup"], "trials": t["trials"], "speedup_ci95": t.get("speedup_ci95")}
    for m in ("reference", "candidate"):
        s = t[m]
        out[m] = {k: s.get(k) for k in ("median_ms", "min_ms", "max_ms", "cv", "kernel_ms", "trials_ms")}
    out["gpu_share"] = res.get("gpu_share")
    out["pinned"] = f"{t['cpu_pin']} on cpu {t['pinned_cpu']}" if "pinned_cpu" in t else "not pinned"
    return out


def company(exe, stop, log):
    """Three runners checking other entries under the lock until `stop` is set."""
    def loop(i):
        r = Runner(exe, f"company{i}")
        r.ask({"op": "warm_up", "options": {"device": DEVICE, "gpu_share": LOCK}})
        k = i
        while not stop.is_set():
            key = COMPANY[k % len(COMPANY)]
            k += 3
            if ROWS.get(key, {}).get("custom_code"):
                e = evaluate(r, key, share=True)
                log.append((i, key, e.get("event")))
        r.close()
    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(3)]
    for t in threads:
        t.start()
    return threads


def main():
    global ROWS, CACHE, OUTDIR
    exe, data, CACHE, OUTDIR, seconds, *conditions = sys.argv[1:]
    deadline = time.monotonic() + float(seconds)
    ROWS = {f"{r['level_id']}/{r['task_id']}": r for r in map(json.loads, open(data))}
    results = []
    quiet = None
    for n, cond in enumerate(conditions):
        if time.monotonic() > deadline - 60:
            print(f"no time left for {cond}", flush=True)
            break
        burners, stop, threads, log = [], threading.Event(), [], []
        if quiet is None:
            quiet = Runner(exe, "quiet")
            quiet.ask({"op": "warm_up", "options": {"device": DEVICE}})
        runner = quiet
        if cond == "burn":
            burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(16)]
            time.sleep(1)
        if cond == "share":
            threads = company(exe, stop, log)
            time.sleep(8)  # the company up and checking
        c0, t0 = cpu_times(), time.monotonic()
        load0 = os.getloadavg()[0]
        for key in ENTRIES:
            if time.monotonic() > deadline - 20:
                break
            if not ROWS.get(key, {}).get("custom_code"):
                continue
            ts = time.monotonic()
            e = evaluate(runner, key, share=cond == "share", trials=200 if cond == "more" else None,
                         pin=cond[4:] if cond.startswith("pin-") else None)
            row = {"condition": f"{n}:{cond}", "task": "L" + key, "seconds": time.monotonic() - ts}
            row.update(summary(e))
            results.append(row)
            sp = row.get("speedup")
            ci = row.get("speedup_ci95")
            busy = lambda m: (f" busy {100 * row[m]['kernel_ms'] / row[m]['median_ms']:.0f}%"
                              if row[m].get("kernel_ms") is not None else "")
            print(f"{row['condition']:<9} {row['task']:<6} {row['seconds']:5.1f} s  speedup "
                  f"{sp if sp is None else round(sp, 4)}"
                  + (f" [{ci[0]:.4f}-{ci[1]:.4f}]" if ci else "") + "  "
                  + "  ".join(f"{m[:4]} {row[m]['median_ms']:.3f} ms cv {row[m]['cv'] * 100:.1f}%{busy(m)}"
                              for m in ("reference", "candidate") if m in row)
                  + (f"  error: {row['error'][:100]}" if "error" in row else ""), flush=True)
        c1 = cpu_times()
        dt = c1[0] - c0[0] or 1
        print(f"== {n}:{cond}: {time.monotonic() - t0:.0f} s, steal {100 * (c1[1] - c0[1]) / dt:.2f} %, "
              f"idle {100 * (c1[2] - c0[2]) / dt:.1f} %, load {load0:.1f} -> {os.getloadavg()[0]:.1f}, "
              f"company checks {len(log)}, {results[-1].get('pinned', '-') if results else '-'}", flush=True)
        stop.set()
        for b in burners:
            b.kill()
        for t in threads:
            t.join(timeout=60)
    if quiet:
        quiet.close()
    with open(os.path.join(OUTDIR, "noise.json"), "w") as f:
        json.dump(results, f)
    # per entry: the speedup under each condition
    by = {}
    for r in results:
        by.setdefault(r["task"], {})[r["condition"]] = r.get("speedup")
    conds = sorted({r["condition"] for r in results}, key=lambda c: int(c.split(":")[0]))
    print("\nspeedup by condition\n" + f"{'task':<7}" + "".join(f"{c:>11}" for c in conds))
    for task, v in by.items():
        print(f"{task:<7}" + "".join(f"{v[c]:>11.4f}" if v.get(c) else f"{'-':>11}" for c in conds))
    # per entry and kind of condition run more than once: the repeat spread (max/min - 1) of its speedups
    kinds = sorted({c.split(":", 1)[1] for c in conds})
    repeated = [k for k in kinds if sum(c.endswith(":" + k) for c in conds) > 1]
    if repeated:
        print("\nrepeat spread of the speedup (max / min - 1) by condition\n" + f"{'task':<7}"
              + "".join(f"{k:>13}" for k in repeated))
        for task, v in by.items():
            cells = []
            for k in repeated:
                xs = [v[c] for c in conds if c.endswith(":" + k) and v.get(c)]
                cells.append(f"{100 * (max(xs) / min(xs) - 1):>12.1f}%" if len(xs) > 1 else f"{'-':>13}")
            print(f"{task:<7}" + "".join(cells))


if __name__ == "__main__":
    main()
