#!/usr/bin/env bash
# Long fuzzing on a machine without clang (the GPU machine; docs/fuzzing.md, "Long runs on many cores"): the
# binaries and seeds of `run.sh pack`, the corpora of earlier runs, and a plan of how many workers and
# executions each target gets. Each target runs as its own `run.sh long`, all at once; the grown corpora,
# the logs and the table go to OUTDIR for the next run and for the record, few files (the device tool brings
# back at most 8, 16 MiB each): table.txt, logs.tar.gz (each target's run.sh output, logs and artifacts) and
# one corpus-<target>.tar.gz a target (four grown corpora in one tar outgrew 16 MiB on 2026-11-29).
#   bash tests/fuzz/run-pack.sh PACK.tar.gz CORPORA|none OUTDIR SECONDS TARGET:WORKERS:RUNS...
# CORPORA is a .tar.gz holding corpus/<target>/ folders (`tar -czf corpora.tar.gz -C build-fuzz/fuzz-work
# corpus`) or a folder whose every *.tar.gz is one (an earlier run's OUTDIR). SECONDS bounds every worker;
# RUNS is the target's executions in all, split between its WORKERS. KSCOPE_FUZZ_FLAGS as in run.sh.
# Exit status 1 when any target crashed, leaked, timed out or ran out of memory (artifacts in OUTDIR).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
pack=$(realpath "${1:?usage: run-pack.sh PACK CORPORA|none OUTDIR SECONDS TARGET:WORKERS:RUNS...}")
corpora=$2
out=$(realpath -m "${3:?OUTDIR}")
seconds=${4:?SECONDS}
shift 4
(($# > 0)) || { echo "run-pack: no TARGET:WORKERS:RUNS given" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/pack" "$stage/work" "$out"
tar -xzf "$pack" -C "$stage/pack"
if [ -d "$corpora" ]; then
  for f in "$corpora"/*.tar.gz; do [ -e "$f" ] && tar -xzf "$f" -C "$stage/work"; done
elif [ "$corpora" != none ]; then
  tar -xzf "$corpora" -C "$stage/work"
fi

# LeakSanitizer stops the world with ptrace; where a container forbids that, every exit would count as a
# crash. Try it once on a known-good target and say which way the run goes.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
if ! "$stage/pack/bin/fuzz_request_decoder" -runs=200 "$stage/pack/seeds/request_decoder" >"$stage/lsan.log" 2>&1 ||
  grep -q 'LeakSanitizer has encountered a fatal error' "$stage/lsan.log"; then
  echo "run-pack: LeakSanitizer cannot run here (ptrace refused?); leak checks off:" >&2
  tail -3 "$stage/lsan.log" >&2
  export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=0
fi
echo "run-pack: $(nproc) cores, ASAN_OPTIONS=$ASAN_OPTIONS, flags: ${KSCOPE_FUZZ_FLAGS:-none}, $seconds s at most"

rc=0 pids=() names=()
for plan in "$@"; do
  IFS=: read -r t workers runs <<<"$plan"
  [[ -n $t && $workers =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] ||
    { echo "run-pack: $plan: want TARGET:WORKERS:RUNS" >&2; exit 2; }
  mkdir -p "$stage/work/corpus/$t" "$stage/runs/$t"
  ln -sfn "$stage/work/corpus" "$stage/runs/$t/corpus"  # run.sh keeps corpus/<target> under its work folder
  KSCOPE_FUZZ_BIN=$stage/pack/bin KSCOPE_FUZZ_SEEDS=$stage/pack/seeds KSCOPE_FUZZ_WORK=$stage/runs/$t \
    KSCOPE_FUZZ_TARGETS=$t bash "$here/run.sh" long "$runs" "$workers" "$seconds" >"$stage/runs/$t/run.log" 2>&1 &
  pids+=($!) names+=("$t")
done
for i in "${!pids[@]}"; do
  wait "${pids[i]}" && continue
  rc=1
  echo "run-pack: ${names[i]} FAILED (its run.sh output, logs and artifacts: ${names[i]}/ in $out/logs.tar.gz):" >&2
  tail -8 "$stage/runs/${names[i]}/run.log" >&2
done

row='%-18s %12s %8s %8s %8s %14s %9s %12s\n'
printf "$row" target executions exec/s "wall s" crashes "corpus" coverage "peak RSS MB" | tee "$out/table.txt"
for t in "${names[@]}"; do
  [ -f "$stage/runs/$t/rows/$t" ] || { printf '%-18s (no row: %s/run.log in logs.tar.gz)\n' "$t" "$t" | tee -a "$out/table.txt"; continue; }
  IFS=$'\t' read -ra cells <"$stage/runs/$t/rows/$t"
  printf "$row" "${cells[@]}" | tee -a "$out/table.txt"
done
for t in "${names[@]}"; do
  tar -czf "$out/corpus-$t.tar.gz" -C "$stage/work" "corpus/$t"
  size=$(stat -c %s "$out/corpus-$t.tar.gz")
  ((size <= 16 * 1024 * 1024)) ||
    echo "run-pack: corpus-$t.tar.gz is $((size >> 20)) MiB: over the 16 MiB a file the device tool brings back" >&2
done
tar -czf "$out/logs.tar.gz" -C "$stage/runs" --exclude=corpus --exclude=seeds .
exit $rc
