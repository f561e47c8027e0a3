#!/usr/bin/env bash
# Method fidelity on the GPU machine, CUDA-L1 (docs/method-fidelity.md): CUDA-L1's own eval_cuda.py
# (eval_pipeline, as its eval() calls it) and KernelScope's cuda-l1-eval (core/engine/cuda_l1_method.h) on the
# same tasks, same GPU, interleaved, repeated; the table from bench/crosscheck_l1.py report.
#
#   here:          python3 bench/crosscheck_l1.py prepare ../shared/datasets/cuda-l1/h100.jsonl \
#                    ../shared/harnesses/cuda-l1 .deps/crosscheck-l1     (--tasks L1/1,... to choose)
#                  bash ../shared/gpu/carry-deps.sh && bash bench/gpu/carry-extra.sh   (if .deps lacks them)
#   device `run`:  bash bench/gpu/crosscheck-l1.sh build time report        (carry [".deps"])
#   again, while the machine is warm:  bash bench/gpu/crosscheck-l1.sh time report
#
# Stages, in the order given:
#   build   kscope and kscope-runner (bench/gpu/build-lib.sh)
#   time    one repeat more: per task (in an order that alternates between repeats) CUDA-L1's harness in a
#           process of its own and `kscope run --json --cuda-l1-eval` on a `kscope serve` runner, the harness
#           first on odd repeats and KernelScope first on even ones
#   report  bench/crosscheck_l1.py report into $OUT/crosscheck-l1.md and on stdout
#   restore the repeats of an earlier machine: unpacks .deps/crosscheck-l1/state.tar.gz (the state.tar.gz an
#           earlier call brought back, copied there and carried) into STATE, so `time` adds repeats to them
#
# OURS_RUNNER=cold runs each `kscope run` on a runner of its own (--no-server) instead of the warm one, to
# tell what a runner that served earlier requests adds from what the runner's process adds (default warm).
# STATE is /tmp/kscope-crosscheck-l1 (CROSSCHECK_STATE); it outlives calls while the machine stays warm.
# Every stage stops before GPU_TOTAL_S (default 570) so one device call ends cleanly.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
prep=$root/.deps/crosscheck-l1
state=${CROSSCHECK_STATE:-/tmp/kscope-crosscheck-l1}
total=${GPU_TOTAL_S:-570}
OUT=${OUT:-$root/out/crosscheck-l1}
mkdir -p "$OUT" "$state"
export XDG_CACHE_HOME=$state/xdg
log() { echo "== $(date +%T) $*" | tee -a "$OUT/crosscheck-l1.log"; }
left() { echo $((total - SECONDS)); }
[[ -f $prep/tasks.txt ]] || { echo "no $prep: run bench/crosscheck_l1.py prepare here first"; exit 2; }

source "$root/bench/gpu/build-lib.sh"
save_state() { tar -czf "$OUT/state.tar.gz" -C "$state" seed ours harness.out ours.log serve.log 2>/dev/null; }
serve_pid=
serve_start() {
  [[ -n $serve_pid ]] && return 0
  "$gpu_build_dir/bin/kscope" serve --device cuda --idle-exit 900 >> "$state/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 60); do
    "$gpu_build_dir/bin/kscope" serve --device cuda --print-socket > /dev/null 2>&1 &&
      [[ -S $("$gpu_build_dir/bin/kscope" serve --device cuda --print-socket) ]] && return 0
    sleep 1
  done
  log "kscope serve did not come up (see $state/serve.log)"
}
trap '[[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null' EXIT

seed_run() {  # seed_run TASK LOG
  rm -f "$2"
  (cd "$state" && timeout "$(($(left) > 30 ? $(left) - 20 : 10))" python3 "$root/bench/crosscheck_l1.py" harness \
    "$prep" "$1" "$2") >> "$state/harness.out" 2>&1
}
runner_kind=${OURS_RUNNER:-warm}
ours_run() {  # ours_run TASK OUTFILE
  local cold=()
  [[ $runner_kind == cold ]] && cold=(--no-server)
  timeout "$(($(left) > 30 ? $(left) - 20 : 10))" "$gpu_build_dir/bin/kscope" run "$prep/tasks.jsonl" --task "$1" \
    --device cuda --no-store --json --cuda-l1-eval "${cold[@]}" > "$2" 2>> "$state/ours.log"
}

for stage in "$@"; do
  case $stage in
  build)
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    log "python: $(python3 -c 'import torch, numpy; print("torch", torch.__version__, "numpy", numpy.__version__)' 2>&1 | tail -1)"
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner
    status=$?
    log "kscope build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  time)
    [[ $runner_kind == cold ]] || serve_start
    rep=$(($(ls "$state/seed" 2>/dev/null | wc -l) + 1))
    r=$(printf '%02d' "$rep")
    mkdir -p "$state/seed/$r" "$state/ours/$r"
    echo "$runner_kind" > "$state/ours/$r/RUNNER"
    log "repeat $r ($runner_kind runner)"
    mapfile -t tasks < "$prep/tasks.txt"
    ((rep % 2 == 0)) && mapfile -t tasks < <(printf '%s\n' "${tasks[@]}" | tac)
    for t in "${tasks[@]}"; do
      (($(left) > 60)) || { log "no time left for $t"; break; }
      n=${t//\//_}
      if ((rep % 2)); then
        seed_run "$t" "$state/seed/$r/$n.log"
        ours_run "$t" "$state/ours/$r/$n.json"
      else
        ours_run "$t" "$state/ours/$r/$n.json"
        seed_run "$t" "$state/seed/$r/$n.log"
      fi
      log "$t done ($(left) s left)"
      save_state  # after each task: a call cut off at its limit still brings back what it measured
    done
    ;;
  restore)
    if [[ -f $prep/state.tar.gz ]]; then
      tar -xzf "$prep/state.tar.gz" -C "$state" && log "restored $(ls "$state/seed" | wc -l) repeats"
    else
      log "nothing to restore: no $prep/state.tar.gz"
    fi
    ;;
  report)
    python3 bench/crosscheck_l1.py report "$prep" "$state" \
      --gpu "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" | tee "$OUT/crosscheck-l1.md"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
save_state
log "done in $SECONDS s"
