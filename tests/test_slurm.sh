#!/bin/sh
# tools/slurm-sweep.sh on a real Slurm: a single-node cluster of its own
# (munged, slurmctld and slurmd on this machine, every file in a scratch
# folder, ports chosen free), the sweep's job array submitted through the
# script with sbatch, and the merged map compared byte for byte with the
# unsharded run. Skipped, with the reason, only where Slurm is not
# installed or its daemons cannot start here. Every daemon is stopped, by
# the id it was started with, on any exit; each wait is bounded.
. tests/tap.sh
T=$(mktemp -d)
chmod 700 "$T"
pids=""
cleanup() {
    [ -s "$T/jobid" ] && timeout 5 scancel "$(cat "$T/jobid")" 2>/dev/null
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
PATH=$PATH:/usr/sbin:/sbin
skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}
for c in munged mungekey slurmctld slurmd sbatch sinfo; do
    command -v $c >/dev/null 2>&1 || skip_all "$c not found: Slurm and munge are not installed (tools/need installs slurm-wlm and munge for make check as root)"
done
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed to find free ports"
# Why the daemons did not start: the last lines of their logs.
why() {
    for f in "$T"/*.log; do [ -f "$f" ] && tail -n 3 "$f" | sed "s|^|# $(basename "$f"): |"; done
}
C=$(cd "$(dirname "$C")" && pwd)/$(basename "$C")
H=$(hostname -s 2>/dev/null || hostname)
set -- $(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
ctld_port=$1 slurmd_port=$2
cpus=$(nproc 2>/dev/null || echo 1)
me=$(id -un)
mkdir -p "$T/state" "$T/spool" "$T/parts"

# munge: a key of its own and a daemon on a socket in the scratch folder
mungekey --create --keyfile="$T/munge.key" 2>"$T/mungekey.log" || skip_all "mungekey cannot create a key: $(tail -n 1 "$T/mungekey.log")"
munged -F --force --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munged.seed" 2>>"$T/munged.log" &
pids="$pids $!"

cat > "$T/slurm.conf" <<EOF
ClusterName=chartless-test
SlurmctldHost=$H(127.0.0.1)
SlurmUser=$me
SlurmdUser=$me
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$H NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=chartless Nodes=$H Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
i=0
while [ ! -S "$T/munge.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/munge.sock" ] || { why; skip_all "munged does not start here"; }
slurmctld -D -i -f "$T/slurm.conf" >>"$T/slurmctld.log" 2>&1 &
pids="$pids $!"
slurmd -D -N "$H" -f "$T/slurm.conf" >>"$T/slurmd.log" 2>&1 &
pids="$pids $!"
# the node idle within 30 s, or the daemons cannot run here
i=0
while [ "$(timeout 5 sinfo -h -N -o %t 2>/dev/null)" != idle ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
[ "$(timeout 5 sinfo -h -N -o %t 2>/dev/null)" = idle ] || { why; skip_all "slurmctld and slurmd do not start here (node state: $(timeout 5 sinfo -h -N -o %t 2>&1))"; }

echo "1..5"
GRID="--system skate --x Omega0=0:10:7 --y asym=1:400:5 --bits 113"
"$C" sweep $GRID --out "$T/full.csv"; t $? "the unsharded run"
# the array of 4 tasks through the script, sbatch --wait bounded to 3 minutes
start=$(date +%s)
CHARTLESS="$C" timeout 180 sbatch --wait --parsable --array=1-4 --chdir="$T" --output="$T/task-%a.out" \
    tools/slurm-sweep.sh "$T/parts" $GRID > "$T/jobid"
r=$?
t $r "sbatch --wait --array=1-4 tools/slurm-sweep.sh ran every task ($(($(date +%s) - start)) s)"
[ $r = 0 ] || { why; for f in "$T"/task-*.out; do [ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f"; done; }
[ "$(ls "$T/parts")" = "part-1.csv
part-2.csv
part-3.csv
part-4.csv" ]
t $? "each task wrote its part (part-1.csv ... part-4.csv)"
"$C" sweep --merge "$T"/parts/part-*.csv | cmp -s - "$T/full.csv"
t $? "the merged parts are the unsharded run, byte for byte"
# an array that does not start at 1 cannot be N shards: refused before any work
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=2 CHARTLESS="$C" \
    sh tools/slurm-sweep.sh "$T/wrong" $GRID 2> "$T/err"
[ $? = 2 ] && grep -q 'must be 1-N' "$T/err" && [ ! -e "$T/wrong" ]
t $? "an array not starting at 1 is refused (exit 2, no part written)"
