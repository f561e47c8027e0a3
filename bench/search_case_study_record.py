#!/usr/bin/env python3
"""Writes what `kscope batch` measured for the search case study back into the case folder.

    python3 bench/search_case_study_record.py BATCH.jsonl [CASE_DIR] [--out measured.json]

BATCH.jsonl: the `--out` lines of `kscope batch sample_runs/search-softmax.kscope.jsonl` (docs/cli.md,
"Lines of --out"). CASE_DIR (default sample_runs/search-softmax) gets measured.json: per candidate id, one
measurement in the run format's keys (docs/run-format.md) with origin "measured", the device, the time it
was recorded, and its verdict in two more keys, "outcome" and "error", which the run format carries
(docs/run-format.md, "Verdicts") and make_samples.py writes as they are:
  correct    speedup, baseline_ms and candidate_ms (the medians of the timing phase), outcome "correct"
  incorrect  no number; outcome "incorrect" and the worst seed's errors against its tolerance
  error      no number; outcome "error" and the error's kind and first line ("build: ...")
A candidate the batch timed more than once keeps its last line. Then `python3 sample_runs/make_samples.py`
rebuilds the run file with them (bench/gpu/search-case-study.sh does both). Nothing is invented: a
candidate without a line in BATCH.jsonl gets no measurement.
"""
import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def result_of(event):
    """The evaluate result inside an end event (its fields sit beside "event", or under "result")."""
    if not isinstance(event, dict):
        return {}
    return event.get("result") if isinstance(event.get("result"), dict) else event


def first_line(text):
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def measurement(line):
    """The run-format measurement of one batch line."""
    event = line.get("event") or {}
    result = result_of(event)
    device = (result.get("environment") or {}).get("device_name") or line.get("device", "")
    m = {"baseline": "default", "origin": "measured"}
    if device:
        m["device"] = device
    if line.get("recorded_at"):
        m["when"] = line["recorded_at"]
    outcome = line.get("outcome")
    if outcome == "correct":
        timing = result.get("timing") or {}
        speedup = line.get("speedup", timing.get("speedup"))
        if speedup is not None:
            m["speedup"] = round(float(speedup), 4)
        for key, side in (("baseline_ms", "reference"), ("candidate_ms", "candidate")):
            median = (timing.get(side) or {}).get("median_ms")
            if median is not None:
                m[key] = round(float(median), 5)
        m["outcome"] = "correct"
        if line.get("fallback"):
            m["error"] = "the program fell back: " + json.dumps(line["fallback"])[:300]
    elif outcome == "incorrect":
        m["outcome"] = "incorrect"
        seeds = (result.get("correctness") or {}).get("seeds") or []
        failed = [s for s in seeds if not s.get("passed", True)]
        if failed:
            s = max(failed, key=lambda s: s.get("max_abs_err") or 0)
            m["error"] = (f"seed {s.get('seed')}: max abs error {s.get('max_abs_err')}, max rel error "
                          f"{s.get('max_rel_err')} (atol {s.get('atol')}, rtol {s.get('rtol')})")
            if s.get("message"):
                m["error"] += "; " + first_line(s["message"])
    else:
        m["outcome"] = "error"
        error = event.get("error") or {}
        kind = error.get("kind", "error")
        m["error"] = f"{kind}: {first_line(error.get('message'))}".rstrip(": ")
    return m


def record(batch_path, case_dir):
    case = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
    ids = {c["id"] for c in case["candidates"]}
    key = f"L{case['level']}/{case['number']}"
    measured = {}
    for number, text in enumerate(batch_path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as e:
            print(f"{batch_path}:{number}: skipped, not JSON ({e})", file=sys.stderr)
            continue
        if line.get("task") != key or line.get("candidate") not in ids:
            continue
        measured[line["candidate"]] = [measurement(line)]
    return {cid: measured[cid] for cid in (c["id"] for c in case["candidates"]) if cid in measured}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batch", type=pathlib.Path)
    parser.add_argument("case_dir", type=pathlib.Path, nargs="?", default=ROOT / "sample_runs/search-softmax")
    parser.add_argument("--out", type=pathlib.Path, help="default: CASE_DIR/measured.json")
    args = parser.parse_args(argv)
    measured = record(args.batch, args.case_dir)
    out = args.out or args.case_dir / "measured.json"
    out.write_text(json.dumps(measured, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = {}
    for ms in measured.values():
        counts[ms[0]["outcome"]] = counts.get(ms[0]["outcome"], 0) + 1
    print(f"{out}: {len(measured)} candidates measured " + json.dumps(counts, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
