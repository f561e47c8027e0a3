#!/usr/bin/env bash
# On the GPU machine: times every candidate of the search case study (sample_runs/search-softmax.kscope.jsonl,
# 13 load_inline kernels over four rounds) with `kscope batch`, writes what it measured back into the case
# folder's measured.json (bench/search_case_study_record.py: speedups and medians of the correct ones, the
# verdict and its reason for the others) and rebuilds the run file (sample_runs/make_samples.py), so the
# sample carries real numbers.
#
#   bash bench/gpu/search-case-study.sh STATE_DIR STAGE...
#
# Stages, in the order given:
#   fresh    empties STATE_DIR first
#   build    configure and build kscope and kscope-runner (bench/gpu/build-lib.sh)
#   time     kscope batch --device cuda: builds on $JOBS runners, then one timing runner; results in
#            STATE_DIR/batch.jsonl; resumable (entries already there are skipped), so repeat it while it is
#            cut short
#   record   measured.json from STATE_DIR/batch.jsonl into sample_runs/search-softmax/ and $OUT, and the
#            rebuilt run file into sample_runs/ and $OUT
#
# Example:
#   device `run`: bash bench/gpu/search-case-study.sh /tmp/kscope-search build time record   (carry: [".deps"])
#   here, after:  copy $OUT/measured.json to sample_runs/search-softmax/ and run
#                 python3 sample_runs/make_samples.py (or take $OUT/search-softmax.kscope.jsonl as is)
# Every stage stops itself before GPU_TOTAL_S (default 570 s), so one device `run` ends cleanly.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
state=${1:?usage: search-case-study.sh STATE_DIR STAGE...}
shift
total=${GPU_TOTAL_S:-570}
jobs=${JOBS:-8}
run_file=$root/sample_runs/search-softmax.kscope.jsonl
case_dir=$root/sample_runs/search-softmax
OUT=${OUT:-$root/out/search-case-study}
mkdir -p "$OUT" "$state"
export XDG_CACHE_HOME=$state/xdg
log() { echo "== $(date +%T) $*" | tee -a "$OUT/session.log"; }
left() { echo $((total - SECONDS)); }

for stage in "$@"; do
  case $stage in
  fresh)
    rm -rf "$state" && mkdir -p "$state"
    log "fresh: $state emptied"
    ;;
  build)
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    source "$root/bench/gpu/build-lib.sh"
    gpu_prefix_paths
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner
    status=$?
    log "build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  time)
    source "$root/bench/gpu/build-lib.sh"
    budget=$(($(left) - 20))
    ((budget > 30)) || { log "no time left to time"; exit 1; }
    t0=$SECONDS
    timeout -s INT "$budget" "$gpu_build_dir/bin/kscope" batch "$run_file" --device cuda --jobs "$jobs" \
      --out "$state/batch.jsonl" --store "$state/results.db" 2>> "$state/time.log"
    log "time: exit $?, $((SECONDS - t0)) s, $(wc -l < "$state/batch.jsonl" 2>/dev/null || echo 0) of 13 candidates done"
    grep -E "^\[|^kscope batch" "$state/time.log" | tail -20 | tee -a "$OUT/session.log"
    ;;
  record)
    [[ -s $state/batch.jsonl ]] || { log "record: no $state/batch.jsonl (run the time stage first)"; exit 1; }
    python3 bench/search_case_study_record.py "$state/batch.jsonl" "$case_dir" | tee -a "$OUT/session.log" &&
      python3 sample_runs/make_samples.py | tee -a "$OUT/session.log" || exit 1
    cp "$case_dir/measured.json" "$OUT/measured.json"
    cp "$run_file" "$OUT/"
    log "record: $OUT/measured.json and $OUT/$(basename "$run_file")"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
[[ -f $state/batch.jsonl ]] && cp "$state/batch.jsonl" "$OUT/batch.jsonl"
log "done in $SECONDS s"
