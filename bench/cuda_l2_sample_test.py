#!/usr/bin/env python3
"""Tests of bench/cuda_l2_sample.py on the real H100 file list (skipped, exit 77, when the release is absent)."""
import os
import sys
import math
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_l2_sample as s  # noqa: E402

shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../shared")
release = os.path.join(shared, "datasets/cuda-l2")
kernels = os.path.join(release, "kernels/h100_F32F16F16F32")
if not os.path.isdir(kernels):
    print(f"SKIP: CUDA-L2 release not found at {kernels}")
    sys.exit(77)

shapes = s.kernel_shapes(kernels)
assert len(shapes) == 1000, len(shapes)
chosen = s.stratified_sample(shapes)
assert len(chosen) == 70 and len(set(chosen)) == 70, len(chosen)
assert all(c in set(shapes) for c in chosen)
for d in range(3):
    sizes = sorted({x[d] for x in shapes})
    counts = [sum(c[d] == v for c in chosen) for v in sizes]
    assert counts == [7] * len(sizes), (d, counts)  # every size of every extent, equally often
assert s.stratified_sample(shapes) == chosen  # the seed decides
assert s.stratified_sample(shapes, seed=1) != chosen
assert len(s.stratified_sample(shapes, count=64)) == 70  # rounded up to whole rounds

with tempfile.TemporaryDirectory() as out:
    s.main(["prepare", release, out, "--count", "10"])
    copied = sorted(os.listdir(os.path.join(out, "kernels/h100_F32F16F16F32")))
    assert len(copied) == 10, copied
    tables = s.read_tables(out, "h100_F32F16F16F32")
    assert set(tables) == {"offline", "server"} and len(tables["offline"]) == 10, tables.keys()
    keys = open(os.path.join(out, "shapes.txt")).read().split()
    assert len(keys) == 10 and keys[0].startswith("h100_F32F16F16F32/") and "x" in keys[0], keys
print("cuda_l2_sample: ok,", len(chosen), "shapes")

# The report on a fixture batch: one correct shape with measured baselines by every method, one that failed.
import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402

with tempfile.TemporaryDirectory() as out:
    s.main(["prepare", release, out, "--count", "10"])
    keys = open(os.path.join(out, "shapes.txt")).read().split()
    tables = s.read_tables(out, "h100_F32F16F16F32")
    good, bad = keys[0], keys[1]
    shape = s.shape_of(good.split("/")[-1].replace("x", "_"))
    rec_off = tables["offline"][shape]["torch.matmul"]
    rec_max = tables["offline"][shape]["cuBLAS-max"]
    rec_srv = tables["server"][shape]["torch.matmul"]
    timings = []
    for method, factor in [("cuda-l2-offline", 1.05), ("cuda-l2-server", 0.5), ("kscope-l2-flushed", 1.0),
                           ("kscope-l2-warm", 2.0)]:
        timings.append({"baseline": "torch.matmul", "method": method, "rounds": 40, "baseline_ms": 1,
                        "candidate_ms": 1, "speedup": rec_off * factor})
        timings.append({"baseline": "cuBLAS-max", "method": method, "rounds": 40, "baseline_ms": 1,
                        "candidate_ms": 1, "speedup": rec_max * 1.5, "faster_of": "cuBLAS-nn"})
    fixture = [
        {"task": good, "outcome": "correct", "speedup": rec_off * 0.95, "seconds": 12.5,
         "phase_seconds": {"correctness": 1.0, "timing": 6.0},
         "event": {"event": "result", "result": {
             "build": {"cache_hit": True, "extensions": [{"kernels": [{"registers": 128, "shared_bytes": 0}]}]},
             "gemm": {"padded": False},
             "baselines": {"order_seed": 42, "notes": ["cuBLASLt-auto-tuning-nn: 1 of 16 skipped"],
                           "timings": timings}}}},
        {"task": bad, "outcome": "error", "seconds": 181.0, "phase_seconds": {"build": 2.0, "correctness": 175.0},
         "event": {"event": "error", "error": {"message": "CUTLASS GEMM execution failed"}}},
    ]
    batch = os.path.join(out, "batch.jsonl")
    with open(batch, "w") as f:
        for e in fixture:
            f.write(json.dumps(e) + "\n")
    warm = os.path.join(out, "warm.log")
    with open(warm, "w") as f:
        f.write("h100/64x64x64: click to number 2.1 s\n")
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        s.main(["report", out, batch, "--warm-log", warm])
    report = text.getvalue()
    rows = [l for l in report.splitlines() if l.startswith("| h100")]
    assert len(rows) == 2, report
    first = rows[0] if good in rows[0] else rows[1]
    second = rows[1] if first is rows[0] else rows[0]
    assert f"{rec_off * 1.05:.2f} ({rec_off:.2f})" in first, first          # offline measured (recorded)
    assert f"{rec_off * 0.5:.2f} ({rec_srv:.2f})" in first, first           # server pairs with server
    assert "| cache hit |" in first and "| 128 |" in first, first
    assert "error: CUTLASS GEMM execution failed" in second and "| — |" in second, second  # no build: no cache claim
    assert "- " + bad + ": 181 s in all; build 2, correctness 175" in report, report
    assert "cuBLASLt-auto-tuning-nn: 1 of 16 skipped" in report
    summary = report[report.index("## Summary"):]
    assert "- correct: 1 of 2" in summary, summary
    assert "over torch.matmul, cuda-l2-offline: 1 of 1 within 10 %" in summary, summary   # 5 % off
    assert "over torch.matmul, cuda-l2-server: 0 of 1 within 10 %" in summary, summary    # half
    assert "over cuBLAS-max, cuda-l2-offline: 0 of 1 within 10 %" in summary, summary     # 50 % off
    assert f"median |ln(measured / recorded)| {abs(math.log(1.05)):.3f}" in summary, summary
    assert "evaluate's own timing over torch.matmul: 1 of 1" in summary, summary
    assert "click to number 2.1 s" in report
print("cuda_l2_sample report: ok")

# The time stage's order: shapes the compile stage built or found cached first, the rest after.
with tempfile.TemporaryDirectory() as out:
    shapes = os.path.join(out, "shapes.txt")
    with open(shapes, "w") as f:
        f.write("h100/64x64x64\nh100/128x64x64\nh100/256x64x64\n")
    log = os.path.join(out, "compile.log")
    with open(log, "w") as f:
        f.write("[build 1/3] h100/128x64x64 kernel: built, 180 s\n"
                "[build 2/3] h100/64x64x64 kernel: error (timeout): timed out after 1200 s, not timed\n"
                "[build 3/3] h100/256x64x64 kernel: cached, regs 90, 2 s\n")
    for rest, expected in [(False, "h100/128x64x64\nh100/256x64x64\n"), (True, "h100/64x64x64\n")]:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            s.main(["order", shapes, "--compile-log", log] + (["--rest"] if rest else []))
        assert text.getvalue() == expected, text.getvalue()
print("cuda_l2_sample order: ok")
assert s.BUILT.match("[build 1/3] h100/128x64x64 kernel: built, 180 s").groups() == ("h100/128x64x64", "180")
