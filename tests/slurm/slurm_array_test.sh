#!/usr/bin/env bash
# `kscope slurm` against a REAL one-node Slurm cluster started here, as root, on localhost: a munge key and
# slurm.conf in a temporary folder, munged, slurmctld and slurmd, and accounting as a site runs it: a MariaDB
# server of its own (a data folder made by mariadb-install-db in the temporary folder, on a free localhost
# port) and slurmdbd on it (Debian 12: slurm-wlm, munge, slurmdbd, mariadb-server;
# packaging/debian-test-deps.txt). It submits a 3-task array over cpu-tasks.kscope.jsonl (3 tasks, 7
# pure-PyTorch candidates, on the CPU) after a 2-task build array, waits, merges the shards and checks the
# merged results equal a local `kscope batch` of the same file in coverage (task, candidate, code hash) and
# verdicts (outcome). `kscope slurm --status` is checked against sacct: the build array's and the timing
# array's tasks COMPLETED, and a re-submission (the documented recovery: finished shards end at once) held
# PENDING in a partition that is down, then 2 COMPLETED and 1 FAILED (its shard's output cannot be written).
# Everything started is stopped at the end, on failure too. When Slurm or its accounting cannot start, the
# test FAILS and says why: it never skips. Usage: slurm_array_test.sh KSCOPE_BINARY
set -uo pipefail
kscope=$(realpath "${1:?usage: slurm_array_test.sh KSCOPE_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
file=$here/cpu-tasks.kscope.jsonl
started=$(date +%s)

fail() {
  echo "slurm test: FAIL: $*" >&2
  for log in "$tmp"/*.log "$tmp"/*.out "$tmp"/job/logs/*.log "$tmp"/again/logs/*.log; do
    [ -s "$log" ] && { echo "---- $log (last 30 lines)" >&2; tail -n 30 "$log" >&2; }
  done
  exit 1
}

[ "$(id -u)" = 0 ] || { echo "slurm test: FAIL: must run as root (it starts munged, mariadbd, slurmdbd, slurmctld and slurmd)" >&2; exit 1; }
for tool in munged slurmctld slurmd slurmdbd sbatch squeue scontrol sacct sacctmgr mariadbd mariadb-install-db mariadb python3; do
  command -v "$tool" >/dev/null ||
    { echo "slurm test: FAIL: $tool not found: install slurm-wlm, munge, slurmdbd, mariadb-server-core and mariadb-client-core (packaging/debian-test-deps.txt)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/kscope-slurm-test.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  scancel --full --quiet "${job:-0}" "${again:-0}" 2>/dev/null
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  [ -n "${KSCOPE_KEEP_SLURM_TEST:-}" ] && echo "slurm test: kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Free TCP ports on localhost for slurmctld, slurmd, slurmdbd and MariaDB (a cluster or database of the
# machine's own, if any, keeps its).
read -r ctldPort slurmdPort dbdPort dbPort < <(python3 -c '
import socket
s = [socket.socket() for _ in range(4)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# munge: a fresh key, its own socket.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --force --foreground --key-file="$tmp/munge.key" --socket="$tmp/munge.socket" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge.seed" >>"$tmp/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge.socket" ] || fail "munged did not start (no socket $tmp/munge.socket)"

# MariaDB: a data folder of its own, served on a localhost port to slurmdbd's user alone. No host name is
# looked up (--force, which its help gives as "run even if DNS does not work"; the grants below name
# 127.0.0.1): a clean Debian root without /etc/hosts has neither this host's name nor "localhost", and
# mariadb-install-db stopped there.
mariadb-install-db --no-defaults --user=root --datadir="$tmp/db" --auth-root-authentication-method=socket \
  --skip-test-db --force --skip-name-resolve >"$tmp/mariadb-install.log" 2>&1 || fail "mariadb-install-db: $(tail -n 5 "$tmp/mariadb-install.log")"
mariadbd --no-defaults --user=root --datadir="$tmp/db" --socket="$tmp/mysqld.sock" --port="$dbPort" \
  --bind-address=127.0.0.1 --skip-name-resolve --pid-file="$tmp/mysqld.pid" --log-error="$tmp/mariadbd.log" \
  --innodb-buffer-pool-size=32M >>"$tmp/mariadbd.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do mariadb --no-defaults --socket="$tmp/mysqld.sock" -u root -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.1; done
dbPass=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
mariadb --no-defaults --socket="$tmp/mysqld.sock" -u root >"$tmp/mariadb-setup.log" 2>&1 <<SQL ||
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$dbPass';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
SQL
  fail "MariaDB did not start or refused slurmdbd's user: $(cat "$tmp/mariadb-setup.log")"

# slurm.conf: this machine as the one node, as slurmd -C describes it.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
case $node in NodeName=*) ;; *) fail "slurmd -C did not describe this node: $node" ;; esac
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=kscopetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldPort
SlurmdPort=$slurmdPort
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$dbdPort
# The munge socket the clients reach slurmdbd through (without it sacct and slurmctld try munge's default).
AccountingStoragePass=$tmp/munge.socket
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=kscope Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
# slurmdbd reads slurmdbd.conf beside slurm.conf; it must be its SlurmUser's and private (the password).
cat >"$tmp/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
DbdAddr=127.0.0.1
DbdHost=localhost
DbdPort=$dbdPort
SlurmUser=root
PidFile=$tmp/slurmdbd.pid
LogFile=$tmp/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$dbPort
StorageUser=slurm
StoragePass=$dbPass
StorageLoc=slurm_acct_db
CONF
chmod 600 "$tmp/slurmdbd.conf"
slurmdbd -D >"$tmp/slurmdbd.out" 2>&1 &
pids+=($!)
for _ in $(seq 300); do sacctmgr -n list cluster >/dev/null 2>&1 && break; sleep 0.2; done
sacctmgr -n list cluster >"$tmp/sacctmgr.out" 2>&1 || fail "slurmdbd did not start: $(cat "$tmp/sacctmgr.out")"
echo "slurm test: accounting up (MariaDB on port $dbPort, slurmdbd on $dbdPort) in $(( $(date +%s) - started )) s"

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 300); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
  case $state in idle*|mixed*|allocated*) break ;; esac
  sleep 0.2
done
case $state in idle*|mixed*|allocated*) ;; *) fail "Slurm did not start: node $host is '${state:-not listed}' after 60 s" ;; esac
echo "slurm test: one-node Slurm up ($host, $cpus CPUs, ports $ctldPort/$slurmdPort) in $(( $(date +%s) - started )) s"

# --dry-run of a GPU array: the scripts a GPU cluster would get, nothing submitted.
"$kscope" slurm "$file" --tasks 4 --gpus-per-task 2 --timing-jobs 4 --partition gpu --time 01:00:00 --dir "$tmp/dry" --dry-run \
  >"$tmp/dry.out" 2>&1 || fail "kscope slurm --dry-run: $(cat "$tmp/dry.out")"
for want in '#SBATCH --array=0-3' '#SBATCH --gpus-per-task=2' '#SBATCH --partition=gpu' '#SBATCH --time=01:00:00' \
  '--shard "$SLURM_ARRAY_TASK_ID/4"' '--gpus all --timing-jobs 4' "export XDG_CACHE_HOME='$tmp/dry/cache'"; do
  grep -qF -- "$want" "$tmp/dry/timing.sbatch" || fail "dry-run timing.sbatch lacks $want: $(cat "$tmp/dry/timing.sbatch")"
done
[ ! -e "$tmp/dry/build.sbatch" ] || fail "a build array without --build-nodes"
[ -z "$(squeue -h 2>/dev/null)" ] || fail "--dry-run submitted a job"

# The arrays: first 2 CPU-only build tasks, then 3 timing tasks on the CPU (no GPUs on this node) that wait
# for them (--dependency=afterany).
job=$("$kscope" slurm "$file" --tasks 3 --gpus-per-task 0 --cpus-per-task 1 --build-nodes 2 --device cpu \
  --trials 3 --seeds 2 --dir "$tmp/job" --time 10 2>"$tmp/submit.err") || fail "kscope slurm did not submit: $(cat "$tmp/submit.err")"
[[ $job =~ ^[0-9]+$ ]] || fail "kscope slurm printed no job id: '$job'"
buildJob=$(sed -n 's/^kscope slurm: build array \([0-9]*\) .*/\1/p' "$tmp/submit.err")
[ -n "$buildJob" ] || fail "no build array submitted: $(cat "$tmp/submit.err")"
dependency=$(scontrol show job "$job" | grep -o 'Dependency=[^ ]*' | head -n 1)
echo "slurm test: build array $buildJob, timing array $job ($dependency)"
grep -q -- '--shard "$SLURM_ARRAY_TASK_ID/3"' "$tmp/job/timing.sbatch" || fail "timing.sbatch runs no shard: $(cat "$tmp/job/timing.sbatch")"
echo "slurm test: submitted array job $job"
for _ in $(seq 900); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "array job $job still queued or running after 180 s"
# --status: the task states from sacct (accounting hears of a task's end a moment after slurmctld: wait
# for it), each shard's progress from its output.
statusUntil() {  # JOB DIR WANT: kscope slurm --status until its output holds WANT (60 s)
  for _ in $(seq 120); do
    status=$("$kscope" slurm --status "$1" --dir "$2" 2>&1) && grep -qF -- "$3" <<<"$status" && return 0
    sleep 0.5
  done
  fail "kscope slurm --status $1 never said '$3'; it says: $status"
}
statusUntil "$job" "$tmp/job" "job $job (sacct): 3 COMPLETED"
echo "$status"
grep -q "7 of 7 candidates done; 3 of 3 shards complete" <<<"$status" || fail "not every shard finished"
statusUntil "$buildJob" "$tmp/job" "job $buildJob (sacct): 2 COMPLETED"
echo "slurm test: array done in $(( $(date +%s) - started )) s"
for i in 0 1; do
  grep -q "kscope batch: shard $i/2: " "$tmp/job/logs/build-${buildJob}_$i.log" 2>/dev/null ||
    fail "build task $i left no log of its shard"
done

"$kscope" merge "$tmp/merged.jsonl" "$tmp"/job/shard-*.jsonl --file "$file" --no-store 2>"$tmp/merge.err" ||
  fail "kscope merge: $(cat "$tmp/merge.err")"
cat "$tmp/merge.err"
grep -q "7 entries from 7 lines of 3 parts" "$tmp/merge.err" || fail "merge did not join 7 entries from 3 parts"
grep -q "0 duplicated, 0 of .* missing" "$tmp/merge.err" || fail "merge found duplicated or missing entries"

"$kscope" batch "$file" --device cpu --trials 3 --seeds 2 --out "$tmp/local.jsonl" --no-store 2>"$tmp/local.err" ||
  fail "local kscope batch: $(cat "$tmp/local.err")"

python3 - "$tmp/merged.jsonl" "$tmp/local.jsonl" "$tmp/job" <<'PY' || fail "merged results differ from the local batch"
import json, sys, glob
def read(path):
    return {(j["task"], j["candidate"], j["code_hash"]): j["outcome"] for j in map(json.loads, open(path))}
merged, local = read(sys.argv[1]), read(sys.argv[2])
shards = [read(p) for p in sorted(glob.glob(sys.argv[3] + "/shard-*.jsonl"))]
print("merged-results check: %d merged, %d local entries; shard sizes %s" % (len(merged), len(local), [len(s) for s in shards]))
ok = True
if set(merged) != set(local):
    print("coverage differs: only merged %s, only local %s" % (set(merged) - set(local), set(local) - set(merged))); ok = False
for key in sorted(set(merged) & set(local)):
    same = merged[key] == local[key]
    ok &= same
    print("  %-6s %-6s merged %-9s local %-9s %s" % (key[0], key[1], merged[key], local[key], "same" if same else "DIFFERENT"))
if len(shards) != 3 or any(len(s) == 0 for s in shards):
    print("every one of the 3 shards should hold entries"); ok = False
if sum(len(s) for s in shards) != len(merged):
    print("shards overlap"); ok = False
verdicts = sorted(merged.values())
if verdicts != ["correct"] * 4 + ["incorrect"] * 3:
    print("unexpected verdicts %s" % verdicts); ok = False
sys.exit(0 if ok else 1)
PY
# Re-submitted (docs/cluster.md, "When a node fails") with the shards' outputs as they are, except that
# shard 1's cannot be written (a folder in its place): shards 0 and 2 end at once, shard 1 fails. Held first
# in a partition that is down: sacct lists the array as one pending range, and --status counts its tasks.
mkdir -p "$tmp/again"
cp "$tmp/job/shard-0.jsonl" "$tmp/job/shard-2.jsonl" "$tmp/again/"
mkdir "$tmp/again/shard-1.jsonl"
scontrol update PartitionName=kscope State=DOWN || fail "cannot take the partition down"
again=$("$kscope" slurm "$file" --tasks 3 --gpus-per-task 0 --cpus-per-task 1 --device cpu --trials 3 --seeds 2 \
  --dir "$tmp/again" --time 10 2>"$tmp/again.err") || fail "kscope slurm did not submit again: $(cat "$tmp/again.err")"
# sacct prints the held array as ONE line for its three tasks (what --status must expand,
# core/cluster/slurm_states.h); wait for accounting to hear of it, then --status counts three.
for _ in $(seq 120); do
  pending=$(sacct -j "$again" -X -n -P -o JobID,State 2>&1)
  [ -n "$pending" ] && break
  sleep 0.5
done
[ "$pending" = "${again}_[0-2]|PENDING" ] || fail "sacct does not print the held array as one range: '$pending'"
statusUntil "$again" "$tmp/again" "job $again (sacct; squeue for 3 not ended): 3 PENDING"
echo "sacct: $pending; $(head -n 1 <<<"$status")"
scontrol update PartitionName=kscope State=UP || fail "cannot bring the partition up"
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$again" 2>/dev/null)" ] && break
  sleep 0.2
done
statusUntil "$again" "$tmp/again" "job $again (sacct): 2 COMPLETED 1 FAILED"
echo "$status"
grep -q "shard 1: 0/" <<<"$status" || fail "--status does not show shard 1 unfinished"
grep -q "already in $tmp/again/shard-0.jsonl" "$tmp/again/logs/timing-${again}_0.log" ||
  fail "shard 0 ran again instead of ending at once: $(cat "$tmp/again/logs/timing-${again}_0.log")"
echo "slurm test: PASS in $(( $(date +%s) - started )) s"
