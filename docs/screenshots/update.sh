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

cmake --build "$build" --target views_tests -j "${KSCOPE_JOBS:-2}"
rm -rf "$build/screenshots"
QT_QPA_PLATFORM=offscreen "$build/bin/views_tests" --gtest_filter='Screenshots.*' --gtest_brief=1
shopt -s nullglob
shots=("$build"/screenshots/*.png)
[ ${#shots[@]} -gt 0 ] || { echo "update.sh: the tests wrote no screenshot (all skipped?)" >&2; exit 1; }
cp "${shots[@]}" "$here/"
echo "update.sh: copied ${#shots[@]} screenshots into docs/screenshots:"
for f in "${shots[@]}"; do echo "  $(basename "$f")"; done
missing=()
for f in "$here"/*.png; do [ -e "$build/screenshots/$(basename "$f")" ] || missing+=("$(basename "$f")"); done
[ ${#missing[@]} -eq 0 ] || echo "update.sh: not regenerated (test skipped or gone): ${missing[*]}" >&2
