#!/usr/bin/env bash
# `kscope batch --gpus all` against the same batch on one GPU, back to back on one machine with several GPUs,
# and one candidate timed on GPU 0 alone and with GPU 1 busy timing a batch. Stages, in the order given
# (default: all of them):
#
#   build      configure and build kscope and kscope-runner (shared/gpu/README.md recipe)
#   fixcheck   L2/37, L2/49, L2/87 with `--gpus 0` on an empty build cache (CuPy's cache, Inductor's workers)
#   warm       a two-entry `--gpus all` batch (checks the per-GPU runners start; warms the page cache and
#              the driver for both timed batches alike)
#   one        the subset with `--gpus 0` (one timing runner, on GPU 0)
#   all        the same subset with `--gpus all` (one timing runner per GPU)
#   shared     the subset as a one-GPU batch runs by default: 4 runners on GPU 0, checks side by side
#   all-shared the subset with `--gpus all --timing-jobs 4` (4 runners on each GPU, as `shared` on one)
#   prebuild   `kscope batch --build-only` over the subset: every extension into the build cache, so that
#              the timed batches after it all find them built (the whole release: SUBSET_COUNT=all)
#   neighbour  one runner on GPU 0 evaluates NEIGHBOUR_TASK 5 times alone, then 5 times while
#              `kscope batch --gpus 1` times the subset on GPU 1 (nvidia-smi samples both GPUs' load)
#   neighbour-gemm  the same candidate, 5 passes alone and 5 beside a heavy neighbour (back-to-back bf16
#              GEMMs on GPU 1, paused between passes: alone and busy alternate)
#   report     bench/multi_gpu_report.py: the table of docs/multi-gpu.md
#
#   here, once:   bash bench/gpu/multi-gpu-batch.sh prepare   (fills .deps, writes the subset)
#   device `run`: bash bench/gpu/multi-gpu-batch.sh           (kind nvidia-h100-x2, carry [".deps"])
#
# The subset: SUBSET_COUNT (default 32) entries of the CUDA-L1 H100 release, levels 1-2, programs that build
# no extension (a cold build stage would cost minutes of the device budget and time nothing), spread evenly
# over the task ids; bench/multi_gpu_subset.py writes it. SUBSET_COUNT=all: the whole release (then run
# `prebuild` before the timed stages). The stages share GPU_TOTAL_S (default 420 s).
# Everything lands in $OUT: the batch outputs gzipped, the logs, the report.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source "$root/bench/gpu/build-lib.sh"
total=${GPU_TOTAL_S:-420}
OUT=${OUT:-$root/out/multi-gpu}
data_dir=$root/.deps/multi-gpu
state=/tmp/kscope-multi-gpu
build=${BUILD_DIR:-$gpu_build_dir}  # BUILD_DIR: an existing build (a CPU dry run here: DEVICE=cpu)
mkdir -p "$OUT" "$state"
log() { echo "== $(date +%T) $*" | tee -a "$OUT/session.log"; }
left() { echo $((total - SECONDS)); }

if [[ ${1:-} == prepare ]]; then
  set -e
  [[ -f .deps/include/sqlite3.h ]] || bash ../shared/gpu/carry-deps.sh
  mkdir -p "$data_dir"
  count=${SUBSET_COUNT:-32}
  if [[ $count == all ]]; then size=(--whole); else size=(--count "$count"); fi
  python3 bench/multi_gpu_subset.py ../shared/datasets/cuda-l1/h100.jsonl "$data_dir" \
    "${size[@]}" --neighbour "${NEIGHBOUR_TASK:-1/60}"
  du -sh .deps
  exit 0
fi
[[ -f $data_dir/subset.jsonl ]] || { echo "no $data_dir/subset.jsonl: run '$0 prepare' here first"; exit 2; }
export XDG_CACHE_HOME=$state/xdg
stages=("$@")
((${#stages[@]})) || stages=(build warm one all neighbour shared report)
device=${DEVICE:-cuda}

# batch NAME FILE ARGS...: kscope batch FILE ARGS... into $state/NAME.jsonl; its wall time into NAME.wall
batch() {
  local name=$1 file=$2 budget
  shift 2
  budget=$(($(left) - 10))
  ((budget > 20)) || { log "no time left for $name"; return 1; }
  rm -f "$state/$name.jsonl"
  local t0
  t0=$(date +%s.%N)
  timeout -s INT "$budget" "$build/bin/kscope" batch "$file" --device "$device" "$@" \
    --out "$state/$name.jsonl" --no-store 2> "$state/$name.log"
  local rc=$?
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)" \
    > "$state/$name.wall"
  log "$name ($*): exit $rc, $(cat "$state/$name.wall") s, $(wc -l < "$state/$name.jsonl") lines"
  grep -E "^kscope batch: (timing on|builds|interrupted)" "$state/$name.log" | head -3 | tee -a "$OUT/session.log"
  tail -2 "$state/$name.log" | tee -a "$OUT/session.log"
  return $rc
}

# `all`, as a user types it, where the driver lists its GPUs in /proc (gpu_list.h); where a container hides
# that folder, the ids nvidia-smi gives (said in the log: then `all` itself was not what ran)
gpus_all() {
  if compgen -G "/proc/driver/nvidia/gpus/*" > /dev/null || [[ -n ${CUDA_VISIBLE_DEVICES:-} || -n ${KSCOPE_GPU_LIST:-} ]]; then
    echo all
  else
    nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -
  fi
}

for stage in "${stages[@]}"; do
  case $stage in
  build)
    log "machine: $(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | tr '\n' ';'), $(nproc) cores"
    log "driver's GPU list: $(ls /proc/driver/nvidia/gpus 2>&1 | tr '\n' ' ')"
    nvidia-smi topo -m > "$OUT/topology.txt" 2>&1
    gpu_prefix_paths
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner
    status=$?
    log "build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  fixcheck)  # the programs containment broke in the first run, on a cold build cache (docs/security.md)
    batch fixcheck "$data_dir/fixcheck.jsonl" --gpus 0
    ;;
  warm)
    batch warm "$data_dir/warm.jsonl" --gpus "$(gpus_all)"
    ;;
  one)
    batch one "$data_dir/subset.jsonl" --gpus 0
    ;;
  all)
    batch all "$data_dir/subset.jsonl" --gpus "$(gpus_all)"
    ;;
  shared)  # for comparison: the default one-GPU batch, 4 runners sharing GPU 0 (checks side by side)
    CUDA_VISIBLE_DEVICES=0 batch shared "$data_dir/subset.jsonl" --timing-jobs 4
    ;;
  all-shared)  # every GPU the way `shared` uses one: 4 runners on each
    batch all-shared "$data_dir/subset.jsonl" --gpus "$(gpus_all)" --timing-jobs 4
    ;;
  prebuild)
    batch prebuild "$data_dir/subset.jsonl" --build-only
    ;;
  neighbour | neighbour-gemm)
    ((($(left)) > 60)) || { log "no time left for $stage"; continue; }
    kind=batch
    [[ $stage == neighbour-gemm ]] && kind=gemm
    nvidia-smi --query-gpu=timestamp,index,utilization.gpu,power.draw,clocks.sm,temperature.gpu \
      --format=csv,noheader -lms 500 > "$state/smi-$stage.csv" 2>&1 &
    smi=$!
    mkdir -p "$state/$stage"
    log "$stage: neighbour kind $kind"
    timeout "$(($(left) - 10))" python3 bench/multi_gpu_neighbour.py --runner "$build/bin/kscope-runner" \
      --kscope "$build/bin/kscope" --requests "$data_dir/neighbour.jsonl" --load "$data_dir/subset.jsonl" \
      --device "$device" --state "$state/$stage" --out "$state/$stage.jsonl" --load-kind "$kind" 2>&1 |
      tee -a "$OUT/session.log"
    kill "$smi" 2> /dev/null
    ;;
  report)
    python3 bench/multi_gpu_report.py --state "$state" --subset "$data_dir/subset.jsonl" \
      > "$OUT/multi-gpu.md" 2> "$OUT/report.err"
    log "report: exit $?"
    sed -n '/^## Summary/,/^## /p' "$OUT/multi-gpu.md" | tee -a "$OUT/session.log"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
# What comes back: at most 8 files (session.log, build.log, topology.txt, multi-gpu.md, report.err and this tar).
tar -czf "$OUT/state.tar.gz" -C "$state" --exclude xdg --exclude neighbour --exclude neighbour-gemm . 2> /dev/null
log "done in $SECONDS s; $(ls "$OUT" | tr '\n' ' ')"
