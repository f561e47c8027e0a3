#!/usr/bin/env bash
# Regenerates the README's screenshots: builds views_tests (and kscope-runner, which the re-run screenshots
# drive on this machine's CPU), runs the Screenshots tests offscreen — they write into <build>/screenshots,
# never into the sources — and copies those PNGs here. Usage: docs/screenshots/update.sh [build-dir]
# (default: $KSCOPE_BUILD_DIR, else build). Needs ../shared/datasets/cuda-l1/h100.jsonl for the CUDA-L1 ones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-${KSCOPE_BUILD_DIR:-build}}
case $build in /*) ;; *) build=$root/$build ;; esac
[ -f "$build/CMakeCache.txt" ] || { echo "update.sh: no configured build in $build (run packaging/build.sh)" >&2; exit 1; }

cmake --build "$build" --target views_tests kscope -j "${KSCOPE_JOBS:-2}"
rm -rf "$build/screenshots"
QT_QPA_PLATFORM=offscreen "$build/bin/views_tests" --gtest_filter='Screenshots.*' --gtest_brief=1
# A report page as a browser shows it: `kscope report` on a sample run, headless Chromium (Debian
# `chromium`, packaging/debian-test-deps.txt), offline.
if command -v chromium >/dev/null; then
  tmp=$(mktemp -d)
  "$build/bin/kscope" report "$root/sample_runs/cached-output-hack.kscope.jsonl" --task L1/901 --candidate r2 \
    --no-history --out "$tmp/report.html"
  chromium --headless --no-sandbox --disable-gpu --no-first-run --host-resolver-rules='MAP * ~NOTFOUND' \
    --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1200,1500 \
    --screenshot="$build/screenshots/report.png" "file://$tmp/report.html" 2>/dev/null
  rm -rf "$tmp"
else
  echo "update.sh: no chromium: report.png not regenerated (install the Debian package chromium)" >&2
fi
shopt -s nullglob
shots=("$build"/screenshots/*.png)
[ ${#shots[@]} -gt 0 ] || { echo "update.sh: the tests wrote no screenshot (all skipped?)" >&2; exit 1; }
cp "${shots[@]}" "$here/"
echo "update.sh: copied ${#shots[@]} screenshots into docs/screenshots:"
for f in "${shots[@]}"; do echo "  $(basename "$f")"; done
missing=()
for f in "$here"/*.png; do [ -e "$build/screenshots/$(basename "$f")" ] || missing+=("$(basename "$f")"); done
[ ${#missing[@]} -eq 0 ] || echo "update.sh: not regenerated (test skipped or gone): ${missing[*]}" >&2
