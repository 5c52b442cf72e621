#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0002: the test-cluster harness itself.  Two clusters run at once without
# colliding (ports, sockets, files, jobs), and interrupting a script that
# started a cluster (SIGINT, as ^C does, or SIGTERM) leaves no slurmctld,
# slurmd, munged, slurmstepd or job process behind, while the other
# cluster keeps running.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

da=$(tap_rundir t0002a)
db=$(tap_rundir t0002b)
pids=()
cleanup()
{
	local d
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	wait
	for d in "$da" "$db"; do
		(. "$HERE/lib/cluster.sh"; hc_init "$d" && hc_stop)
	done
	[ "$TAP_FAILED" = 0 ] && rm -rf "$da" "$db" "$da.out" "$db.out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A script that starts a cluster, runs a job that outlives it unless
# stopped, and waits to be interrupted: what a test does.
owner()
{
	local sleeper=
	. "$HERE/lib/cluster.sh"
	hc_init "$1" || exit 1
	trap '[ -n "$sleeper" ] && kill "$sleeper"; hc_stop' EXIT
	trap 'exit 130' INT TERM
	HC_NODES=$'a1 2 2000\na2 2 2000' hc_start || exit 1
	cd "$1" && sbatch -Q -N 2 -o /dev/null --wrap 'srun sleep 300'
	echo "$SLURM_CONF" >"$1/ready"
	sleep 600 &
	sleeper=$!
	wait $sleeper
}

# Each owner is a bash of its own with SIGINT and SIGTERM at their
# defaults: a background job of a non-interactive shell starts with SIGINT
# ignored, and a shell cannot trap a signal ignored when it starts (so a
# test run from a background job, as CI may be, would wait 600 s).
export HERE
start_owner()
{
	env --default-signal=INT,TERM bash -c "$(declare -f owner); owner \"\$1\"" \
		owner "$1" >"$1.out" 2>&1 &
	pids+=($!)
}
start_owner "$da"
start_owner "$db"
for _ in $(seq 150); do
	[ -e "$da/ready" ] && [ -e "$db/ready" ] && break
	sleep 0.2
done
tap_ok "two clusters start at the same time" \
	$([ -e "$da/ready" ] && [ -e "$db/ready" ]; echo $?) \
	"$(cat "$da.out" "$db.out")" || tap_done

port() { sed -n 's/^SlurmctldPort=//p' "$1/slurm.conf"; }
tap_check "they use different ports" test "$(port "$da")" != "$(port "$db")"
tap_check "and different munge sockets" test \
	"$(grep -h '^AuthInfo' "$da/slurm.conf")" != \
	"$(grep -h '^AuthInfo' "$db/slurm.conf")"

running() { SLURM_CONF=$1/slurm.conf squeue -h -t R -o %i 2>/dev/null | wc -l; }
for _ in $(seq 100); do
	[ "$(running "$da")" = 1 ] && [ "$(running "$db")" = 1 ] && break
	sleep 0.2
done
tap_check "each cluster runs its own 2-node job" \
	test "$(running "$da")$(running "$db")" = 11

# Processes of cluster A before the interrupt: daemons and job processes.
holders() { (. "$HERE/lib/cluster.sh"; HC_RUNDIR=$1
	HC_CLUSTER=$(sed -n 's/^ClusterName=//p' "$1/slurm.conf"); _hc_holders); }
before=$(holders "$da" | wc -l)
tap_ok "cluster A has daemons and job processes ($before)" \
	$([ "$before" -ge 5 ]; echo $?)

kill -INT "${pids[0]}"
wait "${pids[0]}"
tap_ok "SIGINT ends the script that owns cluster A" 0
left=$(holders "$da")
tap_ok "nothing of cluster A is left after SIGINT" \
	$([ -z "$left" ]; echo $?) "$(ps -o pid,args -p "${left:-1}" 2>&1)"
tap_check "cluster B still runs its job" test "$(running "$db")" = 1

kill -TERM "${pids[1]}"
wait "${pids[1]}"
left=$(holders "$db")
tap_ok "nothing of cluster B is left after SIGTERM" \
	$([ -z "$left" ]; echo $?) "$(ps -o pid,args -p "${left:-1}" 2>&1)"
pids=()
tap_done
