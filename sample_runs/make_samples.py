#!/usr/bin/env python3
"""Writes each case study folder (reference.py, r*.py, r*.md, case.json, optional measured.json) as a
KernelScope run file <case>.kscope.jsonl next to it (format: docs/run-format.md).

measured.json, when present, holds numbers measured on a real GPU (for search-softmax,
bench/gpu/search-case-study.sh writes it with bench/search_case_study_record.py); they are stored as the
candidates' measurements. An entry whose "outcome" is "incorrect" or "error" has no number: it is written as
a note at the end of the candidate's analysis instead, since the run format records no verdict.
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
        line["measurements"], failed = [], []
        for m in measured.get(cid, []):
            # A run that gave no number (bench/search_case_study_record.py: outcome incorrect or error) is
            # not a measurement of the run format: it becomes a note at the end of the analysis.
            m = dict(m)
            outcome, error = m.pop("outcome", "correct"), m.pop("error", "")
            if outcome == "correct":
                line["measurements"].append(m)
            else:
                failed.append(f"**Measured on {m.get('device', 'a GPU')} ({m.get('when', 'no date')}): {outcome}**"
                              + (f" — {error}" if error else ""))
        if failed:
            line["analysis"] = line.get("analysis", "").rstrip("\n") + "\n\n" + "\n\n".join(failed) + "\n"
        lines.append(line)
    out = HERE / f"{case_dir.name}.kscope.jsonl"
    out.write_text("".join(json.dumps(l, ensure_ascii=False) + "\n" for l in lines), encoding="utf-8")
    return out


if __name__ == "__main__":
    for d in sorted(p for p in HERE.iterdir() if (p / "case.json").exists()):
        print(build(d).relative_to(HERE.parent))
