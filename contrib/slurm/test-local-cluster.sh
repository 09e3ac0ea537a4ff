#!/usr/bin/env bash
# Runs a sharded tournament through Slurm for real, on a one-node cluster started here,
# and checks that the merged standings equal those of the same tournament played in one
# piece.
#
# usage: test-local-cluster.sh [TETRAD]
#     TETRAD  the tetrad binary [default: $TETRAD, else target/release/tetrad of this repo]
#
# Needs root (slurmd runs the jobs); installs slurm-wlm, munge and jq from the Debian
# packages if sbatch, munged or jq is missing. Starts munged, slurmctld and slurmd with
# everything (key, sockets, state, logs) in a scratch folder and on 127.0.0.1 only, queues
# the tournament with submit.sh (an array job of 4 shards and a merge job after it),
# waits for both, and compares `tetrad merge --format json` of the parts with
# `tetrad tournament --format json` of the unsharded run. Every wait is bounded. Stops the
# daemons and removes the scratch folder on any exit (KEEP_SCRATCH=1 keeps the folder).
# Exits non-zero on any failure or difference.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tetrad=${1:-${TETRAD:-$repo/target/release/tetrad}}
[[ "$tetrad" == /* ]] || tetrad="$PWD/$tetrad"
# A small tournament that plays in well under a second on one core.
args=(--plugins random tree-search --games 8 --max-pieces 200 --seed 1)
shards=4

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
[ -x "$tetrad" ] || fail "no tetrad binary at $tetrad (build it with cargo build --release)"
[ "$(id -u)" = 0 ] || fail "run as root: slurmd starts the jobs"

if ! command -v sbatch >/dev/null || ! command -v munged >/dev/null || ! command -v jq >/dev/null; then
  echo "installing slurm-wlm, munge and jq"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 600 apt-get install -y -qq slurm-wlm munge jq >/dev/null
fi

start=$(date +%s)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tetrad-slurm.XXXXXX")
pids=()
show_logs=1 # on failure, the daemons' and jobs' logs say why; not needed once all ran

cleanup() {
  local status=$?
  set +e
  if [ -f "$scratch/slurm.conf" ] && [ "${#pids[@]}" -gt 1 ]; then
    # Jobs first, so that no slurmstepd outlives its slurmd.
    SLURM_CONF="$scratch/slurm.conf" timeout 10 scancel --quiet --user=root 2>/dev/null
    for _ in $(seq 20); do
      [ -z "$(SLURM_CONF="$scratch/slurm.conf" timeout 5 squeue -h 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  if [ "$status" != 0 ] && [ "$show_logs" = 1 ]; then
    for log in "$scratch"/log/{munged,slurmctld,slurmd}.log "$scratch"/run/logs/*.out; do
      # A daemon that stopped before opening its log said why on its standard error.
      [ -s "$log" ] || log="${log%.log}.out"
      [ -f "$log" ] || continue
      echo "--- last lines of ${log#"$scratch"/}" >&2
      tail -n 15 "$log" >&2
    done
  fi
  # Daemons by PID, newest first: SIGTERM, then SIGKILL whatever is left after 10 s.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null
  done
  for pid in ${pids[@]+"${pids[@]}"}; do
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [ "${KEEP_SCRATCH:-0}" = 1 ]; then
    echo "scratch folder kept: $scratch" >&2
  else
    rm -rf "$scratch"
  fi
  if [ "$status" = 0 ]; then
    echo "PASS ($(($(date +%s) - start)) s)"
  else
    echo "FAIL (exit $status)" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS DESCRIPTION COMMAND...: runs COMMAND every 0.5 s until it succeeds.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local tries=$((seconds * 2))
  for ((t = 0; t < tries; t++)); do
    if "$@"; then return 0; fi
    sleep 0.5
  done
  fail "$what: not within $seconds s"
}

mkdir -p "$scratch"/{munge,state,spool,log,run}
chmod 0700 "$scratch/munge"

# munge, with its own key and socket (-f: the scratch folder is not world-readable).
dd if=/dev/urandom of="$scratch/munge/munge.key" bs=1 count=1024 status=none
chmod 0400 "$scratch/munge/munge.key"
socket="$scratch/munge/munge.socket"
munged -F -f --socket="$socket" --key-file="$scratch/munge/munge.key" \
  --pid-file="$scratch/munge/munged.pid" --seed-file="$scratch/munge/munged.seed" \
  --log-file="$scratch/log/munged.log" >"$scratch/log/munged.out" 2>&1 &
pids+=($!)
wait_for 10 "munged's socket" test -S "$socket"

# Two free ports on the loopback for slurmctld and slurmd.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 20000))
  if port_free "$p" && port_free "$((p + 1))"; then port=$p && break; fi
done
[ -n "$port" ] || fail "no two free ports"

node=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF="$scratch/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=tetradtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# Cores only: with memory as a resource, each job would take the whole node's memory
# and the shards would run one at a time.
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i -f "$SLURM_CONF" >"$scratch/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$scratch/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
wait_for 30 "node $node idle in sinfo" node_idle
echo "cluster up: node $node ($cpus CPUs) idle after $(($(date +%s) - start)) s; ports $port, $((port + 1))"

# The unsharded run, for reference.
"$tetrad" tournament "${args[@]}" --format json >"$scratch/whole.json" 2>"$scratch/whole.log" ||
  fail "the unsharded tournament failed: $(tail -n 5 "$scratch/whole.log")"

# The sharded run, through sbatch.
ids=$(bash "$here/submit.sh" --shards "$shards" --out-dir "$scratch/run" --format json \
  --tetrad "$tetrad" -- "${args[@]}")
read -r array_id merge_id <<<"$ids"
[[ "$array_id" =~ ^[0-9]+$ && "$merge_id" =~ ^[0-9]+$ ]] || fail "submit.sh printed '$ids', not two job ids"
queue_empty() { [ -z "$(timeout 5 squeue -h -j "$array_id,$merge_id" 2>/dev/null)" ]; }
wait_for 120 "jobs $array_id and $merge_id to finish" queue_empty
echo "jobs done after $(($(date +%s) - start)) s"

# Every shard and the merge completed with exit code 0 (scontrol keeps finished jobs for
# MinJobAge, 300 s; there is no accounting).
states=$(scontrol -o show job "$array_id" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' |
  sed 's/JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\)/\1 \2/' | sort | uniq -c)
echo "array job $array_id, tasks by state and exit code:"
awk '{ print "  " $0 }' <<<"$states"
[ "$(echo "$states" | awk '{print $1, $2, $3}')" = "$shards COMPLETED 0:0" ] ||
  fail "not every one of the $shards shards completed with exit code 0"
merge_state=$(scontrol -o show job "$merge_id" | grep -o 'JobState=[A-Z_]*\|ExitCode=[0-9:]*' | tr '\n' ' ')
echo "merge job $merge_id: $merge_state"
[ "$merge_state" = "JobState=COMPLETED ExitCode=0:0 " ] || fail "the merge job did not complete"

for ((k = 1; k <= shards; k++)); do
  part="$scratch/run/part-$k.jsonl"
  [ -s "$part" ] || fail "no $part"
  shard=$(head -n 1 "$part" | jq -r .shard)
  [ "$shard" = "$k/$shards" ] || fail "part-$k.jsonl has shard '$shard', not $k/$shards"
  echo "part-$k.jsonl: shard $shard, $(grep -c '"kind":"game"' "$part") games"
done
merged="$scratch/run/standings.json"
[ -s "$merged" ] || fail "the merge job wrote no $merged"

# What must match: everything in the report but the timing fields (update_us_mean,
# update_us_p99, ...), which differ between any two runs of the same games.
strip='walk(if type == "object" then with_entries(select(.key | startswith("update_us_") | not)) else . end)'
jq -S "$strip" "$scratch/whole.json" >"$scratch/whole.cmp"
jq -S "$strip" "$merged" >"$scratch/merged.cmp"
echo "compared (unsharded tournament vs merge of $shards shards), all but update_us_*:"
jq -r '[paths(scalars) | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' \
  "$scratch/whole.cmp" | sed 's/\.\[\]\./[]./g' | paste -sd , | sed 's/,/, /g' | fold -s -w 96 | sed 's/ *$//; s/^/  /'
jq -r '.standings[] | "  \(.label): games \(.games), lines mean \(.lines.mean) max \(.lines.max), pieces \(.pieces), score \(.score), topped_out \(.topped_out), capped \(.capped), forfeits \([.forfeits[]] | add)"' "$scratch/whole.cmp"
jq -r '.pairings[] | "  \(.a) vs \(.b): \(.wins)-\(.draws)-\(.losses), p = \(.p_value)"' "$scratch/whole.cmp"
show_logs=0
games=$(jq '[.standings[].games] | add' "$scratch/whole.cmp")
scheduled=$(jq .scheduled "$scratch/whole.cmp")
if ! [[ "$games" =~ ^[1-9][0-9]*$ && "$scheduled" = "$games" ]]; then
  fail "the unsharded run played $games games of $scheduled"
fi
if ! diff -u "$scratch/whole.cmp" "$scratch/merged.cmp" >"$scratch/diff"; then
  cat "$scratch/diff" >&2
  fail "the merged standings differ from the unsharded run's (above: - unsharded, + merged)"
fi
echo "identical: $games games in $shards shards through sbatch, merged, equal the unsharded run"
