#!/bin/bash
# Submits the analysis of a job of many ranks to Slurm: an array of
# summarize tasks, CHUNK ranks each, then the reduce once they all
# succeeded. JOB.json is what "chronoscope-cli analyze --jobs N TRACES"
# writes on one machine.
#
# Usage: submit-job.sh [--wait] TRACES OUT [CHUNK]
#   TRACES  folder of the ranks' trace files
#   OUT     folder for summaries/ and JOB.json (made if missing)
#   CHUNK   ranks per array task (default 16)
#   --wait  return when the reduce has finished, with its status
# Extra sbatch options (partition, account, time) go in SBATCH_OPTIONS;
# CHRONOSCOPE_CLI names the program when it is not in PATH on the nodes.
set -euo pipefail

wait=()
if [ "${1:-}" = --wait ]; then
  wait=(--wait)
  shift
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "Usage: $0 [--wait] TRACES OUT [CHUNK]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
traces=$1
out=$2
chunk=${3:-16}
if [ ! -d "$traces" ]; then
  echo "$0: $traces: not a folder" >&2
  exit 1
fi
n=$(find "$traces" -mindepth 1 -maxdepth 1 -type f ! -name '.*' ! -name '*.tmp' | wc -l)
if [ "$n" -eq 0 ]; then
  echo "$0: $traces: the folder holds no files" >&2
  exit 1
fi
mkdir -p "$out"
rm -rf "$out/summaries"
tasks=$(( (n + chunk - 1) / chunk ))
read -r -a extra <<< "${SBATCH_OPTIONS:-}"
export TRACES="$traces" OUT="$out" CHUNK="$chunk"

array=$(sbatch --parsable "${extra[@]}" --array="0-$(( tasks - 1 ))" --export=ALL \
          --output="$out/summarize-%A_%a.log" "$here/summarize.sbatch")
echo "summarize: job $array, $tasks tasks of up to $chunk of $n files"
reduce=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
           --export=ALL --output="$out/reduce-%j.log" "$here/reduce.sbatch")
echo "reduce: job $reduce, writes $out/JOB.json"
