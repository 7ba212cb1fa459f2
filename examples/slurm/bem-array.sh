#!/usr/bin/env bash
# One shard of a suite per Slurm array task; merge with `bem-bench report`.
#   sbatch --array=0-15 examples/slurm/bem-array.sh configs/temporal.toml
#   bem-bench report results/shard-* --out results/merged
#SBATCH --job-name=bem
#SBATCH --cpus-per-task=2
#SBATCH --time=24:00:00
set -euo pipefail
suite=${1:?usage: bem-array.sh SUITE.toml}
shards=${SLURM_ARRAY_TASK_COUNT:?run under sbatch --array}
index=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
index=$((index - ${SLURM_ARRAY_TASK_MIN:-0}))
exec "${BEM_BENCH:-bem-bench}" run "$suite" --shard "$index/$shards" --out "results/shard-$index" --resume
