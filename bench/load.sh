#!/usr/bin/env bash
# Builds the load benchmark, generates a 100 000-candidate run file (once) and prints a markdown table of
# load and summarize times and peak RSS for the CUDA-L1 release, the CUDA-L2 release (1000 kernels; target
# < 1 s) and the generated file.
#   BUILD_DIR   build folder (default: build-bench)   CANDIDATES   size of the generated run (default: 100000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-bench}"
candidates="${CANDIDATES:-100000}"
cuda_l1="$root/../shared/datasets/cuda-l1/h100.jsonl"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKSCOPE_GUI=OFF -DKSCOPE_ENGINE=OFF >/dev/null
cmake --build "$build" --target generate_run bench_load -j"$(nproc)" >/dev/null

generated="$build/bench/generated-$candidates.jsonl"
[[ -f "$generated" ]] || "$build/bin/generate_run" "$candidates" "$generated"

cuda_l2="$root/../shared/datasets/cuda-l2"
files=("$generated")
if [[ -f "$cuda_l1" ]]; then files=("$cuda_l1" "${files[@]}"); else echo "note: $cuda_l1 not found; skipped" >&2; fi
if [[ -d "$cuda_l2" ]]; then files+=("$cuda_l2"); else echo "note: $cuda_l2 not found; skipped" >&2; fi
echo "machine: $(nproc) hardware threads, $(uname -sr)"
"$build/bin/bench_load" "${files[@]}"
