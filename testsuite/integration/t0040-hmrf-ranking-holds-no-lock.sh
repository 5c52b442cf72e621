#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0040: while priority/hmrf ranks, slurmctld's job lock does not wait for
# it.  The ranking runs under the plugin's mutex with slurmctld's locks
# let go; slurmctld calls priority_p_set (a submission) and
# priority_p_job_end (a job's end, with AccountingStorageEnforce=limits)
# with its job write lock held, so had they waited for the mutex every
# submission, query and scheduling pass would wait for the ranking too.
#
# gdb holds a ranking still: attached in non-stop mode with a breakpoint
# on hmrf_recalc_rank, it stops the plugin's thread alone there (mutex
# held, the books closed) while slurmctld's other threads run on.  Then
#   - sbatch returns, and the new job has its priority (squeue %Q > 0);
#   - scancel of a running job returns and the job leaves RUNNING;
#   - squeue answers;
# and the thread is still stopped there after them (gdb's `info threads`).
# Once it goes, the job's end reaches the books (the log line of
# DebugFlags=Priority says ends came during a recalculation), and the
# books' usage of the account is what the job ran, CPUs x seconds (within
# a second's rounding of each end): nothing lost, nothing twice.  Before
# the change that added this test, sbatch and scancel waited until gdb
# let the thread go.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/gdb.sh"
. "$HERE/lib/hmrf.sh"

hc_test_setup t0040
command -v gdb >/dev/null || tap_skip_all "gdb not installed (contribs/horae-deps installs it)"

HC_ACCOUNTING=1 HC_ACCOUNTS="physics:1 chem:1" HC_NODES="n1 8 8000" \
HC_PRIORITY=priority/hmrf HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
HC_DEBUG=verbose HC_EXTRA_CONF=$'AccountingStorageEnforce=associations,limits\nDebugFlags=Priority' \
HC_HMRF_CONF=$'Window=none\nPeriod=1s' \
	hc_start
tap_ok "cluster with slurmdbd and AccountingStorageEnforce=limits up" $? || tap_done

j1=$(sbatch --parsable -A physics -n 4 -t 10 -o /dev/null --wrap 'sleep 600')
for _ in $(seq 60); do
	[ "$(squeue -h -j "$j1" -o %T)" = RUNNING ] && break
	sleep 0.5
done
tap_ok "job 1 (physics, 4 CPUs) runs" \
	$([ "$(squeue -h -j "$j1" -o %T)" = RUNNING ]; echo $?)
sleep 3 # ran for a few recalculations

ctld=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
trap '[ -n "$GDB_PID" ] && kill "$GDB_PID" 2>/dev/null; hc_stop; _hc_may_remove && rm -rf "$HC_TEST_DIR"' EXIT
d=$HC_TEST_DIR
gdb_attach "$d" "$ctld"
gdb_stop_in hmrf_recalc_rank 1
tap_ok "gdb stopped the plugin's thread in hmrf_recalc_rank" $?

# Each step bounded: one that waited for the mutex would wait until gdb
# let the thread go.
timeout 30 sbatch --parsable -A chem -n 1 -t 1 -o /dev/null --wrap true \
	>"$d/j2" 2>"$d/j2.err"
echo $? >"$d/j2.rc"
timeout 30 squeue -h -j "$(cat "$d/j2")" -o %Q >"$d/j2.prio" 2>&1
timeout 30 scancel "$j1"
echo $? >"$d/cancel.rc"
for _ in $(seq 40); do
	s=$(timeout 30 squeue -h -j "$j1" -o %T 2>/dev/null)
	[ "$s" != RUNNING ] && break
	sleep 0.5
done
echo "$s" >"$d/j1.state"
timeout 30 squeue -h -o %i >"$d/squeue" 2>&1
echo $? >"$d/squeue.rc"
still=$(gdb_threads AFTER | grep -o '"hmrf" *hmrf_recalc_rank')
tap_ok "and it was still there after the steps below" $([ -n "$still" ]; echo $?)
gdb_detach

j2=$(cat "$d/j2" 2>/dev/null)
tap_ok "sbatch returned meanwhile (job $j2)" \
	$([ "$(cat "$d/j2.rc" 2>/dev/null)" = 0 ] && [ -n "$j2" ]; echo $?)
p=$(cat "$d/j2.prio" 2>/dev/null)
tap_ok "and the new job has its priority ($p)" \
	$(awk -v p="$p" 'BEGIN { exit !(p ~ /^[0-9]+$/ && p > 0) }'; echo $?)
tap_ok "scancel of job 1 returned meanwhile and job 1 left RUNNING ($(cat "$d/j1.state" 2>/dev/null))" \
	$([ "$(cat "$d/cancel.rc" 2>/dev/null)" = 0 ] &&
		[ "$(cat "$d/j1.state" 2>/dev/null)" != RUNNING ]; echo $?)
tap_ok "squeue answered meanwhile" \
	$([ "$(cat "$d/squeue.rc" 2>/dev/null)" = 0 ]; echo $?)

# The job's end reached the books once the thread went on.
log=$HC_RUNDIR/log/slurmctld.log
for _ in $(seq 20); do
	grep -q "job end(s) that came during a recalculation" "$log" && break
	sleep 0.5
done
line=$(grep -m1 "job end(s) that came during a recalculation" "$log")
tap_diag "log: ${line#*priority/hmrf: }"
# Job 2 may have run and ended meanwhile too: one end or more.
tap_ok "the ends that came meanwhile waited for the books and reached them after the ranking" \
	$(echo "$line" | grep -Eq ": [1-9][0-9]* job end\(s\) .* after the ranking$"; echo $?)
sleep 2 # a recalculation after, and its state published
st=$(scontrol show job "$j1")
start=$(date -d "$(echo "$st" | grep -o 'StartTime=[^ ]*' | cut -d= -f2)" +%s)
end=$(date -d "$(echo "$st" | grep -o 'EndTime=[^ ]*' | cut -d= -f2)" +%s)
used=$(hmrf_usage physics cpu)
want=$((4 * (end - start)))
tap_diag "physics: $used CPU-s in the books; job 1 ran $((end - start)) s on 4 CPUs = $want"
tap_ok "the books charged job 1 what it ran, once ($used of $want CPU-s)" \
	$(awk -v u="$used" -v w="$want" 'BEGIN { d = u - w; if (d < 0) d = -d; exit !(w > 0 && d <= 4 * 2) }'; echo $?)
tap_done
