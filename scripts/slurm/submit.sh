#!/usr/bin/env bash
# Submits a sharded sweep to Slurm: an N-task job array running the shards, then the merge step once
# every shard has ended (whatever its outcome; resubmit failed shards and merge again).
#   scripts/slurm/submit.sh N [kcraft bench options...]
# sbatch options for the shards (CPUs, partition, account, time) go in KCRAFT_SBATCH_OPTIONS, e.g.
#   KCRAFT_SBATCH_OPTIONS="--cpus-per-task=8 --partition=cpu" scripts/slurm/submit.sh 16 --agents tuner
# (Slurm's own SBATCH_PARTITION, SBATCH_ACCOUNT, ... variables work too.)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shards="${1:?usage: submit.sh N [kcraft bench options...]}"
shift
read -r -a extra <<<"${KCRAFT_SBATCH_OPTIONS:-}"
array_job=$(sbatch --parsable "${extra[@]}" --array="0-$((shards - 1))" "$here/bench-array.sbatch" "$@")
array_job="${array_job%%;*}"
merge_job=$(sbatch --parsable --dependency="afterany:$array_job" "$here/merge.sbatch")
echo "submitted shards: job array $array_job (0-$((shards - 1))); merge: job $merge_job"
