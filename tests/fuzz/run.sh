#!/usr/bin/env bash
# libFuzzer targets of the readers and the runner's request decoder (tests/fuzz/*.cpp; docs/fuzzing.md).
#   bash tests/fuzz/run.sh build            configure and build them with clang into $KSCOPE_FUZZ_BUILD
#                                           (default build-fuzz; only ks_formats, ks_protocol and their deps)
#   bash tests/fuzz/run.sh smoke [SECONDS]  build, then each target SECONDS (default 5) on fresh seeds, two at
#                                           a time, from the seeds alone; fails on any crash, leak, timeout or
#                                           out-of-memory (CI)
#   bash tests/fuzz/run.sh long N [JOBS] [SECONDS]  build, then each target to N executions on JOBS cores in
#                                           all (default: every core; more cores than targets: several
#                                           workers a target, or as many as "TARGET:WORKERS" in
#                                           KSCOPE_FUZZ_TARGETS asks), or for at most SECONDS a target; a table
#   bash tests/fuzz/run.sh pack FILE.tar.gz build, then pack the binaries (bin/) and the seeds (seeds/) for
#                                           another machine: KSCOPE_FUZZ_BIN=bin KSCOPE_FUZZ_SEEDS=seeds there
# Both run modes print one row per target: executions, exec/s, wall time, crashes, corpus size, peak RSS.
# Environment: KSCOPE_FUZZ_BIN=DIR uses fuzz_* binaries built elsewhere (no build; see docs/fuzzing.md for
# what they need), KSCOPE_FUZZ_WORK=DIR keeps corpora, artifacts and logs there (default
# $KSCOPE_FUZZ_BUILD/fuzz-work; the corpora grow from run to run), KSCOPE_FUZZ_TARGETS="a b" runs only those,
# KSCOPE_FUZZ_SEEDS=DIR seeds made before (seeds.sh or pack) instead of cutting them now, KSCOPE_DATASETS=DIR
# the datasets to cut seeds from (default ../shared/datasets), KSCOPE_FUZZ_FLAGS="-max_len=4096" more libFuzzer
# flags for every process.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"
build=${KSCOPE_FUZZ_BUILD:-build-fuzz}
targets=(${KSCOPE_FUZZ_TARGETS:-cuda_l1_jsonl run_jsonl load_any cuda_source cuda_l2_csv cuda_l2_kernel
  good_kernels_csv good_kernels_json kernelbench_task request_decoder event_decoder})
# "run_jsonl:8" in KSCOPE_FUZZ_TARGETS: that target gets 8 workers instead of its even share of JOBS.
declare -A asked_workers=()
for i in "${!targets[@]}"; do
  if [[ ${targets[i]} == *:* ]]; then
    asked_workers[${targets[i]%%:*}]=${targets[i]#*:}
    [[ ${targets[i]#*:} =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: ${targets[i]}: workers must be a number" >&2; exit 2; }
    targets[i]=${targets[i]%%:*}
  fi
done
mode=${1:-smoke}

build_targets() {
  if [ -n "${KSCOPE_FUZZ_BIN:-}" ]; then
    bin=$KSCOPE_FUZZ_BIN
    return
  fi
  local started=$SECONDS
  if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  fi
  mkdir -p "$build"
  cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Fuzz -DKSCOPE_FUZZ=ON \
    -DKSCOPE_GUI=OFF -DKSCOPE_ENGINE=OFF -DKSCOPE_TESTS=OFF -DKSCOPE_MAN_PAGES=OFF >"$build/fuzz-configure.log" 2>&1 ||
    { cat "$build/fuzz-configure.log"; exit 1; }
  cmake --build "$build" --target fuzz_targets -j"$(nproc)"
  bin=$build/fuzz
  echo "fuzz: built ${#targets[@]} targets in $((SECONDS - started)) s ($bin)"
}

# One target: `fuzz_one TARGET WORKERS FLAG...`: WORKERS processes share its corpus folder (libFuzzer reloads
# it as others add to it); its row (summed executions and exec/s, the largest RSS) goes to $work/rows/TARGET.
fuzz_one() {
  local t=$1 workers=$2; shift 2
  local corpus=$corpora/$t artifacts=$work/artifacts/$t/ dict=""
  mkdir -p "$corpus" "$artifacts"
  case $t in
    cuda_source | cuda_l2_kernel) dict=$seeds/cuda.dict ;;
    cuda_l2_csv | good_kernels_csv) dict=$seeds/csv.dict ;;
    kernelbench_task) dict="" ;;
    *) dict=$seeds/json.dict ;;
  esac
  local start=$EPOCHREALTIME rc=0 pids=() w
  rm -f "$work/logs/$t".*.log
  for ((w = 1; w <= workers; w++)); do
    "$bin/fuzz_$t" "$@" ${KSCOPE_FUZZ_FLAGS:-} -timeout="$timeout" -rss_limit_mb="$rss" -print_final_stats=1 \
      -artifact_prefix="$artifacts" ${dict:+-dict="$dict"} "$corpus" "$seeds/$t" >"$work/logs/$t.$w.log" 2>&1 &
    pids+=($!)
  done
  for w in "${pids[@]}"; do wait "$w" || rc=$?; done
  local wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  local logs=("$work/logs/$t".*.log)
  local execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs[@]}" | awk '{ s += $1 } END { print s + 0 }')
  local rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "${logs[@]}" | awk '{ s += $1 } END { print s + 0 }')
  local rssmb=$(sed -n 's/^stat::peak_rss_mb: *//p' "${logs[@]}" | sort -n | tail -1)
  local cov=$(grep -ohE 'cov: [0-9]+' "${logs[@]}" | cut -d' ' -f2 | sort -n | tail -1)
  local corp="$(find "$corpus" -type f | wc -l)/$(du -sk --apparent-size "$corpus" | cut -f1)K"
  local found=$(find "$artifacts" -type f -newer "$work/started" \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  ((rc == 0 || found > 0)) || found=1  # it died without an artifact (a failed start counts as a crash too)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$execs" "$rate" "$wall" "$found" "$corp" "${cov:-?}" \
    "${rssmb:-?}" >"$work/rows/$t"
}

# `run_all JOBS RUNS|"" FLAG...`: every target, on JOBS cores in all. With more cores than targets each target
# gets JOBS / targets workers, which split RUNS executions between them.
run_all() {
  local jobs=$1 runs=$2; shift 2
  local share=$((jobs / ${#targets[@]}))
  ((share >= 1)) || share=1
  mkdir -p "$work/rows" "$work/logs"
  rm -f "$work/rows"/*
  touch "$work/started"
  local asked="" busy=0 t s workers limit
  for t in "${!asked_workers[@]}"; do asked+=" $t:${asked_workers[$t]}"; done
  echo "fuzz: ${#targets[@]} targets, $share worker(s) each${asked:+ (asked:$asked)}, $jobs at a time${runs:+, $runs executions each}"
  declare -A started_workers=()
  for t in "${targets[@]}"; do
    [ -x "$bin/fuzz_$t" ] || { echo "fuzz: $bin/fuzz_$t missing" >&2; exit 2; }
    workers=${asked_workers[$t]:-$share}
    limit=()
    [ -n "$runs" ] && limit=(-runs=$(((runs + workers - 1) / workers)))
    # Start when the workers already running leave room (a target asking more than JOBS waits for an idle machine).
    while ((busy > 0 && busy + workers > jobs)); do
      wait -n || true
      busy=0
      for s in "${!started_workers[@]}"; do
        if [ -e "$work/rows/$s" ]; then unset "started_workers[$s]"; else busy=$((busy + started_workers[$s])); fi
      done
    done
    started_workers[$t]=$workers
    busy=$((busy + workers))
    fuzz_one "$t" "$workers" "${limit[@]}" "$@" &
  done
  wait
  local crashes=0
  local row='%-18s %12s %8s %8s %8s %14s %9s %12s\n'
  printf "$row" target executions exec/s "wall s" crashes "corpus" coverage "peak RSS MB"
  for t in "${targets[@]}"; do
    IFS=$'\t' read -ra cells <"$work/rows/$t"
    printf "$row" "${cells[@]}"
  done
  for t in "${targets[@]}"; do
    n=$(cut -f5 "$work/rows/$t")
    if ((n > 0)); then
      crashes=$((crashes + n))
      echo "fuzz: $t FAILED ($n): logs $work/logs/$t.*.log, artifacts $work/artifacts/$t/" >&2
      grep -hE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:)|deadly signal|Test unit written' \
        "$work/logs/$t".*.log | head -8 >&2
    fi
  done
  ((crashes == 0)) || exit 1
  echo "fuzz: ${#targets[@]} targets, 0 crashes"
}

case $mode in
  build) build_targets; exit 0 ;;
  smoke) seconds=${2:-5}; jobs=${KSCOPE_FUZZ_JOBS:-2} ;;
  long) runs=${2:?usage: run.sh long N [JOBS] [SECONDS]}; jobs=${3:-$(nproc)}; seconds=${4:-} ;;
  pack)
    file=$(realpath -m "${2:?usage: run.sh pack FILE.tar.gz}")
    build_targets
    stage=$(mktemp -d)
    mkdir -p "$stage/bin"
    for t in "${targets[@]}"; do cp "$bin/fuzz_$t" "$stage/bin/"; done
    if [ -n "${KSCOPE_FUZZ_SEEDS:-}" ]; then cp -r "$KSCOPE_FUZZ_SEEDS" "$stage/seeds"; else bash "$here/seeds.sh" "$stage/seeds" >/dev/null; fi
    tar -C "$stage" -czf "$file" bin seeds
    rm -rf "$stage"
    echo "fuzz: packed ${#targets[@]} targets and their seeds into $file ($(du -h "$file" | cut -f1))"
    exit 0 ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
esac
build_targets
work=${KSCOPE_FUZZ_WORK:-$build/fuzz-work}
if [ -n "${KSCOPE_FUZZ_SEEDS:-}" ]; then
  seeds=$(realpath "$KSCOPE_FUZZ_SEEDS")
else
  seeds=$work/seeds
  rm -rf "$seeds"
  bash "$here/seeds.sh" "$seeds"
fi
# Readable stack traces when llvm-symbolizer is there (Debian: llvm).
sym=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
[ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH=$sym
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
timeout=10
rss=2048
# The smoke run starts from the seeds alone, so its time does not grow with the corpus; long runs keep theirs.
corpora=$work/corpus
if [ "$mode" = smoke ]; then
  corpora=$work/smoke-corpus
  rm -rf "$corpora"
  run_all "$jobs" "" -max_total_time="$seconds"
else
  timeout=25
  run_all "$jobs" "$runs" ${seconds:+-max_total_time="$seconds"}
fi
