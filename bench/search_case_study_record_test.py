#!/usr/bin/env python3
"""Tests of bench/search_case_study_record.py on the case study's own case.json and batch lines shaped like
`kscope batch --out` (docs/cli.md): a correct, an incorrect and a failed build, and a candidate not run."""
import json
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_case_study_record as r  # noqa: E402

case = pathlib.Path(__file__).resolve().parent.parent / "sample_runs/search-softmax"
lines = [
    {"task": "L1/923", "candidate": "r1c", "outcome": "correct", "speedup": 2.5, "device": "cuda",
     "recorded_at": "2026-11-25T15:00:00Z",
     "event": {"event": "result", "environment": {"device_name": "NVIDIA H100 80GB HBM3"},
               "timing": {"reference": {"median_ms": 0.5}, "candidate": {"median_ms": 0.2}, "speedup": 2.5}}},
    {"task": "L1/923", "candidate": "r1d", "outcome": "incorrect", "device": "cuda",
     "event": {"event": "result", "correctness": {"passed": False, "seeds": [
         {"seed": 42, "passed": False, "max_abs_err": 0.45, "max_rel_err": 0.9, "atol": 0.01, "rtol": 0.01},
         {"seed": 43, "passed": False, "max_abs_err": 0.5, "max_rel_err": 0.8, "atol": 0.01, "rtol": 0.01}]}}},
    {"task": "L1/923", "candidate": "r2d", "outcome": "error", "device": "cuda",
     "event": {"event": "error", "error": {"kind": "build", "message": "r2d.cu(69): error: name followed by\nmore"}}},
    {"task": "L1/12", "candidate": "r1c", "outcome": "correct", "speedup": 9.0},  # another task: ignored
]
with tempfile.TemporaryDirectory() as tmp:
    batch = pathlib.Path(tmp) / "batch.jsonl"
    batch.write_text("".join(json.dumps(l) + "\n" for l in lines) + "not json\n")
    out = pathlib.Path(tmp) / "measured.json"
    assert r.main([str(batch), str(case), "--out", str(out)]) == 0
    measured = json.loads(out.read_text())
assert list(measured) == ["r1c", "r1d", "r2d"], list(measured)  # case order; r0 was not run: nothing
m = measured["r1c"][0]
assert m == {"baseline": "default", "origin": "measured", "device": "NVIDIA H100 80GB HBM3",
             "when": "2026-11-25T15:00:00Z", "speedup": 2.5, "baseline_ms": 0.5, "candidate_ms": 0.2,
             "outcome": "correct"}, m
m = measured["r1d"][0]
assert m["outcome"] == "incorrect" and "speedup" not in m, m
assert m["error"].startswith("seed 43: max abs error 0.5"), m  # the worst seed
m = measured["r2d"][0]
assert m == {"baseline": "default", "origin": "measured", "device": "cuda", "outcome": "error",
             "error": "build: r2d.cu(69): error: name followed by"}, m
print("ok")
