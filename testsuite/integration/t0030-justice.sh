#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0030: job_submit/justice on a real cluster (4 nodes of 2 CPUs).
# Jobs without a deadline pass untouched; nonsense deadlines are refused
# with a message; two bootstrap jobs teach it that deadline jobs need a
# tenth of their window; then a job whose deadline cannot be met is
# refused at sbatch with the deadline, the estimate and what would be
# feasible; a node range is sized to just enough nodes, and sized again
# while it waits; a pending job that can no longer make its deadline is
# dropped with a visible reason; a late running job above KillAbove is
# terminated, a small one is not; admitted pending jobs carry their
# urgency as site factor (sprio); the history survives a restart; a bad
# justice.conf stops slurmctld.  Justice keeps each job's facts in its own
# records, not in the AdminComment it writes for people: a job whose
# AdminComment an admin overwrote is sized again and learnt from as its
# twin is, and a waiting job's record survives a restart.
#
# From 23.11 slurmctld refuses a deadline job whose time limit, or else
# --time-min, does not fit before the deadline (-t UNLIMITED alone no
# longer passes), and cancels a waiting one once less than its time_min is
# left: a deadline there is at least a minute away.  On such a Slurm the
# jobs carry --time-min=1 (what slurmctld gives a deadline job without a
# limit anyway), their windows are 3 times as long plus the seconds
# slurmctld takes to start them (S, M), and the elastic job waiting behind
# a full cluster has 200 s, so that Justice sizes it again before
# slurmctld's own minute runs out.  The job that cannot make its deadline
# (IB, ID) may begin 62 s before it (the minute slurmctld requires), too
# late for any fraction above 2% that Justice can have learnt.  A deadline job can then never run past
# its deadline (slurmctld starts none with less than a minute left and
# cuts its limit to the whole minutes left), so the checks of Justice
# terminating a late job cannot apply there, and say so.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
hc_test_setup t0030
case $("$HC_SBIN/slurmctld" -V | awk '{ print $2 }') in
22.* | 23.02.*) S=1 M=0 EL=40 IB=19 ID=20 TL="-t UNLIMITED" ;;
*) S=3 M=5 EL=200 IB=3000 ID=3062 TL="-t UNLIMITED --time-min=1" ;;
esac
# win SECONDS: a deadline SECONDS (22.05's) from now, scaled.
win() { echo "now+$(($1 * S + M))"; }
dir=$HC_RUNDIR
JCONF=$'# Justice, fast\nBootstrap=2\nPeriod=1s\nKillAbove=2\nHistoryLength=100'
HC_NODES=$'n1 2 2000\nn2 2 2000\nn3 2 2000\nn4 2 2000' \
HC_JUSTICE_CONF=$JCONF HC_HMRF_CONF=$'Period=1s' hc_start
tap_ok "a cluster with job_submit/justice started" $? || tap_done
log=$dir/log/slurmctld.log
cd "$dir" || exit 1
grep -q "job_submit/justice: policy justice, history of 100 jobs, bootstrap 2 jobs, period 1s" "$log"
tap_ok "justice says its settings at start" $? "$(grep justice "$log")"

# No deadline: untouched.
j=$(sbatch --parsable -n1 -o /dev/null --wrap true)
tap_check "a job without a deadline is accepted untouched" \
	bash -c "scontrol show job $j | grep -q 'AdminComment=(null)' ||
		! scontrol show job $j | grep -q AdminComment"

# Nonsense.  (Deadline jobs below run with -t UNLIMITED: slurmctld itself
# cancels a deadline job whose time limit, or one minute without a limit,
# no longer fits before its deadline; Justice refuses such jobs at
# submission, tested here, and its own decisions are tested on jobs that
# rule leaves alone.)
out=$(sbatch -n1 --deadline=2020-01-01T00:00:00 -o /dev/null --wrap true 2>&1)
tap_ok "a deadline in the past is refused" \
	$(echo "$out" | grep -q "job_submit/justice: the deadline 2020-01-01T00:00:00 is not in the future"; echo $?) "$out"
out=$(sbatch -n1 -t 10 --deadline=now+120 -o /dev/null --wrap true 2>&1)
tap_ok "a deadline closer than the time limit is refused, naming it" \
	$(echo "$out" | grep -q "less than the job's time limit (10 min) away"; echo $?) "$out"
out=$(sbatch -n1 --deadline=now+30 -o /dev/null --wrap true 2>&1)
tap_ok "so is one closer than the minute Slurm gives a job without a limit" \
	$(echo "$out" | grep -q "minimum time Slurm gives a deadline job without a time limit (1 min)"; echo $?) "$out"

# Bootstrap: two jobs that use 2 s of a 20-s window (a tenth).
b1=$(sbatch --parsable -n2 $TL --deadline=$(win 20) -o /dev/null --wrap "sleep $((2 * S))")
b2=$(sbatch --parsable -n2 $TL --deadline=$(win 20) -o /dev/null --wrap "sleep $((2 * S))")
tap_check "bootstrap jobs are admitted while learning" \
	bash -c "scontrol show job $b1 | grep -q 'AdminComment=justice: up to 2 CPUs; admitted while learning'"
hc_wait_jobs_done $((30 * S))
sleep 3 # one period: learnt
grep -q "job_submit/justice" "$log"
state=$dir/state/horae_justice.state
# Readable by all (sfair -D for everyone; no account's usage in it),
# writable by SlurmUser alone.
tap_check "the history is saved in StateSaveLocation, mode 0644" \
	test "$(stat -c %a "$state" 2>/dev/null)" = 644
tap_check "it holds the two finished jobs" \
	bash -c "grep -q '\"learnt\":2' '$state'"

# Infeasible at sbatch: it cannot begin for 19 s of its 20-s window; at a
# tenth of the window it needs 2 CPUs for every one it may use.
out=$(sbatch -n2 --begin=now+$IB $TL --deadline=now+$ID -o /dev/null --wrap true 2>&1)
tap_ok "a job whose deadline cannot be met is refused at sbatch" \
	$(echo "$out" | grep -q "cannot be met"; echo $?) "$out"
tap_ok "the message names the deadline, the estimate and what is feasible" \
	$(echo "$out" | grep -Eq "deadline [0-9T:-]+ cannot be met: from 2 finished jobs Justice estimates it needs [0-9]+ CPUs .* it may use at most 2; feasible: a deadline at or after [0-9T:-]+, or [0-9]+ CPUs"; echo $?) "$out"
tap_diag "sbatch: $out"

# A node range is sized to just enough: a tenth of 8 CPUs is 1 node.  (It
# then uses a tenth of its window, 16 CPU-s of 8 CPUs x 20 s, and so
# teaches what the bootstrap jobs taught.)
e=$(sbatch --parsable -N 1-4 --ntasks-per-node=2 $TL --deadline=$(win 20) \
	-o /dev/null --wrap "sleep $((8 * S))")
# Its twin, whose AdminComment an admin overwrites at once.
e2=$(sbatch --parsable -N 1-4 --ntasks-per-node=2 $TL --deadline=$(win 20) \
	-o /dev/null --wrap "sleep $((8 * S))")
scontrol update JobId="$e2" AdminComment=overwritten
show=$(scontrol show job "$e")
tap_ok "a node range 1-4 is sized to 1 node" \
	$(echo "$show" | grep -Eq "NumNodes=1(-1)? " && echo "$show" | grep -q "sized to 1 nodes"; echo $?) \
	"$(echo "$show" | grep -E 'NumNodes|AdminComment')"
hc_wait_jobs_done $((30 * S))
sleep 2 # one period: both learnt
le=$(grep "learnt from JobId=$e " "$log")
le2=$(grep "learnt from JobId=$e2 " "$log")
tap_diag "$le"
tap_diag "$le2"
tap_ok "the twin whose AdminComment was overwritten is learnt from with its recorded facts" \
	$(echo "$le2" | grep -q "(recorded): .* up to 8 CPUs, allotted [1-9]"; echo $?) "$le2"
# The twins are alike until one is judged again while it waits: the
# admin's update of e2 does it (Justice judges a modified job), and so
# does a period spent waiting for nodes (a loaded machine).  A twin
# judged again may be sized again (its CPUs differ) or given the
# allotment it needs by then (seen: allotted 1 against its twin's 2 on
# the same CPUs).  The most CPUs it may use comes from the record in
# every case; a twin judged again is learnt with the allotment it was
# last given; when neither was, the twins' allotment and claim agree.
c1=$(scontrol show job "$e" 2>/dev/null | grep -o 'NumCPUs=[0-9]*')
c2=$(scontrol show job "$e2" 2>/dev/null | grep -o 'NumCPUs=[0-9]*')
again=$(grep -E "job_submit/justice: JobId=($e|$e2)[: ]" "$log")
tap_diag "twins ran with $c1 and $c2${again:+; judged again while waiting: $again}"
# last_given ID: the CPUs Justice last gave job ID when it judged it
# again, or nothing.
last_given()
{
	grep -E "job_submit/justice: JobId=$1[: ]" "$log" | tail -1 |
		grep -oE '(needs|for) [0-9]+ CPUs' | grep -oE '[0-9]+'
}
allotted() { grep -oE 'allotted [0-9]+' <<<"$1" | grep -oE '[0-9]+'; }
up() { grep -o 'up to [0-9]* CPUs' <<<"$1"; }
if [ -n "$c1" ] && [ "$c1" = "$c2" ] && [ -z "$again" ]; then
	[ -n "$le" ] && [ "${le##* up to }" = "${le2##* up to }" ]
else
	ok=0
	[ -n "$le" ] && [ -n "$(up "$le")" ] && [ "$(up "$le")" = "$(up "$le2")" ] || ok=1
	for pair in "$e:$le" "$e2:$le2"; do
		g=$(last_given "${pair%%:*}")
		[ -z "$g" ] || [ "$g" = "$(allotted "${pair#*:}")" ] || ok=1
	done
	[ "$ok" = 0 ]
fi
tap_ok "as its twin is (same CPUs, allotment and claim; the same most CPUs if one was judged again)" $? "$le"
tap_check "the history grew by the two ($(grep -o '"learnt":[0-9]*' "$state"))" \
	grep -q '"learnt":4' "$state"

# But never below what its own time limit claims: Slurm may start a 1-4
# node range on 1 node and ends it at its limit, 2 min there (2 CPUs x
# 120 s); with 90 s to its deadline it will have 60 s, so 4 CPUs, 2
# nodes, while the estimate is a CPU or two (what the jobs before taught,
# which depends on their timing): the note says the limit set the size.
# (Held, so that it teaches nothing to what follows.)
c=$(sbatch --parsable -H -N 1-4 --ntasks-per-node=2 -t 2 --time-min=1 \
	--deadline=now+90 -o /dev/null --wrap 'sleep 8')
show=$(scontrol show job "$c")
tap_ok "a node range is sized to what its own time limit needs in the time it has (2 nodes)" \
	$(echo "$show" | grep -Eq "NumNodes=2(-2)? " &&
	  echo "$show" | grep -Eq "sized to 2 nodes for [12] CPUs \(more: its time limit\); limit 2 min"; echo $?) \
	"$(echo "$show" | grep -E 'NumNodes|AdminComment')"
scancel "$c"

# Drop: the cluster is full for a minute; a 20-s deadline job waits and
# is dropped once it can no longer make it (after about 18 s).
full=$(sbatch --parsable -N4 -n8 -o /dev/null --wrap "sleep $((60 * S))")
sleep 1
d=$(sbatch --parsable -n2 $TL --deadline=now+$((20 * S + 3 * M)) -o /dev/null --wrap true)
u=$(sbatch --parsable -n1 $TL --deadline=now+600 -o /dev/null --wrap true)
# An elastic job waiting behind it is sized again every period: the less
# time is left, the more nodes it needs (the paper's queue stretch: a
# tenth of 8 CPUs x 40 / (40 - waited) is more than one node's 2 CPUs
# after 24 s, more than 8, infeasible, after 36 s).
el=$(sbatch --parsable -N 1-4 --ntasks-per-node=2 $TL \
	--deadline=now+$EL -o /dev/null --wrap true)
# And its twin, whose AdminComment an admin overwrites.
el2=$(sbatch --parsable -N 1-4 --ntasks-per-node=2 $TL \
	--deadline=now+$EL -o /dev/null --wrap true)
scontrol update JobId="$el2" AdminComment=overwritten
sleep 3
site=$(sprio -h -o '%i %S' 2>&1)
tap_ok "admitted pending deadline jobs carry their urgency as site factor" \
	$(echo "$site" | awk -v a="$d" -v b="$u" '($1 == a || $1 == b) && $2 > 0 { n++ } END { exit n != 2 }'; echo $?) "$site"
# job_modify judges a change: a 20-min time limit on a job whose deadline
# is 10 min away (with --time-min, slurmctld holds a job to that instead
# and cuts the limit to fit: then a 20-min --time-min).
if [ "$S" = 1 ]; then
	change=timelimit=20 what="time limit"
else
	change=timemin=20 what="minimum time"
fi
out=$(scontrol update jobid="$u" $change 2>&1)
tap_ok "scontrol update to a $what past the deadline is refused" \
	$([ -n "$out" ]; echo $?) "$out"
grep -q "job_submit/justice: refused: the deadline .* is less than the job's $what (20 min) away" "$log"
tap_ok "by job_submit/justice, which logs why" $? "$(grep "refused" "$log" | tail -2)"
tap_check "the job keeps its old deadline" \
	bash -c "squeue -h -j $u -o %T | grep -q PENDING"
# ... and accepts a change it can meet: a later deadline.
out=$(scontrol update jobid="$u" deadline=now+900 2>&1)
tap_ok "scontrol update to a later deadline is accepted" $? "$out"

for _ in $(seq $((40 * S))); do
	[ "$(squeue -h -j "$d" -o %T 2>/dev/null)" = "" ] && break
	sleep 1
done
show=$(scontrol show job "$d")
tap_ok "the waiting job is dropped once it cannot make its deadline" \
	$(echo "$show" | grep -q "JobState=DEADLINE"; echo $?) "$(echo "$show" | grep -E 'JobState|Reason')"
if [ "$S" = 1 ]; then
	tap_ok "with a reason users can see" \
		$(echo "$show" | grep -q "job_submit/justice:.can.no.longer.meet.its.deadline"; echo $?) \
		"$(echo "$show" | grep -E 'Reason')"
else
	# slurmctld drops it first, once less than its minute is left.
	grep -q "JobId=$d with time_min 1 exceeded deadline .* and cancelled" "$log"
	tap_ok "with a reason in slurmctld's log (this Slurm drops it first)" $? \
		"$(grep "JobId=$d" "$log" | tail -3)"
fi
tap_check "an elastic job keeps its range in its note" \
	bash -c "scontrol show job $el | grep -q 'AdminComment=justice: up to 8 CPUs (1-4 nodes of 2); sized to 1 nodes'"
for _ in $(seq "$EL"); do
	grep -q "JobId=$el sized again" "$log" && break
	sleep 1
done
tap_ok "while it waits it is sized again to more nodes" \
	$(grep -Eq "JobId=$el sized again, 1 to [234] nodes" "$log"; echo $?) \
	"$(grep "JobId=$el" "$log")"
tap_check "and its note says so" \
	bash -c "scontrol show job $el | grep -Eq 'AdminComment=justice: up to 8 CPUs \(1-4 nodes of 2\); sized to [234] nodes for [0-9]+ CPUs, [0-9]+ s after submission'"
for _ in $(seq 5); do
	grep -q "JobId=$el2 sized again" "$log" && break
	sleep 1
done
tap_ok "so is its twin whose AdminComment was overwritten" \
	$(grep -Eq "JobId=$el2 sized again, 1 to [234] nodes" "$log"; echo $?) \
	"$(grep "JobId=$el2" "$log")"
tap_check "whose comment stays the admin's" \
	bash -c "scontrol show job $el2 | grep -q 'AdminComment=overwritten'"
scancel "$full" "$u" "$el" "$el2"
hc_wait_jobs_done 30

# A job array's tasks are learnt from with the array's record.  (Before
# the late jobs below: the 1-CPU one teaches that a job needs twice its
# CPUs, and an array waiting for nodes still completing the killed job
# was then rightly dropped, once, before it could start.)
arr=$(sbatch --parsable --array=0-1 -n1 $TL --deadline=$(win 30) \
	-o /dev/null --wrap 'sleep 2')
hc_wait_jobs_done 30
sleep 2 # one period: learnt
la=$(grep -E "learnt from JobId=${arr}_[01]\(" "$log")
tap_ok "both tasks of a job array are learnt from with its record" \
	$([ "$(echo "$la" | grep -c '(recorded)')" = 2 ]; echo $?) "$la"

# Kill: two jobs run past a 5-s deadline; the 4-CPU one (above
# KillAbove=2) is terminated, the 1-CPU one finishes and teaches.
if [ "$S" = 1 ]; then
	big=$(sbatch --parsable -n4 $TL --deadline=now+5 -o /dev/null --wrap 'sleep 25')
	small=$(sbatch --parsable -n1 $TL --deadline=now+5 -o /dev/null --wrap 'sleep 10')
	hc_wait_jobs_done 40
	tap_check "the late 4-CPU job was terminated at its deadline" \
		bash -c "scontrol show job $big | grep -q 'JobState=DEADLINE'"
	tap_check "the late 1-CPU job ran to completion" \
		bash -c "scontrol show job $small | grep -q 'JobState=COMPLETED'"
	grep -q "job_submit/justice: terminating JobId=$big" "$log"
	tap_ok "the log says why the big one was terminated" $? "$(grep terminating "$log")"
else
	why="this Slurm runs no deadline job past its deadline"
	tap_skip "the late 4-CPU job was terminated at its deadline" "$why"
	tap_skip "the late 1-CPU job ran to completion" "$why"
	tap_skip "the log says why the big one was terminated" "$why"
fi

# The history survives a restart, and so does a waiting job's record.
h=$(sbatch --parsable -H -N 1-4 --ntasks-per-node=2 $TL \
	--deadline=now+600 -o /dev/null --wrap true)
sleep 2
rec() {
	sed -n 2p "$state" | jq -c --argjson j "$1" '.records[] |
		select(.key == $j) | [.elastic, .min_nodes, .max_nodes,
			.per_node, .max_cpus, .sized_to, .allotted]'
}
r0=$(rec "$h")
tap_ok "Justice keeps a waiting job's facts in its state under its job id ($r0)" \
	$(echo "$r0" | grep -Eq '^\[true,1,4,2,8,[0-4],[1-9][0-9.]*\]$'; echo $?)
learnt=$(grep -o '"learnt":[0-9]*' "$state")
hc_kill_ctld TERM
hc_start_slurmctld
hc_wait_ctld 30
tap_ok "slurmctld restarts" $?
grep -q "job_submit/justice: loaded a history of [0-9]* finished jobs" "$log"
tap_ok "justice loaded its history ($learnt)" $? "$(grep justice "$log" | tail -3)"
out=$(sbatch -n2 --begin=now+$IB $TL --deadline=now+$ID -o /dev/null --wrap true 2>&1)
tap_ok "and refuses an infeasible job at once, without a new bootstrap" \
	$(echo "$out" | grep -q "cannot be met"; echo $?) "$out"
sleep 2 # one period: the refusal is counted and saved
out=$("$HORAE_BINDIR/sfair" -D -P -n 2>&1)
tap_ok "sfair -D shows what Justice learnt and counted ($out)" \
	$(echo "$out" | awk -F'|' -v l="${learnt#*:}" 'NF == 9 && $1 >= l && $1 > 0 && $2 > 0 && $2 <= 1 && $7 > 0 { ok = 1 } END { exit !ok }'; echo $?)
grep -q "job_submit/justice: loaded a history of .* and the records of [1-9][0-9]* deadline jobs" "$log"
tap_ok "it loaded its records" $? "$(grep 'loaded a history' "$log" | tail -1)"
r1=$(rec "$h")
tap_ok "the waiting job's record survived the restart ($r1)" \
	$([ -n "$r0" ] && [ "$r1" = "$r0" ]; echo $?)
scancel "$h"

# A state file of version 1 (before the records) still loads, with none.
hc_kill_ctld TERM
rm -f "$state.old" "$state.new"
PYTHONPATH=$HERE/lib python3 - "$state" <<'EOF'
import sys
import horae_state
head, doc = horae_state.read(sys.argv[1])
del doc['records'], doc['pending']
horae_state.write(sys.argv[1], 'horae-justice', 1, doc)
EOF
: >"$log"
hc_start_slurmctld
hc_wait_ctld 30
grep -q "job_submit/justice: loaded a history of [1-9][0-9]* finished jobs .* and the records of 0 deadline jobs" "$log" &&
	grep -q "is of version 1: it has no job records" "$log"
tap_ok "a state file of version 1 still loads, with no records" $? \
	"$(grep justice "$log" | head -4)"

# A bad justice.conf stops slurmctld with file and line.
hc_stop
HC_NODES=$'n1 2 2000' HC_JUSTICE_CONF=$'Bootstrap=2\nSmoothing=kalman' \
	hc_start 2>/dev/null
tap_ok "a bad justice.conf stops slurmctld" $(hc_ctld_alive && echo 1 || echo 0)
grep -q "fatal: job_submit/justice: $dir/justice.conf:2: Smoothing=kalman: use equal or exp:ALPHA" "$log"
tap_ok "and its log names file, line and problem" $? "$(grep -i justice "$log" | tail -2)"
tap_done
