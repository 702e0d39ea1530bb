#!/usr/bin/env bash
# Submits a sharded sweep to Slurm: an N-task job array running the shards, then the merge step once
# every shard has ended (whatever its outcome; resubmit failed shards and merge again).
#   scripts/slurm/submit.sh N [kcraft bench options...]
# Extra sbatch options (partition, account) go in SBATCH_* environment variables, e.g.
# SBATCH_PARTITION=gpu SBATCH_ACCOUNT=lab scripts/slurm/submit.sh 16 --agents tuner
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shards="${1:?usage: submit.sh N [kcraft bench options...]}"
shift
array_job=$(sbatch --parsable --array="0-$((shards - 1))" "$here/bench-array.sbatch" "$@")
merge_job=$(sbatch --parsable --dependency="afterany:${array_job%%;*}" "$here/merge.sbatch")
echo "submitted shards: job array ${array_job%%;*} (0-$((shards - 1))); merge: job $merge_job"
