#!/usr/bin/env bash
# What one thing the runner's process has costs the seed's method (docs/method-fidelity.md): KernelScope's
# cuda-l1-eval loop in a plain Python process (bench/crosscheck_l1.py plain), once as it is and once per
# variant that adds one of the runner's conditions, interleaved, repeated:
#   seccomp       an allow-all seccomp filter installed as the runner installs its network filter
#   spec-allow    the same with SECCOMP_FILTER_FLAG_SPEC_ALLOW
#   profiler      a torch.profiler kernel profile of both models first, as KernelScope's measurement makes one
#   audit-hook    the write watch's audit hook installed (inactive), as the runner leaves it
#   profiler-teardown  the profile with TEARDOWN_CUPTI=1 set before torch loads (Kineto then detaches CUPTI)
#   profiler-teardown-late  the same, set after torch has loaded
# Prints the kernel's mitigation modes and a table of candidate milliseconds and scores per variant.
#
#   here:          python3 bench/crosscheck_l1.py prepare ../shared/datasets/cuda-l1/h100.jsonl \
#                    ../shared/harnesses/cuda-l1 .deps/crosscheck-l1
#   device `run`:  VARIANTS="none profiler audit-hook" bash bench/gpu/plain-variants.sh
#                  (carry [".deps/crosscheck-l1"]; TASKS, REPEATS, VARIANTS)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
prep=$root/.deps/crosscheck-l1
OUT=${OUT:-$root/out/plain-variants}
tasks=${TASKS:-L3/35 L1/14 L3/31}
repeats=${REPEATS:-2}
variants=${VARIANTS:-none seccomp spec-allow}
args_of() {
  case $1 in
  none) ;;
  seccomp) echo "--seccomp default" ;;
  spec-allow) echo "--seccomp spec-allow" ;;
  profiler | audit-hook) echo "--before $1" ;;
  profiler-teardown) echo "--before profiler --teardown-cupti" ;;
  profiler-teardown-late) echo "--before profiler --teardown-cupti-late" ;;
  *) echo "unknown variant $1" >&2; exit 2 ;;
  esac
}
mkdir -p "$OUT/plain"
{
  echo "kernel: $(uname -r)"
  for v in spec_store_bypass spectre_v2; do
    echo "$v: $(cat /sys/devices/system/cpu/vulnerabilities/$v 2>&1)"
  done
  grep -o 'spec_store_bypass_disable=[^ ]*\|spectre_v2_user=[^ ]*\|mitigations=[^ ]*' /proc/cmdline || echo "cmdline: no mitigation options"
  echo "this shell: $(grep -h 'Seccomp:\|Speculation' /proc/self/status | tr -s '\t ' ' ' | paste -sd ';')"
} | tee "$OUT/machine.txt"
for r in $(seq "$repeats"); do
  for t in $tasks; do
    modes=$variants
    ((r % 2 == 0)) && modes=$(tr ' ' '\n' <<<"$variants" | tac | paste -sd ' ')
    for m in $modes; do
      f=$OUT/plain/${t//\//_}.$m.$r.json
      # shellcheck disable=SC2046
      timeout 300 python3 bench/crosscheck_l1.py plain "$prep" "$t" "$f" --label "$m" $(args_of "$m") > /dev/null 2>> "$OUT/plain.err"
      echo "$t $m repeat $r: exit $? at $SECONDS s"
    done
  done
done
python3 - "$OUT/plain" "$variants" <<'PY' | tee "$OUT/plain-variants.md"
import glob, json, os, statistics, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(path))
    if "speedup" not in d:
        continue
    rows.setdefault(d["task"], {}).setdefault(d["label"], []).append(d)
modes = sys.argv[2].split()
print("| task | " + " | ".join(f"{m}: candidate ms / score" for m in modes) + " | candidate ms against the first |")
print("|---" * (len(modes) + 2) + "|")
for task, by in sorted(rows.items()):
    cells, ms = [], {}
    for m in modes:
        runs = by.get(m, [])
        if not runs:
            cells.append("—")
            continue
        ms[m] = statistics.median(statistics.mean(d["candidate_ms"]) for d in runs)
        score = statistics.median(d["speedup"] for d in runs)
        cells.append(f"{ms[m]:.3f} / {score:.2f} (n={len(runs)})")
    base = ms.get(modes[0])
    ratio = ", ".join(f"{m} {ms[m] / base:.3f}" for m in modes[1:] if m in ms) if base else "—"
    print(f"| {task} | " + " | ".join(cells) + f" | {ratio} |")
seen = {m: by[m][0]["speculation"] for by in rows.values() for m in by}
for m in modes:
    if m in seen:
        print(f"\n{m}: " + "; ".join(f"{k} {v}" for k, v in seen[m].items()))
PY
