#!/usr/bin/env python3
"""Does a neighbour's work move a number? (bench/gpu/multi-gpu-batch.sh, `neighbour` stage)

    python3 bench/multi_gpu_neighbour.py --runner BIN/kscope-runner --kscope BIN/kscope \
        --requests neighbour.jsonl --load subset.jsonl --state DIR --out neighbour.jsonl [--passes 5]

One kscope-runner with CUDA_VISIBLE_DEVICES=0 evaluates the request of neighbour.jsonl once to warm up, then
PASSES times with GPU 1 idle ("alone"), then PASSES times while `kscope batch LOAD --gpus 1` times other
entries on GPU 1 ("busy"): the same candidate, the same seeds, so the same inputs, both ways. Each pass is
one line of --out: phase, pass, the load batch's state (running?, lines it had written), and the result's
timing (medians, speedup, trial CV) or the error. Standard library only.

With --load-kind gemm the neighbour is heavy instead: a process on GPU 1 multiplies two 8192x8192 bf16
matrices back to back (the GPU at full power, as a training job keeps it). It is started once and paused
(SIGSTOP) and resumed (SIGCONT) between passes, so the passes alternate alone, busy, alone, busy, ... and a
drift of the machine over the minutes (clocks, temperature) falls on both phases alike. Each busy pass
records how many multiplications the neighbour finished during it.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

# The heavy neighbour: bf16 GEMMs on the one GPU it sees, 20 per synchronize (so a SIGSTOP drains its queue in
# tens of milliseconds), its count of finished GEMMs rewritten to COUNT_FILE after each group.
GEMM_LOAD = r"""
import sys, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
done = 0
while True:
    for _ in range(20):
        c = a @ b
    torch.cuda.synchronize()
    done += 20
    with open(sys.argv[1], "w") as f:
        f.write(str(done))
"""


def read_count(path):
    try:
        with open(path) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


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
    ap.add_argument("--load-kind", choices=("batch", "gemm"), default="batch",
                    help="batch: `kscope batch --load` on GPU 1 (default); gemm: back-to-back bf16 GEMMs on GPU 1")
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

    if a.load_kind == "gemm":
        return gemm_neighbour(a, runner, out, one)
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


def gemm_neighbour(a, runner, out, one):
    """Alone and busy passes alternate; the GEMM process is paused (SIGSTOP) for the alone ones."""
    count_file = os.path.join(a.state, "gemm.count")
    load = subprocess.Popen([sys.executable, "-c", GEMM_LOAD, count_file],
                            env=dict(os.environ, CUDA_VISIBLE_DEVICES="1"))
    try:
        t0 = time.monotonic()
        while read_count(count_file) < 200 and load.poll() is None and time.monotonic() - t0 < 120:
            time.sleep(0.2)
        print(f"GEMM neighbour on GPU 1: {read_count(count_file)} GEMMs after {time.monotonic() - t0:.1f} s",
              flush=True)
        load.send_signal(signal.SIGSTOP)
        time.sleep(1)
        one("warm-up", 0)
        for n in range(1, a.passes + 1):
            one("alone", n)
            load.send_signal(signal.SIGCONT)
            time.sleep(2)  # the neighbour back at full power before the pass starts
            before, t1 = read_count(count_file), time.monotonic()
            one("busy", n)
            done, seconds = read_count(count_file) - before, time.monotonic() - t1
            load.send_signal(signal.SIGSTOP)
            tflops = done * 2 * 8192 ** 3 / seconds / 1e12 if seconds > 0 else 0
            print(f"  neighbour during busy {n}: {done} GEMMs in {seconds:.1f} s, {tflops:.0f} TFLOP/s", flush=True)
            out.write(json.dumps({"phase": "neighbour", "pass": n, "gemms": done, "seconds": round(seconds, 2),
                                  "tflops": round(tflops)}) + "\n")
            out.flush()
            time.sleep(1)
    finally:
        load.send_signal(signal.SIGCONT)
        load.kill()
        load.wait()
        runner.close()
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
