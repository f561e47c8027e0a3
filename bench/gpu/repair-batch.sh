#!/usr/bin/env bash
# On the GPU machine (docs/repair-h100.md): the CUDA-L1 release's extension programs (every entry whose
# program uses torch.utils.cpp_extension) and the six Stanford good-kernels tasks, run with `kscope batch`
# as they are ("before") and with `--repair` ("after"), then a table: how many extensions built before and
# after, how many repaired kernels are correct, the cause of every remaining failure, and the recorded,
# fallback (before) and kernel (after) speedups side by side (bench/cuda_l1_report.py --before). Stages, in
# order given (default: all):
#
#   build    configure and build kscope and kscope-runner (bench/gpu/build-lib.sh)
#   inputs   the extension programs of .deps/datasets/h100.jsonl, and the good-kernels tasks (from
#            .deps/datasets/good-kernels/<task>/{ref,src}.py, written as CUDA-L1 lines, level 9), into $state
#   before   kscope batch of both files as they are; resumable (a later call carries on)
#   after    kscope batch --repair --arch sm_90a of both files; resumable
#   report   the table into $OUT/repair-h100.md (and the summary on stdout)
#   fresh    empties $state first (build cache and earlier results)
#
# TASKS="L1/95 L3/28" limits `inputs` to those CUDA-L1 tasks (the good-kernels tasks are always written).
#
#   here, once:   bash bench/gpu/engine-check.sh prepare && cp ../shared/datasets/cuda-l1/h100.jsonl .deps/datasets/ &&
#                 cp -r ../shared/datasets/good-kernels .deps/datasets/
#   device `run`: bash bench/gpu/repair-batch.sh build inputs before      (carry: [".deps"], timeout_s: 600)
#   then:         bash bench/gpu/repair-batch.sh after report             (repeat while `after` is cut short)
#
# The stages share GPU_TOTAL_S (default 580 s). State that must outlive a call lives under /tmp/kscope-repair
# on the device machine (kept while the machine stays warm); at most 8 files come back under $OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source "$root/bench/gpu/build-lib.sh"
total=${GPU_TOTAL_S:-580}
jobs=${JOBS:-$(nproc)}
timing_jobs=${TIMING_JOBS:-4}
arch=${ARCH:-sm_90a}
OUT=${OUT:-$root/out/repair-batch}
build=$gpu_build_dir
state=/tmp/kscope-repair
data=$root/.deps/datasets/h100.jsonl
good=$root/.deps/datasets/good-kernels
mkdir -p "$OUT" "$state"
export XDG_CACHE_HOME=$state/xdg
log() { echo "== $(date +%T) $*" | tee -a "$OUT/session.log"; }
left() { echo $((total - SECONDS)); }
stages=("$@")
((${#stages[@]})) || stages=(build inputs before after report)

batch() {  # batch NAME INPUT [kscope batch options...]: resumable, for what time is left
  local name=$1 input=$2 budget
  shift 2
  budget=$(($(left) - 20))
  ((budget > 30)) || { log "no time left for $name"; return 1; }
  local t0=$SECONDS
  timeout -s INT "$budget" "$build/bin/kscope" batch "$input" --device cuda --jobs "$jobs" \
    --timing-jobs "$timing_jobs" --out "$state/$name.jsonl" --store "$state/results.db" "$@" \
    2>> "$state/$name.log"
  local rc=$?
  log "$name: exit $rc, $((SECONDS - t0)) s, $(wc -l < "$state/$name.jsonl") lines"
  grep -E "^kscope batch: (builds|--repair|interrupted)" "$state/$name.log" | tail -3 | tee -a "$OUT/session.log"
  return $rc
}

for stage in "${stages[@]}"; do
  case $stage in
  fresh)
    rm -rf "$state" && mkdir -p "$state"
    log "fresh: $state emptied"
    ;;
  build)
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    gpu_prefix_paths
    gpu_build "$(left)" "$OUT/build.log" kscope kscope-runner
    status=$?
    log "build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  inputs)
    [[ -f $data ]] || { echo "no $data: run the 'here, once' line of this script's header"; exit 2; }
    python3 - "$data" "$good" "$state" "${TASKS:-}" <<'PY'
import json, os, sys
data, good, state, only = sys.argv[1:5]
only = set(only.split())
n = 0
with open(data) as f, open(os.path.join(state, "ext.jsonl"), "w") as out:
    for line in f:
        r = json.loads(line)
        code = r.get("custom_code") or ""
        if only and f"L{r.get('level_id')}/{r.get('task_id')}" not in only:
            continue
        if "cpp_extension" in code:
            out.write(line)
            n += 1
print(f"{n} CUDA-L1 extension programs")
tasks = sorted(d for d in os.listdir(good) if os.path.isfile(os.path.join(good, d, "src.py"))) if os.path.isdir(good) else []
with open(os.path.join(state, "good.jsonl"), "w") as out:
    for i, t in enumerate(tasks, 1):
        ref = open(os.path.join(good, t, "ref.py")).read()
        src = open(os.path.join(good, t, "src.py")).read()
        out.write(json.dumps({"level_id": 9, "task_id": i, "task_name": t, "ref_code": ref, "custom_code": src}) + "\n")
        print(f"L9/{i} = good-kernels/{t}")
PY
    ;;
  before)
    batch before "$state/ext.jsonl"; batch good-before "$state/good.jsonl"
    ;;
  after)
    batch after "$state/ext.jsonl" --repair --arch "$arch"; batch good-after "$state/good.jsonl" --repair --arch "$arch"
    ;;
  report)
    args=()
    [[ -f $state/good-after.jsonl ]] && args+=(--good "$state/good-after.jsonl" --good-before "$state/good-before.jsonl")
    python3 bench/cuda_l1_report.py "$state/after.jsonl" --before "$state/before.jsonl" "${args[@]}" \
      > "$OUT/repair-h100.md"
    log "report: $(sed -n '/^## Repair summary/,/^## /p' "$OUT/repair-h100.md" | grep '^-' | tr '\n' ' ')"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
for f in before.jsonl after.jsonl good-before.jsonl good-after.jsonl; do
  [[ -f $state/$f ]] && gzip -c "$state/$f" > "$OUT/$f.gz"
done
cat "$state"/*.log 2>/dev/null | grep -E "error|FALLBACK" | tail -200 > "$OUT/batch-errors.log"
log "done in $SECONDS s; $(ls "$OUT" | tr '\n' ' ')"
