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
# What a real cluster cannot give exactly: H-MRF's per-step counts.  Its
# sharing degree weighs usage against entitlement, and on Slurm the node is
# in service for a second or so after each resume before the scheduler
# starts the step's jobs: time with demand, capacity and no allocation,
# which the books rightly count as entitlement (the paper's steps have no
# such gap).  Measured over 4 runs: Example 3 hmrf A 24 6-8 22 8-9 / B 4 23
# 9 22-23 (Table 1: 24 4 23 8 / 4 24 8 23), Example 4 hmrf 35-37 / 26-30
# (paper: 40 / 20).  The simulator gives the same counts from the same
# inputs with that latency (horae-sim --start-latency, asserted in t0400):
# Example 4 35/30 with 1 s of a 6-s step, 37/26 with 0.5 s; Table 1 exact
# up to 1.25 s and A 24 8 22 8 / B 4 23 9 23 from 1.5 s, the flip at step
# 2 measured here.  hmrf_books_test's test_example4_scheduling_latency
# gives the same 35/30 and 37/26 through the books' own step model.  The
# test prints each account's usage next to its non-sharing allocation to
# show the entitlement without allocation.
# The step model on Slurm: the node is drained between steps; a step starts
# by resuming it after priority/hmrf has ranked the pending jobs, and the
# node is drained again once the step's jobs have started.  A and B submit
# to partitions of their own on the same node, so that a job of one that
# does not fit does not block the other's (the paper's progressive
# filling), ChargeHorizon is the step length, and the TRES charged are
# the paper's two, CPUs and memory (Tres=cpu,mem).  The same inputs give
# the same steps in horae-sim (t0400) and in the books' step model
# (hmrf_books_test).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

STEP=6
dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# resume: the node back in service the way the latencies above were
# measured (state=resume: slurmd registers again, a second or so; not
# hc_undrain, whose pass comes sooner and gives other counts), and the
# main pass a resume can fail to ask for (see hc_undrain in lib/cluster.sh;
# no job started for 21-27 s, twice in full runs) asked for once, when
# slurmd is back and a second later nothing runs.
resume()
{
	scontrol update nodename=big state=resume
	for _ in $(seq 100); do
		case $(sinfo -h -n big -o %t) in
		*'*'* | '') sleep 0.1 ;;
		*) break ;;
		esac
	done
	sleep 1
	[ -n "$(squeue -h -t R -o %i)" ] && return 0
	tap_diag "no job ran a second after slurmd registered: a main pass asked for"
	scontrol update nodename=big comment="pass $(date +%s.%N)"
}

# started_in_step SINCE: "A B", how many jobs of a and of b started since
# SINCE (epoch s) and before the step's first job could end (STEP s after
# it): what the step's pass started, not what a later pass refilled before
# the node was drained again.  Counting the running jobs once the count
# held still read late on a loaded machine (the step's jobs each ask
# slurmctld for their start time at once): jobs had ended and others
# started in their place (A 0 / B 10 for 15 / 70 in two runs of the whole
# suite, 2026-11-29).
started_in_step()
{
	SLURM_TIME_FORMAT=%s squeue -h -t R,CG,CD -A a,b -o "%a %S" |
		awk -v since="$1" -v step="$STEP" '
			$2 ~ /^[0-9]+$/ && $2 >= since {
				acct[NR] = $1; t[NR] = $2
				if (first == "" || $2 < first) first = $2
			}
			END {
				for (i in t) if (t[i] < first + step) n[acct[i]]++
				print n["a"] + 0, n["b"] + 0
			}'
}

# run NAME POLICY "A_NEW" "B_NEW" "A_SHAPE" "B_SHAPE": the steps (A_NEW and
# B_NEW: new jobs per step; a shape is "CPUS MEM_MB"); sets RAN_A, RAN_B,
# AGG_A, AGG_B.
run()
{
	local name=$1 policy=$2 k ca ma cb mb since ran_a ran_b
	local -a a_new=($3) b_new=($4) a_shape=($5) b_shape=($6)
	dirs+=("$(tap_rundir "t0010-$name-$policy")")
	hc_init "${dirs[-1]}" || { hc_stop; return 1; }
	HC_NODES="big 100 100000" \
	HC_EXTRA_CONF=$'PartitionName=pa Nodes=ALL State=UP\nPartitionName=pb Nodes=ALL State=UP' \
	HC_HMRF_CONF=$"Policy=$policy"$'\nWindow=none\nPeriod=1s\nTres=cpu,mem\n'"ChargeHorizon=${STEP}s" \
		hc_start || { hc_stop; return 1; }
	RAN_A=() RAN_B=()
	scontrol update nodename=big state=drain reason=between-steps
	for k in "${!a_new[@]}"; do
		hmrf_submit_exact "${a_new[k]}" a pa "${a_shape[@]}" "$STEP" ||
			{ hc_stop; return 1; }
		hmrf_submit_exact "${b_new[k]}" b pb "${b_shape[@]}" "$STEP" ||
			{ hc_stop; return 1; }
		hmrf_wait_none_running 60 || { hc_stop; return 1; }
		sleep 2.5 # two recalculations rank the pending jobs
		since=$(date +%s)
		resume
		hmrf_wait_stable 75 || { hc_stop; return 1; }
		scontrol update nodename=big state=drain reason=between-steps
		read -r ran_a ran_b < <(started_in_step "$since")
		RAN_A+=("$ran_a")
		RAN_B+=("$ran_b")
	done
	hmrf_wait_none_running 60
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

diff_pct() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; printf "%.1f", m ? 100 * (a > b ? a - b : b - a) / m : 0 }'; }

# steps NAME POLICY WANT: the steps ran and are WANT ("A ... / B ...").
steps()
{
	local got="${RAN_A[*]} / ${RAN_B[*]}"
	tap_diag "$1 $2: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: $3)"
	[ "$got" = "$3" ]
	tap_ok "$1 $2: the jobs started per step are the paper's ($3)" $? \
		"got $got"
}

EX3_A="30 20 27 10" EX3_B="4 24 8 30"
for policy in hmrf drf; do
	run example3 "$policy" "$EX3_A" "$EX3_B" "1 4000" "4 1000"
	tap_ok "example3 $policy: the four steps ran" $? \
		"$(tail -5 "${dirs[-1]}/log/slurmctld.log" 2>/dev/null)" || continue
	d=$(diff_pct "$AGG_A" "$AGG_B")
	tap_diag "$policy: accumulated aggregate A $AGG_A, B $AGG_B: $d% apart"
	tap_diag "$BOOKS"
	tap_ok "example3 $policy: the plugin accounted usage for both accounts" \
		$(awk -v a="$AGG_A" -v b="$AGG_B" 'BEGIN { exit !(a > 0 && b > 0) }'
		  echo $?)
	if [ "$policy" = hmrf ]; then
		HMRF_D=$d
		tap_diag "example3 hmrf: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (Table 1: 24 4 23 8 / 4 24 8 23)"
	else
		steps example3 drf "24 20 22 20 / 4 20 12 20"
		tap_ok "example3: hmrf keeps A and B less than half as far apart as drf (${HMRF_D:-?}% vs $d%)" \
			$(awk -v h="${HMRF_D:-100}" -v d="$d" 'BEGIN { exit !(h < d / 2) }'; echo $?)
		tap_ok "example3 drf: A's and B's aggregate usage more than 20% apart ($d%)" \
			$(awk -v d="$d" 'BEGIN { exit !(d > 20) }'; echo $?)
	fi
done

for policy in hmrf lt-af; do
	run example4 "$policy" "15 60" "80 30" "1 2000" "1 1000"
	tap_ok "example4 $policy: the two steps ran" $? \
		"$(tail -5 "${dirs[-1]}/log/slurmctld.log" 2>/dev/null)" || continue
	tap_diag "$BOOKS"
	if [ "$policy" = hmrf ]; then
		tap_diag "example4 hmrf: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: 15 40 / 70 20)"
		[ "${RAN_B[1]:-0}" -ge 20 ]
		tap_ok "example4 hmrf: B gets at least its non-sharing 20 at step 2 (${RAN_B[1]:-?})" $?
	else
		# The paper's point: lt-af leaves B below the 20 jobs it would
		# have had on its half of the cluster.  Its exact 42/16 rests
		# on the last gigabyte: when A's 43rd job comes before B's
		# 16th and does not fit, slurmctld stops that pass for the
		# node (both partitions are on it), so a second's difference
		# in step 1's charges gives 42/15 (seen once, in a run of the
		# whole suite on 2026-11-25; 42/16 in the runs before it).
		# Step 1 must be exact; step 2 is printed against the paper,
		# and B asserted below 20 with a margin.
		tap_diag "example4 lt-af: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]} (paper: 15 42 / 70 16)"
		[ "${RAN_A[0]:-}/${RAN_B[0]:-}" = 15/70 ]
		tap_ok "example4 lt-af: step 1 is the paper's (15 / 70)" $? \
			"got ${RAN_A[0]:-?} / ${RAN_B[0]:-?}"
		[ "${RAN_B[1]:-99}" -le 17 ]
		tap_ok "example4 lt-af: B gets at most 17 at step 2, below its non-sharing 20 (${RAN_B[1]:-?}; paper: 16)" $?
	fi
done
tap_done
