#!/usr/bin/env bash
# A sharded sweep on a real single-node Slurm cluster (Debian's slurmctld, slurmd and munge, started here
# in a temporary directory on free ports): scripts/slurm/submit.sh queues a 3-task job array and the
# merge job; every array task and the merge must complete, and the merged store must hold exactly the
# sweep. Needs root (the daemons run as root) and the Slurm packages (scripts/setup.sh installs them);
# without them the test is skipped (exit 77).
# Usage: slurm_single_node.sh KCRAFT_BINARY SOURCE_DIR
set -euo pipefail
kcraft="$1"
source_dir="$2"
for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "SKIP: $tool is not installed (scripts/setup.sh installs Slurm)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the single-node Slurm daemons need root"
  exit 77
fi
export PATH="$PATH:/usr/sbin"

dir="$(mktemp -d /tmp/kcraft-slurm-XXXXXX)"
cluster="$dir/cluster"
mkdir -p "$cluster/state" "$cluster/spool" "$cluster/munge" "$dir/work"
daemons=()
cleanup() {
  # Only the daemons this script started (in the foreground, as its children, so it reaps them too).
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port="$(free_port)"
slurmd_port="$(free_port)"
host="$(hostname)"

# munge with its own key and socket.
dd if=/dev/urandom of="$cluster/munge/key" bs=1024 count=1 status=none
chmod 600 "$cluster/munge/key"
munged --foreground --force --key-file="$cluster/munge/key" --socket="$cluster/munge/sock" \
  --pid-file="$cluster/munge/pid" --log-file="$cluster/munge/log" --seed-file="$cluster/munge/seed" &
daemons+=($!)
for _ in $(seq 1 50); do
  [ -S "$cluster/munge/sock" ] && break
  sleep 0.1
done

cat >"$cluster/slurm.conf" <<CONF
ClusterName=kcraft-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/sock
CredType=cred/munge
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$cluster/slurm.conf"
slurmctld -D -c -i >/dev/null 2>&1 &
daemons+=($!)
slurmd -D -c >/dev/null 2>&1 &
daemons+=($!)
up=0
for _ in $(seq 1 100); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then
    up=1
    break
  fi
  sleep 0.2
done
if [ "$up" -ne 1 ]; then
  # A machine where the daemons cannot run (no resolvable host name, a restricted container, ...) says
  # nothing about kcraft's scripts, which tests/bench also checks without a real Slurm.
  echo "SKIP: the single-node Slurm cluster did not come up in this environment"
  tail -n 20 "$cluster"/*.log 2>/dev/null || true
  exit 77
fi
sinfo

cd "$dir/work"
export KCRAFT="$kcraft" KCRAFT_RESULTS="$dir/work/results"
sweep=(--tasks relu,silu,gemm --configs C1,C2 --agents baseline)
KCRAFT_SBATCH_OPTIONS="--cpus-per-task=1" "$source_dir/scripts/slurm/submit.sh" 3 "${sweep[@]}" | tee submit.txt
array_job="$(sed -n 's/.*job array \([0-9]*\).*/\1/p' submit.txt)"
merge_job="$(sed -n 's/.*merge: job \([0-9]*\).*/\1/p' submit.txt)"
for _ in $(seq 1 240); do
  [ -z "$(squeue -h)" ] && break
  sleep 0.5
done
if [ -n "$(squeue -h)" ]; then
  squeue
  echo "FAIL: jobs still queued after 120 s"
  exit 1
fi

# Every array task and the merge job completed with exit code 0.
states="$(scontrol show job "$array_job" | grep -o 'JobState=[A-Z]*' | sort | uniq -c)"
echo "array $array_job: $states"
[ "$(scontrol show job "$array_job" | grep -c 'JobState=COMPLETED')" -eq 3 ] || { cat kcraft-bench-*.out; exit 1; }
scontrol show job "$merge_job" | grep -q 'JobState=COMPLETED' || { cat kcraft-merge-*.out; exit 1; }
scontrol show job "$merge_job" | grep -q 'ExitCode=0:0'

# The merged store holds the whole sweep, each run once, all correct; the shards partition it.
"$kcraft" report --db results/merged.db --json >merged.json
"$kcraft" bench "${sweep[@]}" --db results/full.db --jobs 2 --progress none >/dev/null
/usr/bin/python3 - "$kcraft" <<'PY'
import json, subprocess, sys
kcraft = sys.argv[1]
def keys(db):
    out = subprocess.run([kcraft, "report", "--db", db, "--json"], check=True, capture_output=True, text=True).stdout
    return [(r["platform"], r["hw_config"], r["task"], r["config"], r["agent"], r["attempt"]) for r in json.loads(out)["runs"]]
merged = keys("results/merged.db")
full = keys("results/full.db")
shards = [keys(f"results/shard-{i}-of-3.db") for i in range(3)]
# 3 tasks x 2 configurations x 2 hardware configurations per platform
platforms = {k[0] for k in full}
assert len(full) == 12 * len(platforms), full
assert len(merged) == len(set(merged)) == len(full), merged
assert set(merged) == set(full), (merged, full)
assert sum(len(s) for s in shards) == len(full) and set().union(*map(set, shards)) == set(full), shards
assert all(r["verdict"] == "pass" for r in json.load(open("merged.json"))["runs"])
print(f"merged store: {len(full)} runs = the whole sweep ({len(platforms)} platforms); shards", [len(s) for s in shards])
PY
test -s results/report.html
echo "PASS: single-node Slurm job array and merge"
