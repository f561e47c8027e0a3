#!/usr/bin/env bash
# Sourced by packaging/test.sh: times its phases and prints, at the end, where the time went.
#   phase NAME CMD...     runs CMD as phase NAME (its exit status is the phase's)
#   phase_start NAME / phase_end   the same around several commands
#   phase_table [JUNIT]   the table: each phase's wall seconds and share, then (from ctest's JUnit file) each
#                         label's summed test seconds and the 12 slowest tests
ks_phase_names=()
ks_phase_seconds=()
ks_phase_open=""
ks_phase_started=0
ks_all_started=$(date +%s)

phase_start() {
  phase_end
  ks_phase_open=$1
  ks_phase_started=$(date +%s)
}

phase_end() {
  [ -n "$ks_phase_open" ] || return 0
  ks_phase_names+=("$ks_phase_open")
  ks_phase_seconds+=($(($(date +%s) - ks_phase_started)))
  ks_phase_open=""
}

phase() {
  local name=$1
  shift
  phase_start "$name"
  local status=0
  "$@" || status=$?
  phase_end
  return "$status"
}

phase_table() {
  local status=$?
  phase_end
  local total=$(($(date +%s) - ks_all_started))
  echo
  echo "== Where the time went (exit $status, $total s in all) =="
  printf '%-12s %8s %6s\n' phase seconds share
  local i
  for i in "${!ks_phase_names[@]}"; do
    printf '%-12s %8d %5d%%\n' "${ks_phase_names[i]}" "${ks_phase_seconds[i]}" \
      $((100 * ks_phase_seconds[i] / (total > 0 ? total : 1)))
  done
  local junit=${1:-}
  if [ -n "$junit" ] && [ -f "$junit" ] && command -v python3 >/dev/null; then
    python3 - "$junit" <<'PY'
import json, os, subprocess, sys, xml.etree.ElementTree as ET
# Each test's first label: from the JUnit file where ctest writes it (CMake >= 3.26), else from
# `ctest --show-only=json-v1` of the build folder the file lies in (Debian 12's CMake 3.25 writes none).
listed = {}
try:
    shown = subprocess.run(["ctest", "--test-dir", os.path.dirname(os.path.abspath(sys.argv[1])),
                            "--show-only=json-v1"], capture_output=True, text=True, timeout=120).stdout
    for test in json.loads(shown).get("tests", []):
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS" and prop.get("value"):
                listed[test.get("name")] = prop["value"][0]
except (OSError, ValueError, subprocess.SubprocessError):
    pass
cases = []
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    labels = [p.get("value") for p in case.iter("property") if p.get("name") == "cmake_labels"]
    label = (labels[0] if labels else "").split(";")[0] or listed.get(case.get("name"), "")
    cases.append((float(case.get("time") or 0), case.get("name"), label))
by_label = {}
for seconds, _, label in cases:
    count, summed = by_label.get(label, (0, 0.0))
    by_label[label] = (count + 1, summed + seconds)
print(f"\n{'label':<12} {'tests':>6} {'test-seconds':>13}   (summed over tests; ctest runs two at a time)")
for label, (count, summed) in sorted(by_label.items(), key=lambda kv: -kv[1][1]):
    print(f"{label or '-':<12} {count:>6} {summed:>13.0f}")
print(f"\nslowest tests (of {len(cases)}):")
for seconds, name, label in sorted(cases, reverse=True)[:12]:
    print(f"{seconds:>8.1f} s  {label:<6} {name}")
PY
  fi
  return "$status"
}
