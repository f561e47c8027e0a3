#!/usr/bin/env python3
"""Writes each case study folder (reference.py, r*.py, r*.md, case.json, optional measured.json) as a
KernelScope run file <case>.kscope.jsonl next to it (format: docs/run-format.md).

measured.json, when present, holds what a real GPU measured (for search-softmax,
bench/gpu/search-case-study.sh writes it with bench/search_case_study_record.py); each entry is stored as a
measurement of the candidate, its verdict with it: a correct run's numbers, and for a run that gave no
number its "outcome" ("incorrect" or "error") and "error" (why), which the run format carries (a failed
candidate is drawn like a failed re-run).
Run from anywhere: python3 sample_runs/make_samples.py
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def read(path):
    return path.read_text(encoding="utf-8")


def build(case_dir):
    case = json.loads(read(case_dir / "case.json"))
    measured = {}
    if (case_dir / "measured.json").exists():
        measured = json.loads(read(case_dir / "measured.json"))
    key = f"L{case['level']}/{case['number']}"
    lines = [{"kscope_run": 1, "title": case["title"], "description": case["description"],
              "generator": "sample_runs/make_samples.py"},
             {"type": "task", "level": case["level"], "number": case["number"], "name": case["name"],
              "reference": {"language": "python", "code": read(case_dir / "reference.py")}}]
    for c in case["candidates"]:
        cid = c["id"]
        line = {"type": "candidate", "task": key, "id": cid, "parents": c["parents"], "step": c["step"],
                "language": "python", "code": read(case_dir / f"{cid}.py")}
        if (case_dir / f"{cid}.md").exists():
            line["analysis"] = read(case_dir / f"{cid}.md")
        line["measurements"] = []
        for m in measured.get(cid, []):
            m = dict(m)
            if not m.get("error"):
                m.pop("error", None)
            line["measurements"].append(m)
        lines.append(line)
    out = HERE / f"{case_dir.name}.kscope.jsonl"
    out.write_text("".join(json.dumps(l, ensure_ascii=False) + "\n" for l in lines), encoding="utf-8")
    return out


if __name__ == "__main__":
    for d in sorted(p for p in HERE.iterdir() if (p / "case.json").exists()):
        print(build(d).relative_to(HERE.parent))
