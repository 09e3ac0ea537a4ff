#!/usr/bin/env bash
# Queues a sharded tetrad tournament on Slurm: an array job of N shards
# (tournament.sbatch), then one merge job (merge.sbatch) that runs only once every shard
# has succeeded (--dependency=afterok), and is cancelled if one fails.
#
# usage: submit.sh [OPTIONS] [--] TOURNAMENT ARGUMENTS...
#     -n, --shards N      array tasks, each playing one share of the games [default: 4]
#     -o, --out-dir DIR   folder for part-K.jsonl, the logs and the standings, on a file
#                         system every node sees [default: ./tetrad-run]
#     -f, --format FMT    the merged standings' format: table, markdown, csv or json
#                         [default: markdown]; written to DIR/standings.EXT
#     -t, --tetrad PATH   the tetrad binary, as the nodes see it [default: tetrad on PATH]
#     -s, --sbatch OPT    an option for both sbatch calls, e.g. -s --partition=short
#                         -s --time=01:00:00 (repeatable; sbatch's own SBATCH_* variables
#                         work too)
#     -r, --resume        DIR already has parts of this same tournament: keep them and
#                         play only the games they lack
# The tournament arguments are everything else, as for `tetrad tournament` without
# --shard and --out, e.g. --plugins a.so b.so --games 1000 --seed 7
#
# Prints what it queued on standard error, and "ARRAY_JOB_ID MERGE_JOB_ID" on standard
# output.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
shards=4
out_dir="tetrad-run"
format=markdown
tetrad=${TETRAD:-tetrad}
resume=0
sbatch_opts=()

usage() {
  sed -n '/^# usage:/,/^# output\./s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    -n | --shards) shards=${2:?}; shift 2 ;;
    -o | --out-dir) out_dir=${2:?}; shift 2 ;;
    -f | --format) format=${2:?}; shift 2 ;;
    -t | --tetrad) tetrad=${2:?}; shift 2 ;;
    -s | --sbatch) sbatch_opts+=("${2:?}"); shift 2 ;;
    -r | --resume) resume=1; shift ;;
    -h | --help) usage ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ "$#" -gt 0 ] || { echo "submit.sh: no tournament arguments (e.g. --plugins a b --games 100)" >&2; usage; }
case "$shards" in
  '' | *[!0-9]* | 0) echo "submit.sh: --shards wants a positive number, not '$shards'" >&2; exit 2 ;;
esac
case "$format" in
  table | markdown | csv | json) ;;
  *) echo "submit.sh: --format is table, markdown, csv or json, not '$format'" >&2; exit 2 ;;
esac
case " $* " in
  *" --shard "* | *" --shard="* | *" --out "* | *" --out="* | *" --resume "*)
    echo "submit.sh: --shard, --out and --resume are set per task; leave them out" >&2
    exit 2
    ;;
esac

mkdir -p "$out_dir/logs"
out_dir=$(cd "$out_dir" && pwd)
# A bare name is looked up here; the nodes then run the same file (a shared file system).
if [[ "$tetrad" != */* ]] && command -v "$tetrad" >/dev/null 2>&1; then
  tetrad=$(command -v "$tetrad")
fi
if [[ "$tetrad" == */* ]]; then
  tetrad=$(cd "$(dirname "$tetrad")" && pwd)/$(basename "$tetrad")
fi

shopt -s nullglob
stale=("$out_dir"/part-*.jsonl "$out_dir"/standings.*)
if [ "${#stale[@]}" -gt 0 ] && [ "$resume" = 0 ]; then
  echo "submit.sh: $out_dir already holds results (${stale[*]##*/});" \
    "use another --out-dir, or --resume to continue the same tournament" >&2
  exit 1
fi
rm -f "$out_dir"/standings.*

export OUT_DIR="$out_dir" TETRAD="$tetrad" SHARDS="$shards" MERGE_FORMAT="$format"

array_id=$(sbatch --parsable ${sbatch_opts[@]+"${sbatch_opts[@]}"} \
  --array="1-$shards" --output="$out_dir/logs/shard-%a.out" \
  "$here/tournament.sbatch" "$@")
array_id=${array_id%%;*} # "ID;CLUSTER" on a multi-cluster setup
merge_id=$(sbatch --parsable ${sbatch_opts[@]+"${sbatch_opts[@]}"} \
  --dependency="afterok:$array_id" --kill-on-invalid-dep=yes \
  --output="$out_dir/logs/merge.out" \
  "$here/merge.sbatch")
merge_id=${merge_id%%;*}

{
  echo "array job $array_id: $shards shards of: tetrad tournament $*"
  echo "  parts -> $out_dir/part-{1..$shards}.jsonl, logs -> $out_dir/logs/"
  echo "merge job $merge_id, once every shard succeeded -> $out_dir/standings.* ($format)"
} >&2
echo "$array_id $merge_id"
