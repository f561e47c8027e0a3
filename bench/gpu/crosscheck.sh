#!/usr/bin/env bash
# Method fidelity on the GPU machine (docs/method-fidelity.md): CUDA-L2's own benchmarking_offline.py and
# KernelScope's cuda-l2-offline (core/engine/cuda_l2_method.h) on the same kernels, same GPU, interleaved,
# repeated; the table from bench/crosscheck.py report.
#
#   here:          bash bench/gpu/crosscheck.sh prepare     (CROSSCHECK_SHAPES=M_N_K,... CROSSCHECK_FUNCS=...)
#   device `run`:  bash bench/gpu/crosscheck.sh build time report         (carry [".deps"])
#   again, while the machine is warm:  bash bench/gpu/crosscheck.sh time report
#
# Stages, in the order given:
#   prepare  ../shared/gpu/carry-deps.sh and bench/gpu/carry-extra.sh (.deps: build deps, CUTLASS headers),
#            then bench/crosscheck.py prepare: the shapes as a small release plus the harness into .deps/crosscheck
#   build    at once: kscope and kscope-runner (bench/gpu/build-lib.sh); CUDA-L2's extension per shape, built by
#            its own harness (a run of benchmarking_offline.py of no seconds, in a scratch copy under STATE;
#            -fuse-ld=lld dropped there when ld.lld is missing); then KernelScope's kernel builds
#            (kscope batch --build-only)
#   time     one repeat more: per shape (in an order that alternates between repeats) the harness once per
#            baseline (CROSSCHECK_FUNCS) and `kscope run` once for the same baselines by cuda-l2-offline and
#            KernelScope's own two methods, the harness first on odd repeats and KernelScope first on even;
#            both with CROSSCHECK_WARMUP_S / CROSSCHECK_SECONDS (default 0.5 / 1)
#   report   bench/crosscheck.py report into $OUT/crosscheck.md and on stdout
#   gap      one repeat more of the cuBLAS-gap split (docs/method-fidelity.md, "The cuBLAS gap"): per shape
#            bench/cublas_gap.py in the harness's folder (the harness's protocol, each baseline call split into
#            host, launch and device time, its kernels named) and `kscope run` of the same shape, alternating
#            which goes first; into STATE/gap/<repeat>
#   gap-report  bench/cublas_gap.py report into $OUT/cublas-gap.md and on stdout
#
# STATE is /tmp/kscope-crosscheck (CROSSCHECK_STATE); it outlives calls while the machine stays warm. Every
# stage stops before GPU_TOTAL_S (default 570) so one device call ends cleanly.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
prep=$root/.deps/crosscheck
state=${CROSSCHECK_STATE:-/tmp/kscope-crosscheck}
total=${GPU_TOTAL_S:-570}
warm_s=${CROSSCHECK_WARMUP_S:-0.5}
secs=${CROSSCHECK_SECONDS:-1}
OUT=${OUT:-$root/out/crosscheck}
mkdir -p "$OUT" "$state"
export XDG_CACHE_HOME=$state/xdg
export CUTLASS_DIR=${CUTLASS_DIR:-$root/.deps/cutlass}
export TORCH_CUDA_ARCH_LIST=9.0a  # CUDA-L2's README: Hopper
log() { echo "== $(date +%T) $*" | tee -a "$OUT/crosscheck.log"; }
left() { echo $((total - SECONDS)); }
release=h100_F32F16F16F32

seed_copy() {  # the harness in a scratch folder, the kernels where it looks for them
  local dir=$state/seed-harness
  [[ -d $dir ]] && return 0
  cp -r "$prep/harness" "$dir"
  mkdir -p "$dir/kernels"
  cp -r "$prep/release/kernels/$release" "$dir/kernels/"
  if ! command -v ld.lld > /dev/null; then
    sed -i 's/, "-fuse-ld=lld"//' "$dir/tools/utils.py"
    log "no ld.lld here: -fuse-ld=lld dropped in the scratch copy ($dir/tools/utils.py)"
  fi
}

seed_run() {  # seed_run SHAPE FUNC WARMUP SECONDS LOG
  (cd "$state/seed-harness" &&
    timeout "$(($(left) > 20 ? $(left) - 10 : 10))" python3 benchmarking_offline.py --mnk "$1" --acc_precise fp32 \
      --device_type h100 --warmup_seconds "$3" --benchmark_seconds "$4" --base_dir "$state/seed-build/$1" \
      --gpu_device_id 0 --perf_func "$2") >> "$5" 2>&1
}

ours_run() {  # ours_run SHAPE OUTFILE
  local key=$release/${1//_/x} args=()
  while read -r f; do args+=(--gemm-baseline "$(python3 -c "import sys; sys.path.insert(0, 'bench'); import crosscheck; print(crosscheck.PERF_FUNCS['$f'])")"); done < "$prep/funcs.txt"
  timeout "$(($(left) > 20 ? $(left) - 10 : 10))" "$gpu_build_dir/bin/kscope" run "$prep/release" --task "$key" \
    --device cuda --seeds 1 --no-store --no-server --json --gemm-seconds "$warm_s,$secs" "${args[@]}" \
    --gemm-method cuda-l2-offline --gemm-method kscope-l2-flushed --gemm-method kscope-l2-warm \
    > "$2" 2>> "$state/ours.log"
}

source "$root/bench/gpu/build-lib.sh"
for stage in "$@"; do
  case $stage in
  prepare)
    bash ../shared/gpu/carry-deps.sh && bash bench/gpu/carry-extra.sh || exit 2
    rm -rf "$prep"
    python3 bench/crosscheck.py prepare ../shared/datasets/cuda-l2 "$prep" \
      ${CROSSCHECK_SHAPES:+--shapes "$CROSSCHECK_SHAPES"} ${CROSSCHECK_FUNCS:+--funcs "$CROSSCHECK_FUNCS"} || exit 2
    du -sh "$root/.deps"
    ;;
  build)
    [[ -f $prep/shapes.txt ]] || { echo "no $prep: run the prepare stage here first"; exit 2; }
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    log "python: $(python3 -c 'import torch, pandas, tabulate; print("torch", torch.__version__, "pandas", pandas.__version__)' 2>&1 | tail -1)"
    seed_copy
    gpu_prefix_paths
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner &
    build_pid=$!
    # CUDA-L2's extension per shape, by its own harness (a session of no seconds builds and loads it).
    mkdir -p "$state/seed-build"
    seed_pids=()
    while read -r s; do
      mkdir -p "$state/seed-build/$s"
      MAX_JOBS=3 seed_run "$s" matmul 0 0 "$state/seed-build/$s.log" &
      seed_pids+=($!)
    done < "$prep/shapes.txt"
    wait "$build_pid"
    status=$?
    log "kscope build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    tasks=()
    while read -r s; do tasks+=(--task "$release/${s//_/x}"); done < "$prep/shapes.txt"
    timeout "$(($(left) - 20))" "$gpu_build_dir/bin/kscope" batch "$prep/release" --device cuda "${tasks[@]}" \
      --build-only --jobs 5 --store "$state/results.db" > "$state/ours-build.log" 2>&1
    log "KernelScope kernel builds: exit $? ($(grep -c 'cache hit\|built' "$state/ours-build.log") lines)"
    for p in "${seed_pids[@]}"; do wait "$p"; done
    while read -r s; do
      log "CUDA-L2 harness build $s: $(grep -E 'Load hgemm module time|Error|error' "$state/seed-build/$s.log" | head -2 | tr '\n' ' ')"
    done < "$prep/shapes.txt"
    ;;
  time)
    rep=$(($(ls "$state/seed" 2>/dev/null | wc -l) + 1))
    r=$(printf '%02d' "$rep")
    mkdir -p "$state/seed/$r" "$state/ours/$r"
    log "repeat $r"
    mapfile -t shapes < "$prep/shapes.txt"
    ((rep % 2 == 0)) && mapfile -t shapes < <(printf '%s\n' "${shapes[@]}" | tac)
    for s in "${shapes[@]}"; do
      (($(left) > 60)) || { log "no time left for $s"; break; }
      mkdir -p "$state/seed/$r/$s"
      seed_side() {
        while read -r f; do
          rm -f "$state/seed-build/$s/benchmark_result_$f.json"
          seed_run "$s" "$f" "$warm_s" "$secs" "$state/seed/$r/$s/harness.log"
          cp "$state/seed-build/$s/benchmark_result_$f.json" "$state/seed/$r/$s/$f.json" 2>/dev/null ||
            log "$s $f: the harness wrote no result (see harness.log)"
        done < <(shuf "$prep/funcs.txt")
      }
      if ((rep % 2)); then
        seed_side
        ours_run "$s" "$state/ours/$r/$s.json"
      else
        ours_run "$s" "$state/ours/$r/$s.json"
        seed_side
      fi
      log "$s done ($(left) s left)"
    done
    ;;
  gap)
    rep=$(($(ls "$state/gap" 2>/dev/null | wc -l) + 1))
    r=$(printf '%02d' "$rep")
    mkdir -p "$state/gap/$r"
    log "gap repeat $r; kscope-runner's libcublas: $(ldd "$gpu_build_dir/bin/kscope-runner" | grep -o 'libcublas[^ ]* => [^ ]*' | tr '\n' ' ')"
    while read -r s; do
      (($(left) > 60)) || { log "no time left for $s"; break; }
      seed_gap() {
        (cd "$state/seed-harness" && timeout "$(($(left) > 20 ? $(left) - 10 : 10))" python3 "$root/bench/cublas_gap.py" \
          "$s" "$state/seed-build/$s" "$secs" "$(paste -sd, "$prep/funcs.txt")" "$state/gap/$r/$s.harness.json") \
          >> "$state/gap/$r/harness.log" 2>&1 || log "$s: cublas_gap.py failed (see gap/$r/harness.log)"
      }
      if ((rep % 2)); then seed_gap; ours_run "$s" "$state/gap/$r/$s.ours.json"
      else ours_run "$s" "$state/gap/$r/$s.ours.json"; seed_gap; fi
      log "$s gap done ($(left) s left)"
    done < "$prep/shapes.txt"
    ;;
  gap-report)
    python3 bench/cublas_gap.py report "$state" | tee "$OUT/cublas-gap.md"
    ;;
  report)
    python3 bench/crosscheck.py report "$prep" "$state" \
      --gpu "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" | tee "$OUT/crosscheck.md"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
kept=$(cd "$state" && ls -d seed ours gap 2>/dev/null)
[[ -n $kept ]] && tar -czf "$OUT/state.tar.gz" -C "$state" $kept
cp "$state"/ours.log "$OUT/" 2>/dev/null
for f in "$state"/gap/*/harness.log; do [[ -f $f ]] && cp "$f" "$OUT/gap-$(basename "$(dirname "$f")")-harness.log"; done
log "done in $SECONDS s"
