#!/usr/bin/env bash
# The GUI tests under AddressSanitizer and UBSan, in a build of their own (build-asan, or
# $KSCOPE_ASAN_BUILD_DIR): a use after free or undefined behaviour in a menu path, a dialog or a pane fails a
# test here instead of crashing a user's window at times. CI runs it after packaging/test.sh (.ci/run); it
# needs that build's kscope-runner for the re-run tests (the runner is its own process and is not
# sanitized: libtorch and the embedded Python are not built with the sanitizers).
# Leak checking is off: Qt, fontconfig and the offscreen platform keep allocations to the end of the process
# by design, and what this catches is memory used after it was freed or out of its bounds.
# Prints its own phase table at the end (packaging/phase-table.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${KSCOPE_ASAN_BUILD_DIR:-build-asan}
runner=$(pwd)/${KSCOPE_BUILD_DIR:-build}/bin/kscope-runner
source packaging/phase-table.sh
trap 'phase_table "$build/asan-junit.xml"' EXIT
phase asan-build bash -c "cmake -S . -B '$build' -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 -DKSCOPE_ENGINE=OFF \
  -DKSCOPE_SANITIZE=address,undefined -DKSCOPE_WERROR=ON -DKSCOPE_DEBUG_INFO=lines >/dev/null &&
  cmake --build '$build' -j$(nproc) --target views_tests kscope"
if [ -x "$runner" ]; then
  export KSCOPE_RUNNER=$runner
else
  echo "sanitize-gui.sh: no $runner: the re-run tests skip (build it with packaging/build.sh)" >&2
fi
export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
phase asan-gui ctest --test-dir "$build" -L gui --output-on-failure -j2 --output-junit asan-junit.xml
