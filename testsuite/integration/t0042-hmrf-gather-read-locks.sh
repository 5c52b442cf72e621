#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0042: priority/hmrf walks the job records with read locks alone, and
# still charges Slurm's usage what the jobs ran, once.
#
# The gather (the walk of every job record) holds slurmctld's job, node
# and partition read locks and assoc_mgr's association, QOS and TRES read
# locks; Slurm's usage is charged, and the priorities written, after the
# ranking, in a short hold of the write locks.  gdb holds a gather still
# (non-stop mode, a breakpoint on hmrf_recalc_gather, whose caller holds
# those locks) while slurmctld's other threads run on:
#   - squeue, which reads the jobs and the associations, answers, and so
#     does sprio;
#   - sbatch, which needs the job write lock, has not returned while the
#     thread is still there, and returns with its job once it goes.
# Before this change the gather held the job and association write locks
# and squeue waited for it.
#
# A job that ends between the gather and the charge (gdb holds the thread
# in hmrf_recalc_rank, between the two, while scancel ends a job of 8
# CPUs) is charged what it ran: sshare's RawUsage of its account is
# 8 x (EndTime - StartTime), within a second's rounding of each end, and
# stays so over two more Periods, within 1 CPU-s (not charged twice; the
# default decay, a half-life of 7 days, takes 0.01 CPU-s of it in that
# time).  Twice: without AccountingStorageEnforce=limits
# (slurmctld does not tell the plugin of the end: the gather noted the job
# running, the charge after it charges it up to the gather's time and the
# next gather its end) and with it (priority_p_job_end charges the end from
# where Slurm's usage was last charged, and the charge after the gather
# leaves the job alone).  The job runs past a recalculation before the
# held one, so that the part of its run the held gather notes is a whole
# Period, 8 CPUs x 5 s: a charge of it lost or doubled is well outside
# that rounding (with priority_p_job_end charging from the books' last
# charge, as it did before this change, 43 of 84 CPU-s in the limits
# case, with a 10 s Period and 4 CPUs).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/gdb.sh"

hc_pair_setup t0042-no-limits t0042-limits
command -v gdb >/dev/null || tap_skip_all "gdb not installed (contribs/horae-deps installs it)"

d=
trap '[ -n "$GDB_PID" ] && kill "$GDB_PID" 2>/dev/null; _hc_group_stop; _hc_may_remove && rm -rf "${HC_GROUP[@]}"' EXIT

# run_case NAME ENFORCE DIR
run_case()
{
	local name=$1 enforce=$2 ctld j1 j2 st start end want raw raw2 still spid
	d=$3
	hc_init "$d" || { tap_ok "$name: run directory" 1; return; }
	HC_ACCOUNTING=1 HC_ACCOUNTS="physics:1 chem:1" HC_NODES="n1 8 8000" \
	HC_PRIORITY=priority/hmrf HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_DEBUG=verbose HC_EXTRA_CONF="AccountingStorageEnforce=$enforce"$'\nDebugFlags=Priority' \
	HC_HMRF_CONF=$'Window=none\nPeriod=5s' \
		hc_start
	tap_ok "$name: cluster with slurmdbd, AccountingStorageEnforce=$enforce, up" $? || return

	j1=$(sbatch --parsable -A physics -n 8 -t 10 -o /dev/null --wrap 'sleep 600')
	for _ in $(seq 60); do
		[ "$(squeue -h -j "$j1" -o %T)" = RUNNING ] && break
		sleep 0.5
	done
	tap_ok "$name: job $j1 (physics, 8 CPUs) runs" \
		$([ "$(squeue -h -j "$j1" -o %T)" = RUNNING ]; echo $?)
	# Past a recalculation, so that the part the held gather notes (from
	# the last charge to its time) is a whole Period: 40 CPU-s.
	sleep 6

	ctld=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
	gdb_attach "$d" "$ctld"
	gdb_stop_in hmrf_recalc_gather 1
	tap_ok "$name: gdb stopped the plugin's thread in hmrf_recalc_gather" $?
	# Each step bounded: one that waited for the gather would wait until
	# gdb let the thread go.
	timeout 30 squeue -h -o %i >"$d/squeue" 2>&1
	echo $? >"$d/squeue.rc"
	timeout 30 sprio -h >"$d/sprio" 2>&1
	echo $? >"$d/sprio.rc"
	rm -f "$d/j2" "$d/j2.rc"
	(timeout 60 sbatch --parsable -A chem -n 1 -t 1 -o /dev/null \
		--wrap true >"$d/j2" 2>"$d/j2.err"; echo $? >"$d/j2.rc") &
	spid=$!
	sleep 3
	[ -e "$d/j2.rc" ] && echo returned >"$d/j2.early"
	still=$(gdb_threads "GATHER" | grep -o '"hmrf" *hmrf_recalc_gather')
	tap_ok "$name: squeue answered while the gather held its locks" \
		$([ "$(cat "$d/squeue.rc")" = 0 ] && grep -qx "$j1" "$d/squeue"; echo $?)
	tap_ok "$name: sprio answered too" \
		$([ "$(cat "$d/sprio.rc")" = 0 ]; echo $?)
	tap_ok "$name: sbatch waited for the gather (not returned after 3 s, the thread still there)" \
		$([ ! -e "$d/j2.early" ] && [ -n "$still" ]; echo $?)

	# Between the gather and the charge: the ranking.
	printf 'delete\n' >&7
	gdb_stop_in hmrf_recalc_rank 2
	tap_ok "$name: then in hmrf_recalc_rank, between the gather and the charge" $?
	wait "$spid" # sbatch, which the gather's end let through
	j2=$(cat "$d/j2" 2>/dev/null)
	tap_ok "$name: sbatch returned once the gather was done (job $j2)" \
		$([ "$(cat "$d/j2.rc" 2>/dev/null)" = 0 ] && [ -n "$j2" ]; echo $?)
	timeout 30 scancel "$j1"
	for _ in $(seq 40); do
		st=$(timeout 30 squeue -h -j "$j1" -o %T 2>/dev/null)
		[ "$st" != RUNNING ] && break
		sleep 0.5
	done
	tap_ok "$name: scancel ended job $j1 meanwhile ($st)" \
		$([ "$st" != RUNNING ]; echo $?)
	gdb_detach

	# Two Periods for the next gathers (the end's, without limits).
	sleep 11
	st=$(scontrol show job "$j1")
	start=$(date -d "$(echo "$st" | grep -o 'StartTime=[^ ]*' | cut -d= -f2)" +%s)
	end=$(date -d "$(echo "$st" | grep -o 'EndTime=[^ ]*' | cut -d= -f2)" +%s)
	want=$((8 * (end - start)))
	raw=$(sshare -h -n -P -A physics -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /physics/ { print $2; exit }')
	tap_diag "$name: physics RawUsage $raw; job $j1 ran $((end - start)) s on 8 CPUs = $want CPU-s"
	tap_ok "$name: Slurm's usage of physics is what job $j1 ran ($raw of $want CPU-s)" \
		$(awk -v u="${raw:-0}" -v w="$want" 'BEGIN { d = u - w; if (d < 0) d = -d; exit !(w > 0 && d <= 8 * 2) }'; echo $?)
	sleep 11
	raw2=$(sshare -h -n -P -A physics -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /physics/ { print $2; exit }')
	tap_ok "$name: and two Periods later still ($raw2): charged once" \
		$(awk -v a="${raw:-x}" -v b="${raw2:-y}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && d <= 1) }'; echo $?)
	hc_stop
}

run_case "no limits" associations "$HC_PAIR_A"
run_case limits associations,limits "$HC_PAIR_B"
tap_done
