#!/usr/bin/env bash
# Builds the load benchmark, generates a run file of CANDIDATES candidates (once) and prints a markdown table
# of load and summarize times, peak RSS and resident bytes per candidate for the CUDA-L1 release, the CUDA-L2
# release (1000 kernels; target < 1 s) and the generated file. With GUI=1 it also builds bench_gui and prints
# the GUI tables for the generated file (open -> first paint with its breakdown by stage, memory, filters and
# sorts) and for a one-task search of SEARCH_CANDIDATES candidates (the Search tab); docs/performance.md holds
# the figures.
#   BUILD_DIR          build folder (default: build-bench; with GUI=1 the GUI is built there too)
#   CANDIDATES         size of the generated run (default: 100000; the RL-scale target is 1000000, 4.5 GB)
#   DATA_DIR           where generated files go (default: $BUILD_DIR/bench; put big ones under /tmp)
#   GUI=1              also run bench_gui; SEARCH_CANDIDATES (default 100000) sizes its one-task search;
#                      WAIT_FLAGS=1 waits for the static checks of a run above 200 000 candidates too
#   JOBS               build jobs (default: nproc)
#   CONFIGURE=0        use BUILD_DIR as it is configured (e.g. the project's build/) instead of a Release one
# The machine's load is printed with the tables: timings on a shared machine move with it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-bench}"
candidates="${CANDIDATES:-100000}"
search_candidates="${SEARCH_CANDIDATES:-100000}"
data="${DATA_DIR:-$build/bench}"
gui="${GUI:-0}"
cuda_l1="$root/../shared/datasets/cuda-l1/h100.jsonl"

gui_flag=OFF
targets=(generate_run bench_load)
if [[ "$gui" == 1 ]]; then gui_flag=ON; targets+=(bench_gui); fi
if [[ "${CONFIGURE:-1}" == 1 ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKSCOPE_GUI="$gui_flag" -DKSCOPE_ENGINE=OFF >/dev/null
fi
cmake --build "$build" --target "${targets[@]}" -j"${JOBS:-$(nproc)}" >/dev/null

mkdir -p "$data"
generated="$data/generated-$candidates.jsonl"
[[ -f "$generated" ]] || "$build/bin/generate_run" "$candidates" "$generated"

cuda_l2="$root/../shared/datasets/cuda-l2"
files=("$generated")
if [[ -f "$cuda_l1" ]]; then files=("$cuda_l1" "${files[@]}"); else echo "note: $cuda_l1 not found; skipped" >&2; fi
if [[ -d "$cuda_l2" ]]; then files+=("$cuda_l2"); else echo "note: $cuda_l2 not found; skipped" >&2; fi
echo "machine: $(nproc) hardware threads, $(uname -sr); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bin/bench_load" "${files[@]}"
echo "load average after bench_load: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ "$gui" == 1 ]]; then
  search="$data/generated-search-$search_candidates.jsonl"
  [[ -f "$search" ]] || "$build/bin/generate_run" "$search_candidates" "$search" 1
  gui_args=(--generated "$generated" --search "$search" --search-candidates "$search_candidates")
  # A million candidates' static checks take minutes after the first paint: not waited for (they are
  # cancelled after 20 s, before the filters are timed).
  if (( candidates > 200000 )) && [[ "${WAIT_FLAGS:-0}" != 1 ]]; then gui_args+=(--no-wait-flags); fi
  echo
  QT_QPA_PLATFORM=offscreen "$build/bin/bench_gui" "${gui_args[@]}"
  echo "load average after bench_gui: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
