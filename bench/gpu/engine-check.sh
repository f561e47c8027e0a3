#!/usr/bin/env bash
# Engine check on the GPU machine: builds the runner with the recipe of shared/gpu/README.md, runs the
# gpu-labelled tests, and evaluates a few CUDA-L1 tasks through kscope-runner (the recorded claims beside
# what the runner measures). Logs and JSON land in $OUT (at most 8 files, as the device tool returns them).
#
#   here, once:        bash bench/gpu/engine-check.sh prepare
#   device `run`:      bash bench/gpu/engine-check.sh          (carry: [".deps"], timeout_s: 600)
#
# `prepare` fills .deps/ (git-ignored): GoogleTest, nlohmann-json, CLI11, dtl, SQLite's header and library
# (in case the GPU machine lacks libsqlite3-dev), and .deps/engine-check/ with the runner requests built from
# ../shared/datasets/cuda-l1/h100.jsonl (the dataset does not travel). ENGINE_CHECK_TASKS picks the tasks.
# On the device the stages share ENGINE_CHECK_TOTAL_S (default 570: a device command may run 600 s); the build
# may take ENGINE_CHECK_BUILD_S (240), the tests ENGINE_CHECK_TESTS_S (180), the tasks what is left, so
# whatever finished still comes back. `bash bench/gpu/engine-check.sh tasks` skips the tests. The gpu tests
# over the hack corpus (HackCorpus/*) are left to bench/gpu/hack-corpus.sh, which runs the corpus through the
# runner with its extensions built in parallel.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source "$root/bench/gpu/build-lib.sh"
tasks_dir=.deps/engine-check

prepare() {
  set -e
  bash ../shared/gpu/carry-deps.sh
  bash bench/gpu/carry-extra.sh
  mkdir -p .deps/include .deps/lib "$tasks_dir"
  cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h .deps/include/
  cp -L /usr/lib/x86_64-linux-gnu/libsqlite3.so .deps/lib/libsqlite3.so
  ENGINE_CHECK_TASKS=${ENGINE_CHECK_TASKS:-"2/96 2/83 2/80 1/12 1/9 3/31 1/1"} python3 - "$tasks_dir" <<'PY'
import json, os, sys
out = sys.argv[1]
wanted = os.environ["ENGINE_CHECK_TASKS"].split()
rows = {f"{r['level_id']}/{r['task_id']}": r
        for r in map(json.loads, open("../shared/datasets/cuda-l1/h100.jsonl"))}
claims, first, again = {}, [{"id": "hello", "op": "hello"}], []
for key in wanted:
    r = rows[key]
    if not r["custom_code"]:
        continue
    rid = "L" + key.replace("/", "-")
    req = {"id": rid, "op": "evaluate",
           "task": {"key": "L" + key, "reference": r["ref_code"]},
           "candidate": {"id": "cuda-l1", "code": r["custom_code"]},
           "options": {"device": "cuda", "seeds": 3, "trials": 30, "warmup": 5,
                       "cache": "/tmp/kscope-check/cache", "scratch": "/tmp/kscope-check/scratch/" + rid}}
    first.append(req)
    claims[rid] = r["score_default"]
    if "load_inline" in r["custom_code"] and not again:  # a second runner: the build must come from the cache
        again.append(dict(req, id=rid + "-again",
                          options=dict(req["options"],
                                       scratch="/tmp/kscope-check/scratch/" + rid + "-again")))
        claims[rid + "-again"] = r["score_default"]
first.append({"id": "bye", "op": "shutdown"})
again.append({"id": "bye", "op": "shutdown"})
for name, reqs in (("requests.jsonl", first), ("requests-again.jsonl", again)):
    with open(os.path.join(out, name), "w") as f:
        f.writelines(json.dumps(q) + "\n" for q in reqs)
json.dump(claims, open(os.path.join(out, "claims.json"), "w"), indent=1)
print(f"{len(first) - 2} tasks in {out}/requests.jsonl; re-run of {[q['id'] for q in again[:-1]]}")
PY
  du -sh .deps
  echo 'now: device run, carry [".deps"], command: bash bench/gpu/engine-check.sh'
}

if [[ "${1:-}" == prepare ]]; then
  prepare
  exit
fi
stages=${1:-all}
total=${ENGINE_CHECK_TOTAL_S:-570}

OUT=${OUT:-$root/out/engine-check}
mkdir -p "$OUT"
build=$gpu_build_dir
log() { echo "== $(date +%T) $*" | tee -a "$OUT/engine-check.log"; }
if [[ ! -f $tasks_dir/requests.jsonl ]]; then
  echo "run 'bash bench/gpu/engine-check.sh prepare' here first"
  exit 2
fi

log "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
gpu_prefix_paths
log "configure and build (torch at $TP)"
gpu_build "${ENGINE_CHECK_BUILD_S:-240}" "$OUT/build.log" \
  kscope-runner engine_gpu_tests engine_tests probes_tests runner_tests protocol_tests
status=$?
grep -E "ks_engine:|KernelScope:" "$OUT/build.log" | tee -a "$OUT/engine-check.log"
if [[ $status -ne 0 ]]; then
  log "build failed ($status); see build.log"
  tail -30 "$OUT/build.log"
  exit 1
fi

if [[ $stages != tasks ]]; then
  log "ctest -L gpu, then the CPU engine suites on this machine"
  timeout "${ENGINE_CHECK_TESTS_S:-180}" bash -c "
    ctest --test-dir $build -L gpu -E HackCorpus -j6 --output-on-failure &&
    $build/bin/engine_tests && $build/bin/probes_tests && $build/bin/runner_tests && $build/bin/protocol_tests
  " > "$OUT/tests.log" 2>&1
  log "tests: exit $?"
  grep -E "tests passed|tests failed|SKIPPED|FAILED|PASSED" "$OUT/tests.log" | head -30 |
    tee -a "$OUT/engine-check.log"
fi

log "CUDA-L1 tasks through kscope-runner"
touch "$OUT/events.jsonl"
deadline=$total
for pass in requests requests-again; do
  left=$((deadline - SECONDS))
  ((left > 10)) || { log "no time left for $pass"; break; }
  # The requests name their folders under /tmp/kscope-check: outside the runner's own, so they must be made
  # writable under its Landlock rules (docs/security.md: a tool that speaks to the runner directly).
  mkdir -p /tmp/kscope-check
  KSCOPE_WRITABLE=/tmp/kscope-check timeout "$left" "$build/bin/kscope-runner" < "$tasks_dir/$pass.jsonl" \
    >> "$OUT/events.jsonl" 2>> "$OUT/runner-stderr.log"
  log "$pass: runner exit $?"
done

python3 - "$OUT" "$tasks_dir/claims.json" <<'PY' | tee "$OUT/summary.txt"
import json, sys
out, claims = sys.argv[1], json.load(open(sys.argv[2]))
ends = {}
for line in open(f"{out}/events.jsonl"):
    e = json.loads(line)
    if e.get("event") in ("result", "error"):
        ends[e["id"]] = e
hello = ends.get("hello", {}).get("result", {}).get("environment", {})
print("environment:", json.dumps(hello))
print(f"{'task':<14}{'claimed':>9} {'measured':>10} {'host':>10} {'passed':>7}  ref ms / cand ms"
      "  gap ms (cand)  builds (ok/cache)  poison MiB  kernels  note")
for rid, claim in claims.items():
    e = ends.get(rid)
    if e is None:
        print(f"{rid:<14}{claim:>9}  (no answer: timed out or the runner died; see runner-stderr.log)")
        continue
    if e["event"] == "error":
        err = e["error"]
        where = f"{err.get('program', '')}:{err.get('line', '')}" if err.get("program") else ""
        print(f"{rid:<14}{claim:>9}  {err['kind']} error {where} {err['message'][:140]}")
        continue
    r = e["result"]
    c, t, b = r["correctness"], r.get("timing"), r["build"]
    builds = " ".join(f"{x['name']}:{'ok' if x['ok'] else 'FAILED'}/{'hit' if x['cache_hit'] else 'built'}"
                      for x in b["extensions"]) or "-"
    poison = c["poison"]["bytes"] / 2**20
    note = "; ".join(s for s in ([f"mutates inputs {c['mutations']}"] if c["inputs_mutated"] else []) +
                     r.get("torch_settings_changed", []) + ([r.get("timing_note", "")] if not t else []) +
                     [x for s in c["seeds"] if not s["passed"] for x in [s["message"][:100]]][:1])
    if t:
        print(f"{rid:<14}{claim:>9} {t['speedup']:>10.3f} {t['host_speedup']:>10.3f} {str(c['passed']):>7}"
              f"  {t['reference']['median_ms']:.4f} / {t['candidate']['median_ms']:.4f}"
              f"   {t['candidate']['clock_gap_ms']:.4f}   {builds}  {poison:.1f}  {len(r['kernels'])}"
              f"  {note}")
    else:
        print(f"{rid:<14}{claim:>9} {'-':>10} {'-':>10} {str(c['passed']):>7}  -  -  {builds}"
              f"  {poison:.1f}  -  {note}")
PY
log "done; files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
