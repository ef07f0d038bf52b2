#!/bin/sh
# One shard of a stability map per task of a Slurm job array (docs/sweep.md).
#
#   sbatch --array=1-N tools/slurm-sweep.sh OUTDIR SWEEP-OPTIONS...
#   # when every task is done:
#   chartless sweep --merge OUTDIR/part-*.csv --out map.csv
#
# e.g. sbatch --array=1-64 tools/slurm-sweep.sh maps/skate \
#        --system skate --x Omega0=0:10:1000 --y asym=1:400:1000 --bits 256
#
# Task k of the array computes `chartless sweep SWEEP-OPTIONS --shard k/N`
# into OUTDIR/part-k.csv (written atomically: a task that dies leaves no
# part, and --merge names the missing shard). N is the size of the array
# (SLURM_ARRAY_TASK_COUNT; SWEEP_SHARDS overrides it), so the array must be
# 1-N. CHARTLESS names the command (default: chartless on PATH).
#SBATCH --job-name=chartless-sweep
#SBATCH --array=1-16
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=chartless-sweep-%A_%a.log
set -eu
if [ $# -lt 2 ]; then
    echo "usage: sbatch --array=1-N $0 OUTDIR SWEEP-OPTIONS..." >&2
    exit 2
fi
out=$1
shift
k=${SLURM_ARRAY_TASK_ID:?"run as a Slurm job array (sbatch --array=1-N)"}
n=${SWEEP_SHARDS:-${SLURM_ARRAY_TASK_COUNT:?"SLURM_ARRAY_TASK_COUNT is not set (or set SWEEP_SHARDS)"}}
if [ -z "${SWEEP_SHARDS:-}" ] && [ "${SLURM_ARRAY_TASK_MIN:-1}" != 1 ]; then
    echo "error: the array must be 1-N (sbatch --array=1-N), not start at ${SLURM_ARRAY_TASK_MIN}" >&2
    exit 2
fi
mkdir -p "$out"
exec "${CHARTLESS:-chartless}" sweep "$@" --shard "$k/$n" --out "$out/part-$k.csv"
