#!/usr/bin/env python3
"""Does a neighbour's work move a number? (issue 20, bench/gpu/multi-gpu-batch.sh `neighbour` stage)

    python3 bench/multi_gpu_neighbour.py --runner BIN/kscope-runner --kscope BIN/kscope \
        --requests neighbour.jsonl --load subset.jsonl --state DIR --out neighbour.jsonl [--passes 5]

One kscope-runner with CUDA_VISIBLE_DEVICES=0 evaluates the request of neighbour.jsonl once to warm up, then
PASSES times with GPU 1 idle ("alone"), then PASSES times while `kscope batch LOAD --gpus 1` times other
entries on GPU 1 ("busy"): the same candidate, the same seeds, so the same inputs, both ways. Each pass is
one line of --out: phase, pass, the load batch's state (running?, lines it had written), and the result's
timing (medians, speedup, trial CV) or the error. Standard library only.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time


def lines_in(path):
    try:
        with open(path) as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return 0


class Runner:
    def __init__(self, binary, env):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1, env=env)
        self.ready = json.loads(self.p.stdout.readline())

    def evaluate(self, request):
        self.p.stdin.write(json.dumps(request) + "\n")
        for line in self.p.stdout:
            event = json.loads(line)
            if event.get("id") == request["id"] and event.get("event") in ("result", "error"):
                return event
        raise RuntimeError("kscope-runner ended before answering " + request["id"])

    def close(self):
        try:
            self.p.stdin.write(json.dumps({"id": "bye", "op": "shutdown"}) + "\n")
            self.p.stdin.flush()
            self.p.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def summarize(event):
    if event.get("event") != "result":
        return {"error": event.get("error", {}).get("message", "")[:200]}
    result = event["result"]
    timing = result.get("timing") or {}
    out = {"passed": result.get("correctness", {}).get("passed")}
    for model in ("reference", "candidate"):
        t = timing.get(model) or {}
        out[model] = {k: t.get(k) for k in ("median_ms", "cv", "min_ms", "max_ms")}
    out["speedup"] = timing.get("speedup")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kscope", required=True)
    ap.add_argument("--requests", required=True)
    ap.add_argument("--load", required=True)
    ap.add_argument("--state", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--passes", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.state, exist_ok=True)
    with open(a.requests) as f:
        base = json.loads(f.readline())
    base.setdefault("options", {}).update(
        {"device": a.device, "cache": os.path.join(a.state, "cache"), "scratch": os.path.join(a.state, "scratch")})
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="0", KSCOPE_WRITABLE=os.path.abspath(a.state))
    runner = Runner(a.runner, env)
    out = open(a.out, "w")
    load, load_out = None, os.path.join(a.state, "load.jsonl")

    def one(phase, n):
        request = dict(base, id=f"{phase}-{n}")
        t0 = time.monotonic()
        event = runner.evaluate(request)
        row = {"phase": phase, "pass": n, "seconds": round(time.monotonic() - t0, 2), **summarize(event)}
        if load is not None:
            row["load"] = {"running": load.poll() is None, "lines": lines_in(load_out)}
        out.write(json.dumps(row) + "\n")
        out.flush()
        ref, cand = row.get("reference", {}), row.get("candidate", {})
        print(f"{phase} {n}: speedup {row.get('speedup')}, candidate {cand.get('median_ms')} ms, reference "
              f"{ref.get('median_ms')} ms, {row['seconds']} s{'; load ' + json.dumps(row['load']) if 'load' in row else ''}"
              f"{'; error ' + row['error'] if 'error' in row else ''}", flush=True)

    try:
        one("warm-up", 0)
        for n in range(1, a.passes + 1):
            one("alone", n)
        load = subprocess.Popen([a.kscope, "batch", a.load, "--device", a.device, "--gpus", "1", "--out", load_out,
                                 "--no-store"], stderr=open(os.path.join(a.state, "load.log"), "w"),
                                env=dict(os.environ, KSCOPE_WRITABLE=os.path.abspath(a.state)))
        t0 = time.monotonic()
        while lines_in(load_out) < 1 and load.poll() is None and time.monotonic() - t0 < 60:
            time.sleep(0.2)  # until GPU 1's runner is up and timing (its first entry done)
        print(f"load on GPU 1: first entry after {time.monotonic() - t0:.1f} s", flush=True)
        for n in range(1, a.passes + 1):
            one("busy", n)
    finally:
        if load is not None and load.poll() is None:
            load.send_signal(signal.SIGINT)
            try:
                load.wait(timeout=30)
            except subprocess.TimeoutExpired:
                load.kill()
        runner.close()
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
