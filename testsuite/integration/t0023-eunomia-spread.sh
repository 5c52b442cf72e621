#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0023: a job Slurm spreads over nodes is placed by the Placement too.
# Four nodes of 8 CPUs, n1 and n2 of speed 1, n3 and n4 of speed 3; each
# holds a 2-CPU job of another account, so 6 CPUs are idle on every node.
# A job of 12 one-CPU tasks (no node count) fits on no single node and
# Slurm spreads it over two.  With Placement=eunomia an account at its
# fair progress share (one with nothing running) goes to the fast nodes,
# n3 and n4; scored as if the job had to go on one node, every node scored
# +INFINITY and the steering ordered them by index (n1 and n2, seen before
# this test, 2026-12-03).  A job of 7 tasks held to one node with -N1
# fits on none of the 6 idle CPUs, and waits.  Plain select/cons_tres's choice
# is printed beside.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# wait_running N: until N jobs run (30 s at most).
wait_running()
{
	local t0=$SECONDS
	while [ $((SECONDS - t0)) -lt 30 ]; do
		[ "$(squeue -h -t R -o %i | wc -l)" -ge "$1" ] && return 0
		sleep 0.3
	done
	return 1
}

# run SELECT EUNOMIA_CONF: the four nodes partly busy, then the spread
# job; sets NODES (where it ran) and PINNED (the -N1 job's state).
run()
{
	local id pin
	NODES= PINNED=
	dirs+=("$(tap_rundir t0023)")
	hc_init "${dirs[-1]}" || return 1
	HC_NODES=$'n1 8 8000 gen1\nn2 8 8000 gen1\nn3 8 8000 gen4\nn4 8 8000 gen4' \
	HC_SELECT=$1 HC_EUNOMIA_CONF=$2 HC_HMRF_CONF=$'Period=1s' \
		hc_start || return 1
	for n in n1 n2 n3 n4; do
		sbatch -Q -A fill -w "$n" -n 2 --mem=1000 -t 5 -o /dev/null \
			--wrap 'sleep 300' >/dev/null || return 1
	done
	wait_running 4 || return 1
	id=$(sbatch --parsable -A a -n 12 --mem=100 -t 5 -o /dev/null \
		--wrap 'sleep 300') || return 1
	pin=$(sbatch --parsable -A a -N 1 -n 7 --mem=100 -t 5 \
		-o /dev/null --wrap 'sleep 300') || return 1
	wait_running 5 || return 1
	sleep 2 # a pass over the pinned job too
	NODES=$(squeue -h -j "$id" -o %N)
	PINNED=$(squeue -h -j "$pin" -o %T)
	hc_stop
}

run select/eunomia $'Placement=eunomia\nSpeedMap=gen1:1,gen4:3\nWindow=none\nPeriod=1s'
tap_ok "Placement=eunomia: the spread job ran" $?
tap_diag "Placement=eunomia: the 12-task job ran on $NODES, the 7-task -N1 one is $PINNED"
tap_ok "Placement=eunomia: the spread job ran on the fast nodes n3 and n4 ($NODES)" \
	$([ "$NODES" = "n[3-4]" ]; echo $?)
tap_ok "the 7-task job held to one node waits ($PINNED)" \
	$([ "$PINNED" = PENDING ]; echo $?)

run select/cons_tres ""
tap_ok "plain select/cons_tres: the spread job ran" $?
tap_diag "cons_tres: the 12-task job ran on $NODES, the 7-task -N1 one is $PINNED"
tap_done
