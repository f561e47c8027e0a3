#!/usr/bin/env bash
# Re-times the whole CUDA-L1 H100 release on the GPU machine with `kscope batch` and writes the table of
# docs/cuda-l1-h100.md (bench/cuda_l1_report.py). Stages, in the order given (default: all of them):
#
#   build   configure and build kscope, kscope-runner and the gpu tests (shared/gpu/README.md recipe)
#   tests   ctest -L gpu (the hack corpus excepted: bench/gpu/hack-corpus.sh runs it)
#   cold    kscope batch on an empty build cache: the build stage on $JOBS runners, then the timing; the
#           batch is resumable, so a later call with `cold` carries on where a deadline stopped it, and the
#           wall time of each call is added up in $state/cold-wall.txt
#   warm    the same batch again into a second file, every extension from the cache (the repeat run);
#           resumable like cold, its calls' wall times added up in $state/warm-wall.txt
#   retime  a warm re-time of one level-1 task: a runner already up (the GUI's case: F9), a whole
#           `kscope run` with a runner of its own, and `kscope run` through `kscope serve`, call to number
#   fresh   empties the build cache and earlier results first (a cold batch on a machine still warm)
#   report  bench/cuda_l1_report.py over cold (and warm) into $OUT/cuda-l1-h100.md
#
#   here, once:      bash bench/gpu/engine-check.sh prepare && cp ../shared/datasets/cuda-l1/h100.jsonl .deps/datasets/
#   device `run`:    bash bench/gpu/cuda-l1-batch.sh build tests fresh cold  (carry: [".deps"], timeout_s: 600)
#   and then:        bash bench/gpu/cuda-l1-batch.sh cold warm retime report
#
# The stages share GPU_TOTAL_S (default 580 s: a device command may run 600 s); each gets what is left.
# Everything that must outlive a call (build folder, build cache, batch outputs) lives under /tmp on the
# device machine, which keeps it while the machine stays warm; results are also copied to $OUT every call.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source "$root/bench/gpu/build-lib.sh"
total=${GPU_TOTAL_S:-580}
jobs=${JOBS:-$(nproc)}
timing_jobs=${TIMING_JOBS:-4}  # runners checking side by side; timing and profile hold the GPU alone
OUT=${OUT:-$root/out/cuda-l1-batch}
build=$gpu_build_dir
state=/tmp/kscope-gpu
data=$root/.deps/datasets/h100.jsonl
mkdir -p "$OUT" "$state"
# EXCLUDE="3/45 ..." leaves those level/task entries out (a copy of the file without them, outside $state).
if [[ -n ${EXCLUDE:-} && -f $data ]]; then
  python3 - "$data" /tmp/kscope-dataset.jsonl $EXCLUDE <<'PY'
import json, sys
src, dst, *drop = sys.argv[1:]
with open(src) as f, open(dst, "w") as out:
    for line in f:
        r = json.loads(line)
        if f"{r['level_id']}/{r['task_id']}" not in drop:
            out.write(line)
PY
  data=/tmp/kscope-dataset.jsonl
fi
export XDG_CACHE_HOME=$state/xdg  # the runner's build cache: <XDG_CACHE_HOME>/kernelscope/build
log() { echo "== $(date +%T) $*" | tee -a "$OUT/session.log"; }
left() { echo $((total - SECONDS)); }
[[ -f $data ]] || { echo "no $data: run the 'here, once' line of this script's header"; exit 2; }
stages=("$@")
((${#stages[@]})) || stages=(build tests cold warm retime report)

batch() {  # batch OUTFILE WALLFILE: runs kscope batch for what time is left, adds its wall time to WALLFILE
  local out=$1 wall=$2 budget
  budget=$(($(left) - 15))
  ((budget > 20)) || { log "no time left for $(basename "$out")"; return 1; }
  local t0=$SECONDS
  timeout -s INT "$budget" "$build/bin/kscope" batch "$data" --device cuda --jobs "$jobs" \
    --timing-jobs "$timing_jobs" --out "$out" \
    --store "$state/results.db" 2>> "${out%.jsonl}.log"
  local rc=$?
  echo $((SECONDS - t0)) >> "$wall"
  log "$(basename "$out"): exit $rc, $((SECONDS - t0)) s, $(wc -l < "$out") lines"
  grep -E "^kscope batch: (builds|interrupted)" "${out%.jsonl}.log" | tail -2 | tee -a "$OUT/session.log"
  return $rc
}

for stage in "${stages[@]}"; do
  case $stage in
  build)
    log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(nproc) cores"
    gpu_prefix_paths  # before $(left): the time torch's import takes comes off the build's share
    gpu_build "$(left)" "$OUT/build.log" \
      kscope kscope-runner engine_gpu_tests engine_tests probes_tests runner_tests protocol_tests
    status=$?
    log "build: exit $status"
    ((status == 0)) || { tail -40 "$OUT/build.log"; exit 1; }
    ;;
  tests)
    timeout "$(($(left) - 5))" ctest --test-dir "$build" -L gpu -E HackCorpus -j4 --output-on-failure \
      > "$OUT/tests.log" 2>&1
    log "ctest -L gpu: exit $?"
    grep -E "tests passed|tests failed|\*\*\*Failed|Not Run" "$OUT/tests.log" | tee -a "$OUT/session.log"
    ;;
  fresh)  # a cold batch from nothing: no build cache, no earlier results
    rm -rf "$state" && mkdir -p "$state"
    log "fresh: $state emptied"
    ;;
  cold)
    batch "$state/cold.jsonl" "$state/cold-wall.txt"
    ;;
  warm)  # resumable like cold: `fresh` empties it
    batch "$state/warm.jsonl" "$state/warm-wall.txt"
    ;;
  retime)
    python3 - "$build/bin/kscope-runner" "$data" "$state/xdg/kernelscope/build" <<'PY' | tee "$OUT/retime.txt"
import json, subprocess, sys, time
runner, data, cache = sys.argv[1:4]
rows = {f"{r['level_id']}/{r['task_id']}": r for r in map(json.loads, open(data))}
key = next(k for k in ("1/12", "1/1", "1/2") if rows.get(k, {}).get("custom_code"))
r = rows[key]
t0 = time.monotonic()
p = subprocess.Popen([runner], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def until_end(rid):
    phases, last, since = {}, "start", time.monotonic()
    for line in p.stdout:
        e = json.loads(line)
        now = time.monotonic()
        if e.get("id") == rid and e.get("event") == "phase":
            phases[last] = phases.get(last, 0) + now - since
            last, since = e["phase"], now
        if e.get("id") == rid and e.get("event") in ("result", "error"):
            phases[last] = phases.get(last, 0) + now - since
            print("   phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items()))
            return e
ready = json.loads(p.stdout.readline())
print(f"runner up (ready line) after {time.monotonic() - t0:.2f} s: {ready.get('runner')}")
for n in range(3):
    req = {"id": f"re{n}", "op": "evaluate", "task": {"key": "L" + key, "reference": r["ref_code"]},
           "candidate": {"id": "cuda-l1", "code": r["custom_code"]}, "options": {"device": "cuda", "cache": cache}}
    t = time.monotonic()
    p.stdin.write(json.dumps(req) + "\n")
    e = until_end(req["id"])
    dt = time.monotonic() - t
    res = e.get("result", {})
    tim = res.get("timing") or {}
    print(f"L{key} re-time {n + 1} in a warm runner: {dt:.2f} s to the number; speedup {tim.get('speedup')}, "
          f"passed {res.get('correctness', {}).get('passed')}, build cache hit {res.get('build', {}).get('cache_hit')}")
p.stdin.write(json.dumps({"id": "bye", "op": "shutdown"}) + "\n")
p.wait()
print(f"task L{key}")
PY
    task=$(sed -n 's/^task \(.*\)$/\1/p' "$OUT/retime.txt")
    speedup() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); t=j['event'].get('result',{}).get('timing') or {}; print(t.get('speedup'), 'server', j.get('server'))" "$1" 2>&1; }
    for n in 1 2; do
      t0=$(date +%s.%N)
      "$build/bin/kscope" run "$data" --task "$task" --device cuda --no-store --no-server --json \
        > "$state/run-$n.json" 2> "$state/run-$n.err"
      rc=$?
      echo "kscope run $task (new runner each call) $n: exit $rc, $(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')") s, speedup $(speedup "$state/run-$n.json")" |
        tee -a "$OUT/retime.txt"
    done
    # kscope serve keeps a warmed runner; kscope run with the same --device finds it (docs/cli.md)
    "$build/bin/kscope" serve --device cuda --idle-exit 600 > "$state/serve.log" 2>&1 &
    serve_pid=$!
    for _ in $(seq 1 120); do grep -qE "warmed up|warm-up failed" "$state/serve.log" && break; sleep 0.5; done
    for n in 1 2 3; do
      t0=$(date +%s.%N)
      "$build/bin/kscope" run "$data" --task "$task" --device cuda --no-store --json \
        > "$state/serve-run-$n.json" 2> "$state/serve-run-$n.err"
      rc=$?
      echo "kscope run $task through kscope serve $n: exit $rc, $(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')") s, speedup $(speedup "$state/serve-run-$n.json")" |
        tee -a "$OUT/retime.txt"
    done
    kill -TERM "$serve_pid"
    wait "$serve_pid"
    sed 's/^/  serve: /' "$state/serve.log" | tee -a "$OUT/retime.txt"
    ;;
  report)
    sum() { awk '{s += $1} END {print s + 0}' "$@"; }
    build_s=$(sed -n 's/^kscope batch: builds: .* in \([0-9]*\) s$/\1/p' "$state/cold.log" | sum)
    args=("$state/cold.jsonl")
    [[ -f $state/cold-wall.txt ]] && args+=(--cold-wall "$(sum "$state/cold-wall.txt")")
    [[ -n $build_s ]] && args+=(--build-wall "$build_s")
    [[ -f $state/warm.jsonl ]] && args+=(--repeat "$state/warm.jsonl" --warm-wall "$(sum "$state/warm-wall.txt")")
    python3 bench/cuda_l1_report.py "${args[@]}" > "$OUT/cuda-l1-h100.md"
    log "report: $(sed -n '/^## Summary/,/^## Per entry/p' "$OUT/cuda-l1-h100.md" | grep '^-' | tr '\n' ' ')"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
# What comes back (the device tool returns at most 8 plain files under $OUT; the wall times are in session.log).
for f in cold.jsonl warm.jsonl cold.log warm.log; do
  [[ -f $state/$f ]] && gzip -c "$state/$f" > "$OUT/$f.gz"
done
log "done in $SECONDS s; $(ls "$OUT" | tr '\n' ' ')"
