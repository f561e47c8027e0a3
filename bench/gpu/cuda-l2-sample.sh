#!/usr/bin/env bash
# On the GPU machine (docs/cuda-l2-h100.md): re-time a stratified sample of CUDA-L2's H100 kernels through the
# runner's GEMM path and print, per shape, correct?, padded?, measured vs recorded speedup per baseline
# (torch.matmul, cuBLAS/cuBLASLt TN, NN and their -max) and per timing method (CUDA-L2's offline and server,
# KernelScope's L2-flushed and warm: core/stats/gemm_methods.h), build time, cache hit and ptxas resources,
# then the summary (how many within 10 % of the recorded offline speedup over torch.matmul and over
# cuBLAS-max, median |ln(measured/recorded)|) and the warm re-time (bench/cuda_l2_sample.py report).
#
#   bash bench/gpu/cuda-l2-sample.sh STATE_DIR STAGE...
#
# Stages, in the order given:
#   prepare  (here, not on the device; SAMPLE_COUNT=N for another size, rounded up to tens) the sample: ../shared/gpu/carry-deps.sh (.deps: build deps and CUTLASS
#            4.2.1's headers in .deps/cutlass), then bench/cuda_l2_sample.py prepare into
#            .deps/datasets/cuda-l2-sample (70 kernels, every M, N and K size seven times; seed fixed)
#   build    configure and build kscope and kscope-runner (bench/gpu/build-lib.sh)
#   compile  kscope batch --build-only: every sampled kernel built by $JOBS runners at once into the build
#            cache under STATE_DIR (65-270 s a kernel on the H100 machine); resumable: what is cached is a
#            cache hit next time, so repeat the stage until its log says every build came from the cache
#   time     kscope batch (one timing runner), results appended to STATE_DIR/batch.jsonl; resumable (entries
#            already there are skipped), so repeat it while it is cut short. Each correct shape is timed
#            against all seven baselines by all four methods (~1 s a method, plus cuBLASLt's auto-tuning)
#   warm     click to number: a `kscope serve` warm runner, then `kscope run` of one cached shape twice; the
#            wall time of each into STATE_DIR/warm.log (the report quotes it)
#   report   the table and summary into $OUT/cuda-l2-sample.md, and on stdout
#   fresh    empties STATE_DIR first
#
# Every stage stops itself before GPU_TOTAL_S (default 570 s) so one device `run` (10-minute limit) ends
# cleanly; STATE_DIR (e.g. /tmp/kscope-l2) outlives calls while the machine stays warm. Example:
#   here:         bash bench/gpu/cuda-l2-sample.sh /tmp/kscope-l2 prepare
#   device `run`: bash bench/gpu/cuda-l2-sample.sh /tmp/kscope-l2 build compile   (carry: [".deps"])
#   then:         bash bench/gpu/cuda-l2-sample.sh /tmp/kscope-l2 compile         (until all cached)
#   then:         bash bench/gpu/cuda-l2-sample.sh /tmp/kscope-l2 time report     (repeat while cut short)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
state=${1:?usage: cuda-l2-sample.sh STATE_DIR STAGE...}
shift
total=${GPU_TOTAL_S:-570}
jobs=${JOBS:-12}
sample=$root/.deps/datasets/cuda-l2-sample
OUT=${OUT:-$root/out/cuda-l2-sample}
mkdir -p "$OUT" "$state"
export XDG_CACHE_HOME=$state/xdg
export CUTLASS_DIR=${CUTLASS_DIR:-$root/.deps/cutlass}
log() { echo "== $(date +%T) $*" | tee -a "$OUT/session.log"; }
left() { echo $((total - SECONDS)); }

batch() {  # batch NAME [kscope batch options...]: for what time is left, interrupted cleanly at its end
  local name=$1 budget t0=$SECONDS
  shift
  budget=$(($(left) - 20))
  ((budget > 30)) || { log "no time left for $name"; return 1; }
  local tasks=()
  while read -r key; do tasks+=(--task "$key"); done < "${SHAPES_FILE:-$sample/shapes.txt}"
  ((${#tasks[@]} > 0)) || { log "$name: no shapes"; return 0; }
  source "$root/bench/gpu/build-lib.sh"
  timeout -s INT "$budget" "$gpu_build_dir/bin/kscope" batch "$sample" --device cuda "${tasks[@]}" \
    --store "$state/results.db" "$@" 2>> "$state/$name.log"
  local rc=$?
  log "$name: exit $rc, $((SECONDS - t0)) s"
  grep -E "^kscope batch: (builds|interrupted)" "$state/$name.log" | tail -2 | tee -a "$OUT/session.log"
  return $rc
}

for stage in "$@"; do
  case $stage in
  fresh)
    rm -rf "$state" && mkdir -p "$state"
    log "fresh: $state emptied"
    ;;
  prepare)
    bash ../shared/gpu/carry-deps.sh && bash bench/gpu/carry-extra.sh || exit 2
    rm -rf "$sample"
    python3 bench/cuda_l2_sample.py prepare ../shared/datasets/cuda-l2 "$sample" --count "${SAMPLE_COUNT:-70}" || exit 2
    du -sh "$root/.deps"
    ;;
  build)
    [[ -f $sample/shapes.txt ]] || { echo "no $sample: run the prepare stage here first"; exit 2; }
    [[ -f $CUTLASS_DIR/include/cute/tensor.hpp ]] || { echo "no CUTLASS at CUTLASS_DIR=$CUTLASS_DIR"; exit 2; }
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    source "$root/bench/gpu/build-lib.sh"
    gpu_prefix_paths
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner
    status=$?
    log "build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  compile)
    batch compile --build-only --jobs "$jobs"
    ;;
  time)
    # Shapes the compile stage built first: a kernel it did not build (cut short, or its build failed) is
    # compiled inside the timing runner, minutes each (the 170-200 s stalls of the first H100 run were such
    # shapes: no cold build in the compile log), so those come last, after everything that can time at once.
    python3 bench/cuda_l2_sample.py order "$sample/shapes.txt" --compile-log "$state/compile.log" > "$state/time-first.txt"
    log "time: $(wc -l < "$state/time-first.txt") of $(wc -l < "$sample/shapes.txt") shapes built by the compile stage go first"
    SHAPES_FILE=$state/time-first.txt batch time --no-prebuild --out "$state/batch.jsonl"
    batch time --no-prebuild --out "$state/batch.jsonl"
    [[ -f $state/batch.jsonl ]] && log "time: $(wc -l < "$state/batch.jsonl") of $(wc -l < "$sample/shapes.txt") shapes done"
    ;;
  warm)
    source "$root/bench/gpu/build-lib.sh"
    key=$(head -1 "$sample/shapes.txt")
    "$gpu_build_dir/bin/kscope" serve --device cuda >> "$state/serve.log" 2>&1 &
    serve_pid=$!
    for _ in $(seq 1 120); do grep -q "warmed up in" "$state/serve.log" 2>/dev/null && break; sleep 1; done
    for i in 1 2; do
      t0=$(date +%s.%N)
      timeout 300 "$gpu_build_dir/bin/kscope" run "$sample" --task "$key" --device cuda --no-store \
        > "$state/warm-$i.txt" 2>&1
      rc=$?
      t1=$(date +%s.%N)
      echo "$key: kscope run $i through kscope serve: $(python3 -c "print(f'{$t1 - $t0:.1f}')") s click to number (exit $rc)" \
        | tee -a "$state/warm.log" | tee -a "$OUT/session.log"
    done
    kill -INT "$serve_pid" 2>/dev/null
    wait "$serve_pid" 2>/dev/null
    cp "$state"/warm-*.txt "$OUT/" 2>/dev/null
    ;;
  report)
    python3 bench/cuda_l2_sample.py report "$sample" "$state/batch.jsonl" --compile-log "$state/compile.log" \
      --warm-log "$state/warm.log" > "$OUT/cuda-l2-sample.md"
    sed -n '/^## Summary/,$p' "$OUT/cuda-l2-sample.md"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
[[ -f $state/batch.jsonl ]] && gzip -c "$state/batch.jsonl" > "$OUT/batch.jsonl.gz"
grep -hE "error|failed" "$state"/*.log 2>/dev/null | tail -100 > "$OUT/batch-errors.log"
log "done in $SECONDS s"
