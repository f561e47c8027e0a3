#!/usr/bin/env bash
# Timing-noise diagnosis on the GPU machine: builds kscope-runner (bench/gpu/build-lib.sh) and runs
# bench/gpu/timing_noise.py over a few CUDA-L1 entries whose speedup moved between two batch runs, under the
# conditions given (default: quiet share quiet more burn). Output in $OUT: noise.txt (the table) and
# noise.json (every trial).
#
#   here, once:    bash bench/gpu/engine-check.sh prepare && cp ../shared/datasets/cuda-l1/h100.jsonl .deps/datasets/
#   device `run`:  bash bench/gpu/timing-noise.sh   (carry: [".deps"], timeout_s: 600)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source "$root/bench/gpu/build-lib.sh"
total=${GPU_TOTAL_S:-580}
OUT=${OUT:-$root/out/timing-noise}
mkdir -p "$OUT"
data=$root/.deps/datasets/h100.jsonl
[[ -f $data ]] || { echo "no $data: run the 'here, once' line of this script's header"; exit 2; }
conditions=("$@")
((${#conditions[@]})) || conditions=(quiet share quiet more burn)
echo "machine: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | head -1), $(nproc) cores" | tee "$OUT/noise.txt"
if [[ ! -x $gpu_build_dir/bin/kscope-runner ]]; then
  gpu_build $((total - 200)) "$OUT/build.log" kscope-runner || { tail -30 "$OUT/build.log"; exit 1; }
  echo "build: $SECONDS s" | tee -a "$OUT/noise.txt"
fi
# Containment lets the runner write only its scratch, the default build cache and KSCOPE_WRITABLE.
KSCOPE_WRITABLE=/tmp/kscope-noise python3 "$root/bench/gpu/timing_noise.py" "$gpu_build_dir/bin/kscope-runner" "$data" /tmp/kscope-noise/cache \
  "$OUT" $((total - SECONDS - 10)) "${conditions[@]}" 2>&1 | tee -a "$OUT/noise.txt"
