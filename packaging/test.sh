#!/usr/bin/env bash
# README command 2: install what is missing, build with warnings as errors, check that the install list
# brings everything the configure step used (packaging/check-deps.sh, so a package that is only installed
# on this machine fails here, not on a new user's), then run every test, then the fuzz smoke run (every
# reader and the runner's request decoder under libFuzzer, a few seconds each; tests/fuzz/run.sh).
# GPU-labelled tests skip with a message on a machine without CUDA; GUI tests run offscreen.
# At its end (failed or not) it prints where the time went: a table of its phases, each test label's summed
# test time and the slowest tests (packaging/phase-table.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${KSCOPE_BUILD_DIR:-build}
source packaging/phase-table.sh
trap 'phase_table "$build/test-junit.xml"' EXIT
phase install bash packaging/install-deps.sh packaging/debian-build-deps.txt packaging/debian-test-deps.txt
# Line tables only (-g1, CMakeLists.txt's KSCOPE_DEBUG_INFO): backtraces keep files and lines, and each
# translation unit compiles 18-30 % faster than at -g.
phase build bash packaging/build.sh -DKSCOPE_WERROR=ON -DKSCOPE_DEBUG_INFO=lines
phase check-deps bash packaging/check-deps.sh "$build"
# The check must still reject the list that broke a fresh machine (it lacked libqt6opengl6-dev).
if out=$(bash packaging/check-deps.sh "$build" --list tests/packaging/debian-build-deps-before-issue-12.txt 2>&1) ||
  ! grep -q "add libqt6opengl6-dev" <<<"$out"; then
  printf 'check-deps did not reject the old install list for lacking libqt6opengl6-dev:\n%s\n' "$out" >&2
  exit 1
fi
echo "check-deps: rejects the pre-issue-12 list, naming libqt6opengl6-dev: ok"
export QT_QPA_PLATFORM=offscreen
phase ctest ctest --test-dir "$build" --output-on-failure -j2 --output-junit test-junit.xml
# Fuzz smoke run: its own clang build of the readers (build-fuzz), then each target for a few seconds; the
# test list must bring clang and libFuzzer (the check reads that tree's configure cache).
phase fuzz-smoke bash tests/fuzz/run.sh smoke
# The pack that long runs on many-core machines use (docs/fuzzing.md): packed, unpacked and run a little.
phase_start fuzz-pack
fuzz_work=${KSCOPE_FUZZ_BUILD:-build-fuzz}/fuzz-work
KSCOPE_FUZZ_SEEDS=$fuzz_work/seeds bash tests/fuzz/run.sh pack "$fuzz_work/pack.tar.gz"
rm -rf "$fuzz_work/pack-run" "$fuzz_work/pack-run2"
bash tests/fuzz/run-pack.sh "$fuzz_work/pack.tar.gz" none "$fuzz_work/pack-run" 10 event_decoder:1:500 \
  request_decoder:1:500
# The next call starts from the corpora the last one left (its output folder, one tar a target).
# libFuzzer names an input by its SHA-1, so every input of the first must be in the second's corpus.
inputs() { tar -tzf "$1" | grep -v '/$' | sort; }
bash tests/fuzz/run-pack.sh "$fuzz_work/pack.tar.gz" "$fuzz_work/pack-run" "$fuzz_work/pack-run2" 10 event_decoder:1:200
lost=$(comm -23 <(inputs "$fuzz_work/pack-run/corpus-event_decoder.tar.gz") \
  <(inputs "$fuzz_work/pack-run2/corpus-event_decoder.tar.gz") | wc -l)
((lost == 0)) || { echo "run-pack: the second run did not start from the first's corpus ($lost inputs lost)" >&2; exit 1; }
bash packaging/check-deps.sh "${KSCOPE_FUZZ_BUILD:-build-fuzz}" --list packaging/debian-build-deps.txt \
  --list packaging/debian-test-deps.txt
phase_end
