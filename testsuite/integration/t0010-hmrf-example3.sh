#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0010: Examples 3 and 4 of the H-MRF paper on a real cluster.  One node
# of 100 CPUs and 100 GB paid for equally by accounts A and B.
#
# Example 3 (Table 1): A's jobs take 1 CPU and 4 GB, B's 4 CPUs and 1 GB;
# at steps 1-4, A submits 30, 20, 27, 10 jobs and B 4, 24, 8, 30.  Under
# memoryless drf the jobs started per step must be Table 1's exactly (A 24
# 20 22 20 / B 4 20 12 20), and hmrf must keep A's and B's accumulated
# aggregates less than half as far apart as drf does.
#
# Example 4 (Figs. 3-5): A's jobs take 1 CPU and 2 GB, B's 1 CPU and 1 GB;
# 15 and 80 jobs at step 1, 60 and 40 to run at step 2.  lt-af must start
# exactly 15/70, then leave B below what it would have had on half the
# cluster (20 jobs; the paper's 42/16 is printed beside what ran); hmrf
# must give B at least those 20 (sharing incentive).
#
# Each run also prints H-MRF's per-step counts beside the paper's.  They
# rest on the books seeing what the paper's steps are: capacity in service
# only while the step's jobs run, and each job charged STEP seconds.  Two
# things a real cluster adds change them, and the test keeps both out
# (and a third the test itself once added):
# - Time with demand, capacity and no allocation, which the books rightly
#   count as entitlement.  state=resume leaves the node in service for a
#   second or more before slurmd registers again and the pass comes (5-6
#   s on a loaded machine, 2026-12-01, which gave hmrf's B 7-12 at step 2
#   for the paper's 20); state=idle puts it back and asks for the pass in
#   one RPC.  What such a gap does is asserted where it can be set:
#   horae-sim --start-latency in t0400 and hmrf_books_test's
#   test_example4_scheduling_latency (Example 4 35/30 with 1 s of a 6-s
#   step, 37/26 with 0.5 s).
# - Jobs off the step: charged other than STEP, or started in an ended
#   job's place before the drain (see the step model below).  Each job
#   ends STEP s after the start slurmctld records (hmrf_submit_exact),
#   but slurmd launched 85 jobs at about 5 a second on a loaded machine
#   (2026-12-01): the last began 14 s after its start, and 6-s jobs ran
#   up to 16 s; and slurmctld records a job's end when the completion
#   reaches it, in whole seconds: within the second for Example 3's steps
#   of about 30 jobs, up to about 2 s late for Example 4's 85 ending at
#   once beside another cluster.  STEP is 20 s;
#   a run with any job off the step is reported, and what depends on its
#   counts skipped, not judged: the jobs started per step on the jobs off
#   it before the last step, the accumulated aggregates on all of them.
# - Demand before its step.  The paper's jobs of a step arrive at that
#   step; submitted while the step before ran, A's 60 of Example 4's
#   step 2 were demand during step 1, so A's non-sharing for it was 25
#   jobs' worth, not the 15 it asked for (the books were right: A did
#   wait for more than its half), which put A's beta after step 1 near
#   0.6 for the paper's 1 and gave hmrf 42/16 and 37/25 at step 2 (A's
#   non-sharing 1015 and 1040 CPU-s for the paper's 800; CI and a run
#   here, 2026-12-03).  A step's jobs are submitted once the last step's
#   have ended, on the drained node.
# With both, Example 3 ran Table 1 exactly under hmrf (both releases'
# t0010 at once, 2026-12-01); Example 4's step 2 was skipped in those
# runs, 16-91 of hmrf's jobs charged 21 s.
#
# The step model on Slurm: the node is drained between steps; a step starts
# by putting it back in service after priority/hmrf has ranked the pending
# jobs, and the node is drained again as soon as a job runs: a step is one
# main scheduling pass, which holds slurmctld's job lock from its first
# start to its last, so the first running job squeue sees is the whole
# pass.  Waiting for the running count to hold still instead let the
# step's first jobs end before the drain on a loaded machine and others
# start in their place, jobs of the next step's pool (the drain came 8 s
# after the pass, or never, 2026-12-01).  The pass must be whole: the main
# scheduler alone (sched/builtin: backfill, every 30 s, starts jobs in its
# own order and lets go of the lock between them), every pending job
# looked at (default_queue_depth=1000), and 30 s for it (max_sched_time,
# by default 2 s, ended a pass of 85 jobs on a loaded machine and gave
# lt-af 15 / 55 for 15 / 70, 2026-11-29; at most half MessageTimeout).  A
# and B submit to partitions of their own on the same node, so that a job
# of one that does not fit does not block the other's (the paper's
# progressive filling), ChargeHorizon is the step length, and the TRES
# charged are the paper's two, CPUs and memory (Tres=cpu,mem).  The same
# inputs give the same steps in horae-sim (t0400) and in the books' step
# model (hmrf_books_test).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

STEP=20
CONF='PartitionName=pa Nodes=ALL State=UP
PartitionName=pb Nodes=ALL State=UP
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,default_queue_depth=1000,max_sched_time=30
MessageTimeout=60'
dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# resume: the node back in service and a main pass asked for in one RPC
# (hc_undrain); if no job runs 2 s later, a pass asked for once more (a
# node update).  Returns once a job runs (the step's pass is over), 1 if
# none does within 60 s.
resume()
{
	local t0=$SECONDS asked=
	hc_undrain big
	while [ $((SECONDS - t0)) -lt 60 ]; do
		[ -n "$(squeue -h -t R -o %i)" ] && return 0
		if [ -z "$asked" ] && [ $((SECONDS - t0)) -ge 2 ]; then
			tap_diag "no job ran 2 s after the node came back:" \
				"a main pass asked for"
			scontrol update nodename=big comment="pass $(date +%s.%N)"
			asked=1
		fi
		sleep 0.1
	done
	return 1
}

# started_in_step STARTS SINCE: "A B LATE", how many jobs of a and of b
# started since SINCE (epoch s) and before the step's first job could end
# (STEP s after it), from the starts written once the node was drained
# again (hmrf_write_starts): what the step's pass started.  LATE: jobs
# started in the place of ended ones, which only a drain later than STEP
# s after the pass lets happen; printed, not counted.
started_in_step()
{
	awk -v since="$2" -v step="$STEP" '
		$2 ~ /^[0-9]+$/ && $2 >= since {
			acct[NR] = $3; t[NR] = $2
			if (first == "" || $2 < first) first = $2
		}
		END {
			for (i in t)
				if (t[i] < first + step) n[acct[i]]++
				else late++
			print n["a"] + 0, n["b"] + 0, late + 0
		}' "$1"
}

# run NAME POLICY "A_NEW" "B_NEW" "A_SHAPE" "B_SHAPE": the steps (A_NEW and
# B_NEW: new jobs per step; a shape is "CPUS MEM_MB"); sets RAN_A, RAN_B,
# AGG_A, AGG_B, and OFF_STEP: how many jobs were off the step model
# (slurmctld recorded them as running other than STEP s, or they started
# in an ended job's place); OFF_BEFORE: how many of them were so before
# the last step, which is what the jobs started per step rest on (the
# last step's pass is over before any of its jobs ends, so how long they
# ran changes only the accumulated aggregates).
run()
{
	local name=$1 policy=$2 k ca ma cb mb since ran_a ran_b late late_all=0
	local late_before=0
	local -a a_new=($3) b_new=($4) a_shape=($5) b_shape=($6)
	dirs+=("$(tap_rundir "t0010-$name-$policy")")
	hc_init "${dirs[-1]}" || { hc_stop; return 1; }
	HC_NODES="big 100 100000" \
	HC_EXTRA_CONF="$CONF" \
	HC_HMRF_CONF=$"Policy=$policy"$'\nWindow=none\nPeriod=1s\nTres=cpu,mem\n'"ChargeHorizon=${STEP}s" \
		hc_start || { hc_stop; return 1; }
	RAN_A=() RAN_B=()
	scontrol update nodename=big state=drain reason=between-steps
	for k in "${!a_new[@]}"; do
		# The step's jobs arrive once the last step's have ended.
		hmrf_wait_none_running 60 || { hc_stop; return 1; }
		hmrf_submit_exact "${a_new[k]}" a pa "${a_shape[@]}" "$STEP" \
			"${dirs[-1]}/starts" ||
			{ hc_stop; return 1; }
		hmrf_submit_exact "${b_new[k]}" b pb "${b_shape[@]}" "$STEP" \
			"${dirs[-1]}/starts" ||
			{ hc_stop; return 1; }
		sleep 2.5 # two recalculations rank the pending jobs
		since=$(date +%s)
		resume || { hc_stop; return 1; }
		scontrol update nodename=big state=drain reason=between-steps
		hmrf_write_starts "${dirs[-1]}/starts" || { hc_stop; return 1; }
		read -r ran_a ran_b late < \
			<(started_in_step "${dirs[-1]}/starts" "$since")
		[ "$late" = 0 ] || tap_diag "$name $policy step $((k + 1)):" \
			"$late jobs started after the step's first ended (not counted)"
		late_all=$((late_all + late))
		[ $((k + 1)) = "${#a_new[@]}" ] ||
			late_before=$((late_before + late))
		RAN_A+=("$ran_a")
		RAN_B+=("$ran_b")
	done
	hmrf_wait_none_running 60
	# since: the last step's start; its jobs started at or after it.
	read -r OFF_STEP OFF_BEFORE < <(SLURM_TIME_FORMAT=%s \
		squeue -h -t CD -A a,b -o "%S %e" |
		awk -v step="$STEP" -v last="$since" -v late="$late_all" \
			-v late_before="$late_before" '
			$2 - $1 != step { n++; if ($1 < last) b++ }
			END { print n + late, b + late_before }')
	scancel -t PD -A a,b
	sleep 2 # a recalculation saves the last charges
	# Slurm keeps account names in lower case.
	ca=$(hmrf_usage a cpu) ma=$(hmrf_usage a mem)
	cb=$(hmrf_usage b cpu) mb=$(hmrf_usage b mem)
	# Aggregate: each TRES as a share of capacity, summed (CPU-s/100 + MB-s/100000).
	AGG_A=$(awk -v c="$ca" -v m="$ma" 'BEGIN { printf "%.1f", c / 100 + m / 100000 }')
	AGG_B=$(awk -v c="$cb" -v m="$mb" 'BEGIN { printf "%.1f", c / 100 + m / 100000 }')
	BOOKS=$("$SFAIR" -o Account,Used:cpu,NonSharing:cpu,Used:mem,NonSharing:mem,Beta 2>&1)
	hc_stop
}

# held_ok DESC RC [DIAG]: tap_ok, or a skip when HELD_BY jobs of the runs
# it rests on were off the step model (see above and hmrf_submit_exact).
held_ok()
{
	if [ "${HELD_BY:-0}" -gt 0 ]; then
		tap_skip "$1" "$HELD_BY jobs off the $STEP-s step model: the machine was too slow for it"
		return 0
	fi
	tap_ok "$@"
}

diff_pct() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; printf "%.1f", m ? 100 * (a > b ? a - b : b - a) / m : 0 }'; }

# steps NAME POLICY WANT: the steps ran and are WANT ("A ... / B ...").
steps()
{
	local got="${RAN_A[*]} / ${RAN_B[*]}"
	tap_diag "$1 $2: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: $3)"
	[ "$got" = "$3" ]
	held_ok "$1 $2: the jobs started per step are the paper's ($3)" $? \
		"got $got"
}

EX3_A="30 20 27 10" EX3_B="4 24 8 30"
for policy in hmrf drf; do
	run example3 "$policy" "$EX3_A" "$EX3_B" "1 4000" "4 1000"
	tap_ok "example3 $policy: the four steps ran" $? \
		"$(tail -5 "${dirs[-1]}/log/slurmctld.log" 2>/dev/null)" || continue
	[ "$OFF_STEP" = 0 ] || tap_diag "example3 $policy: $OFF_STEP jobs off the $STEP-s step model ($OFF_BEFORE before the last step)"
	d=$(diff_pct "$AGG_A" "$AGG_B")
	tap_diag "$policy: accumulated aggregate A $AGG_A, B $AGG_B: $d% apart"
	tap_diag "$BOOKS"
	tap_ok "example3 $policy: the plugin accounted usage for both accounts" \
		$(awk -v a="$AGG_A" -v b="$AGG_B" 'BEGIN { exit !(a > 0 && b > 0) }'
		  echo $?)
	if [ "$policy" = hmrf ]; then
		HMRF_D=$d HMRF_OFF_STEP=$OFF_STEP
		tap_diag "example3 hmrf: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (Table 1: 24 4 23 8 / 4 24 8 23)"
	else
		HELD_BY=$OFF_BEFORE steps example3 drf "24 20 22 20 / 4 20 12 20"
		HELD_BY=$((${HMRF_OFF_STEP:-0} + OFF_STEP)) held_ok "example3: hmrf keeps A and B less than half as far apart as drf (${HMRF_D:-?}% vs $d%)" \
			$(awk -v h="${HMRF_D:-100}" -v d="$d" 'BEGIN { exit !(h < d / 2) }'; echo $?)
		HELD_BY=$OFF_STEP held_ok "example3 drf: A's and B's aggregate usage more than 20% apart ($d%)" \
			$(awk -v d="$d" 'BEGIN { exit !(d > 20) }'; echo $?)
	fi
done

for policy in hmrf lt-af; do
	run example4 "$policy" "15 60" "80 30" "1 2000" "1 1000"
	tap_ok "example4 $policy: the two steps ran" $? \
		"$(tail -5 "${dirs[-1]}/log/slurmctld.log" 2>/dev/null)" || continue
	tap_diag "$BOOKS"
	[ "$OFF_STEP" = 0 ] || tap_diag "example4 $policy: $OFF_STEP jobs off the $STEP-s step model ($OFF_BEFORE before the last step)"
	if [ "$policy" = hmrf ]; then
		tap_diag "example4 hmrf: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: 15 40 / 70 20)"
		[ "${RAN_B[1]:-0}" -ge 20 ]
		HELD_BY=$OFF_BEFORE held_ok "example4 hmrf: B gets at least its non-sharing 20 at step 2 (${RAN_B[1]:-?})" $?
	else
		# The paper's point: lt-af leaves B below the 20 jobs it would
		# have had on its half of the cluster.  Its exact 42/16 rests
		# on the last gigabyte: when A's 43rd job comes before B's
		# 16th and does not fit, slurmctld stops that pass for the
		# node (both partitions are on it), so a second's difference
		# in step 1's charges gives 42/15 (seen once, in a run of the
		# whole suite on 2026-11-25; 42/16 in the runs before it).
		# Step 1 must be exact (no history yet: however long jobs ran
		# before, nothing changes its ranking); step 2 is printed
		# against the paper, and B asserted below 20 with a margin.
		tap_diag "example4 lt-af: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: 15 42 / 70 16)"
		[ "${RAN_A[0]:-}/${RAN_B[0]:-}" = 15/70 ]
		tap_ok "example4 lt-af: step 1 is the paper's (15 / 70)" $? \
			"got ${RAN_A[0]:-?} / ${RAN_B[0]:-?}"
		[ "${RAN_B[1]:-99}" -le 17 ]
		HELD_BY=$OFF_BEFORE held_ok "example4 lt-af: B gets at most 17 at step 2, below its non-sharing 20 (${RAN_B[1]:-?}; paper: 16)" $?
	fi
done
tap_done
