#!/usr/bin/env bash
# One shard of a suite per Slurm array task; the task id is the shard number.
#   sbatch --array=0-15 examples/slurm/bem-array.sh configs/temporal.toml
#   bem-bench report results/shard-* --out results/merged
# A shard that failed (a time limit, a lost node) continues where it stopped,
# without repeating its finished runs; name the shard count, as its array is
# no longer the whole suite's:
#   sbatch --array=5 examples/slurm/bem-array.sh configs/temporal.toml 16
# Results go to results/shard-I under the submission directory (or --chdir).
#SBATCH --job-name=bem
#SBATCH --cpus-per-task=2
#SBATCH --time=24:00:00
set -euo pipefail
suite=${1:?usage: bem-array.sh SUITE.toml [SHARDS]}
index=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
if [[ $# -ge 2 ]]; then
  shards=$2
elif [[ ${SLURM_ARRAY_TASK_MIN} -ne 0 || $((SLURM_ARRAY_TASK_MAX + 1)) -ne ${SLURM_ARRAY_TASK_COUNT} ]]; then
  # --array=5 alone would read as one shard of one: the whole suite.
  echo "bem-array.sh: --array=${SLURM_ARRAY_TASK_MIN}-${SLURM_ARRAY_TASK_MAX} is not 0..N-1 with every task;" \
       "name the shard count: bem-array.sh $suite SHARDS" >&2
  exit 2
else
  shards=$SLURM_ARRAY_TASK_COUNT
fi
exec "${BEM_BENCH:-bem-bench}" run "$suite" --shard "$index/$shards" --out "results/shard-$index" --resume
