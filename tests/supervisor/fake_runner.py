#!/usr/bin/env python3
"""A stand-in for kscope-runner that speaks protocol 1 and misbehaves on request, for the supervisor tests.

What it does for an `evaluate` request is chosen by the request's candidate.code:
  ok               phase load, progress, result (an incorrect evaluation, with this process's pid, cwd and
                   the request's scratch folder)
  garbage          non-JSON lines and an event of another request on stdout, then ok
  incomplete       an `ok` result whose payload is half an evaluation (a forged line)
  two-results      the evaluated result, then a second one
  absurd-timing    a timing phase of ~2.5 s whose result claims 100 trials of 0.01 ms
  stray            ok, then a line on stdout after the answer (between requests)
  flood            20 MB of numbered lines on stderr, then ok
  silent           nothing at all (the supervisor's answer deadline applies)
  hang-in-timing   phase load, then phase timing with a 0.5 s deadline, then sleeps
  hang-with-child  like hang-in-timing, after starting a child that keeps stdout open and sleeps
  sleep            phase timing with a 60 s deadline, then sleeps (for cancel)
  forged-deadline  phase correctness with a 1 000 000 s deadline, sleeps 20 s, then ok's result
  reannounce       phase correctness with a 5 s deadline, again every 0.2 s for 20 s, then ok's result
  segfault         phase correctness, a few stderr lines, then SIGSEGV
  exit3            phase load, a few stderr lines, then exit status 3
  memory           phase timing, then grows to ~600 MB in 20 MB steps and sleeps
  unusable         an error event with runner_exits, then exits 0
Any other program is "evaluated": the four phases and a result shaped like the real runner's (correct and
2.5x faster, or incorrect when FAKE_RUNNER_INCORRECT=1), so that clients can be tried end to end.
FAKE_RUNNER_START in the environment changes start-up: "hang" (never ready), "protocol2", "crash".
Other ops: `hello` answers a one-key environment, `warm_up` a result with no steps
({"device": "cpu", "seconds": 0.0, "steps": [], "pid": <this process's pid>}), `shutdown` {} and exits.
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def phase(rid, name, deadline):
    send({"id": rid, "event": "phase", "phase": name, "deadline_s": deadline})


ENVIRONMENT = {"runner": "fake-runner 1", "device": "cpu", "device_name": "Fake CPU", "torch": "0.0",
               "python": sys.version.split()[0]}


def evaluation(code, passed, trials=10, warmup=2, ref_ms=2.0, cand_ms=0.8):
    """A complete evaluation payload, as the real runner's (passed: timed, else not)."""
    seed = {"seed": 42, "passed": passed, "max_abs_err": 0.0 if passed else 0.5, "max_rel_err": 0.0,
            "atol": 1e-4, "rtol": 1e-4, "message": "" if passed else "max abs error 0.5 > atol 0.0001"}
    payload = {
        "code_hash": "sha256:" + hashlib.sha256(code.encode()).hexdigest(),
        "device": "cpu",
        "environment": ENVIRONMENT,
        "build": {"seconds": 0.1, "cache_hit": True, "flags": [], "extensions": []},
        "correctness": {"passed": passed, "seeds": [seed], "outputs": []},
        "kernels": [],
        "probes": {"timing": {"bandwidth_floor": {"applicable": False, "input_bytes": 32768, "output_bytes": 32768}}},
    }
    if passed:
        def stats(ms):
            return {"median_ms": ms, "min_ms": ms, "iqr_ms": 0.0, "cv": 0.0, "host_median_ms": ms + 0.1,
                    "host_min_ms": ms + 0.1, "clock_gap_ms": 0.1, "max_ms": ms, "trials_ms": [ms] * trials}
        payload["timing"] = {"clock": "wall", "trials": trials, "warmup": warmup, "order_seed": 42,
                             "reference": stats(ref_ms), "candidate": stats(cand_ms), "speedup": ref_ms / cand_ms,
                             "host_speedup": (ref_ms + 0.1) / (cand_ms + 0.1)}
    else:
        payload["timing_note"] = "not timed: the candidate is incorrect"
    return payload


def result(rid):
    payload = evaluation("ok", False)
    payload.update({"pid": os.getpid(), "cwd": os.getcwd(), "scratch": SCRATCH.get(rid, "")})
    send({"id": rid, "event": "result", "ok": False, "result": payload})


SCRATCH = {}


def evaluate(rid, behaviour):
    if behaviour == "ok":
        phase(rid, "load", 5)
        send({"id": rid, "event": "progress", "phase": "load", "done": 1, "total": 1})
        result(rid)
    elif behaviour == "garbage":
        print("this is not JSON", flush=True)
        print("{\"half\": ", flush=True)
        send({"id": "someone-else", "event": "result", "ok": True, "result": {}})
        result(rid)
    elif behaviour == "flood":
        for i in range(200000):
            sys.stderr.write("stderr line %06d %s\n" % (i, "x" * 80))
        sys.stderr.flush()
        result(rid)
    elif behaviour == "silent":
        time.sleep(60)
    elif behaviour in ("hang-in-timing", "hang-with-child"):
        phase(rid, "load", 5)
        if behaviour == "hang-with-child":
            child = subprocess.Popen(["sleep", "60"])
            sys.stderr.write("child pid %d\n" % child.pid)
            sys.stderr.flush()
        phase(rid, "timing", 0.5)
        time.sleep(60)
    elif behaviour == "sleep":
        phase(rid, "timing", 60)
        time.sleep(60)
    elif behaviour == "forged-deadline":
        phase(rid, "load", 5)
        phase(rid, "correctness", 1000000)
        time.sleep(20)
        result(rid)
    elif behaviour == "reannounce":
        phase(rid, "load", 5)
        for _ in range(100):
            phase(rid, "correctness", 5)
            time.sleep(0.2)
        result(rid)
    elif behaviour == "segfault":
        phase(rid, "correctness", 5)
        for i in range(40):
            sys.stderr.write("before the crash %d\n" % i)
        sys.stderr.write("last words\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    elif behaviour == "exit3":
        phase(rid, "load", 5)
        sys.stderr.write("Traceback (most recent call last):\nSystemExit: 3\n")
        sys.stderr.flush()
        os._exit(3)
    elif behaviour == "memory":
        phase(rid, "timing", 30)
        hoard = []
        for _ in range(30):
            hoard.append(bytearray(b"\x01") * (20 << 20))
            time.sleep(0.02)
        time.sleep(60)
    elif behaviour == "incomplete":
        phase(rid, "load", 5)
        send({"id": rid, "event": "result", "ok": True,
              "result": {"code_hash": "sha256:00", "correctness": {"passed": True}, "timing": {"speedup": 500.0}}})
    elif behaviour == "two-results":
        pretend_to_evaluate(rid, behaviour)
        pretend_to_evaluate(rid, behaviour)
    elif behaviour == "absurd-timing":
        pretend_to_evaluate(rid, behaviour, trials=100, warmup=5, ref_ms=0.01, cand_ms=0.01, seconds=2.5)
    elif behaviour == "stray":
        result(rid)
        send({"id": rid, "event": "result", "ok": True, "result": evaluation("stray", True)})
    elif behaviour == "unusable":
        send({"id": rid, "event": "error",
              "error": {"kind": "runtime", "message": "CUDA error: an illegal memory access was encountered",
                        "runner_exits": True}})
        sys.exit(0)
    else:
        pretend_to_evaluate(rid, behaviour)


def pretend_to_evaluate(rid, code, trials=10, warmup=2, ref_ms=2.0, cand_ms=0.8, seconds=None):
    """The four phases, progress through the timing phase's iterations (spread over `seconds` when given,
    else as long as the claimed calls take), and a complete result."""
    for name in ("load", "build", "correctness"):
        phase(rid, name, 5)
    passed = os.environ.get("FAKE_RUNNER_INCORRECT") != "1"
    if passed:
        phase(rid, "timing", 30)
        total = warmup + trials
        pause = (seconds if seconds is not None else total * (ref_ms + cand_ms) / 1000) / total
        for i in range(1, total + 1):
            time.sleep(pause)
            send({"id": rid, "event": "progress", "phase": "timing", "done": i, "total": total})
    send({"id": rid, "event": "result", "ok": passed,
          "result": evaluation(code, passed, trials, warmup, ref_ms, cand_ms)})


def main():
    start = os.environ.get("FAKE_RUNNER_START", "")
    if start == "hang":
        time.sleep(60)
    if start == "crash":
        sys.stderr.write("cannot initialise: libtorch not found\n")
        sys.exit(1)
    send({"event": "ready", "protocol": 2 if start == "protocol2" else 1, "runner": "fake-runner 1",
          "pid": os.getpid()})
    for line in sys.stdin:
        request = json.loads(line)
        rid, op = request["id"], request["op"]
        SCRATCH[rid] = request.get("options", {}).get("scratch", "")
        if op == "shutdown":
            send({"id": rid, "event": "result", "ok": True, "result": {}})
            return
        if op == "hello":
            send({"id": rid, "event": "result", "ok": True, "result": {"environment": ENVIRONMENT}})
            continue
        if op == "warm_up":
            send({"id": rid, "event": "result", "ok": True,
                  "result": {"device": "cpu", "seconds": 0.0, "steps": [], "pid": os.getpid()}})
            continue
        evaluate(rid, request["candidate"]["code"])


main()
