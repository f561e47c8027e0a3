# shellcheck shell=bash
# The configure-and-build step of the GPU-machine scripts (the shared/gpu/README.md recipe), sourced by
# bench/gpu/engine-check.sh, bench/gpu/hack-corpus.sh and bench/gpu/cuda-l1-batch.sh, which all build into
# the one folder below (so a build left by one of them is reused by the next). Not meant to be run.
#
#   gpu_prefix_paths                       sets TP (torch's CMake prefix path) and PB (pybind11's CMake dir)
#   gpu_build SECONDS LOGFILE TARGET...    configures $gpu_build_dir and builds TARGET... under
#                                          `timeout SECONDS`, stdout and stderr to LOGFILE; returns the exit
#                                          status (124 on timeout); calls gpu_prefix_paths first if the caller
#                                          has not
#   GPU_CMAKE_ARGS                         more cmake arguments for the configure step, split at spaces
#                                          (e.g. -DKSCOPE_UNITY_BUILD=OFF for one translation unit a file)

gpu_build_dir=/tmp/kscope-engine-check
gpu_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
gpu_paths_set=

gpu_prefix_paths() {
  TP=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
  PB=$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')
  gpu_paths_set=1
}

gpu_build() {
  local seconds=$1 logfile=$2
  shift 2
  [[ -n $gpu_paths_set ]] || gpu_prefix_paths
  # shellcheck disable=SC2016  # the inner shell expands them, from its positional parameters
  (
    cd "$gpu_root" &&
    timeout "$seconds" bash -c '
      build=$1 prefix=$2 root=$3 extra=$4
      shift 4
      # shellcheck disable=SC2086  # GPU_CMAKE_ARGS is a list of arguments
      cmake -S . -B "$build" -G Ninja -DKSCOPE_GUI=OFF -DCMAKE_PREFIX_PATH="$prefix" \
            -DPython3_EXECUTABLE="$(which python3)" -DGTEST_SOURCE_DIR="$root/.deps/src/googletest" $extra &&
      cmake --build "$build" -j"$(nproc)" --target "$@"
    ' gpu_build "$gpu_build_dir" "$TP;$PB;$gpu_root/.deps" "$gpu_root" "${GPU_CMAKE_ARGS:-}" "$@"
  ) > "$logfile" 2>&1
}
