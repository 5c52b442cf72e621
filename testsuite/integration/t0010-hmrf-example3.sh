#!/usr/bin/env bash
# t0010: Example 3 of the H-MRF paper on a real cluster.  One node of 100
# CPUs and 100 GB; account A's jobs take 1 CPU and 4 GB, B's 4 CPUs and
# 1 GB; at steps 1-4, A submits 30, 20, 27, 10 jobs and B 4, 24, 8, 30; each
# job lasts one step.  Under hmrf the accumulated aggregate usage of A and B
# ends within 5% of each other (expected: see the TODO below); under
# memoryless drf more than 20% apart, and more than twice hmrf's gap.
#
# The step model on Slurm: the node is drained between steps; a step starts
# by resuming it after priority/hmrf has ranked the pending jobs, and the
# node is drained again once the step's jobs have started.  A and B submit
# to partitions of their own on the same node, so that a job of one that
# does not fit does not block the other's (the paper's progressive
# filling), and ChargeHorizon is the step length.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

STEP=6
A_NEW=(30 20 27 10)
B_NEW=(4 24 8 30)
dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# run POLICY: the four steps; sets RAN_A, RAN_B, AGG_A, AGG_B.
run()
{
	local policy=$1 k ca ma cb mb
	dirs+=("$(tap_rundir "t0010-$policy")")
	hc_init "${dirs[-1]}" || return 1
	HC_NODES="big 100 100000" \
	HC_EXTRA_CONF=$'PartitionName=pa Nodes=ALL State=UP\nPartitionName=pb Nodes=ALL State=UP' \
	HC_HMRF_CONF=$"Policy=$policy"$'\nWindow=none\nPeriod=1s\n'"ChargeHorizon=${STEP}s" \
		hc_start || return 1
	RAN_A=() RAN_B=()
	scontrol update nodename=big state=drain reason=between-steps
	for k in 0 1 2 3; do
		hmrf_submit "${A_NEW[k]}" a pa 1 4000 "$STEP" || return 1
		hmrf_submit "${B_NEW[k]}" b pb 4 1000 "$STEP" || return 1
		hmrf_wait_none_running 60 || return 1
		sleep 2.5 # two recalculations rank the pending jobs
		scontrol update nodename=big state=resume
		# A resume does not always wake the main scheduler at once
		# (seen twice: no job started within 20 s); its periodic pass
		# (sched_interval, 60 s) does.
		hmrf_wait_stable 75 || return 1
		scontrol update nodename=big state=drain reason=between-steps
		RAN_A+=("$(hmrf_running a)")
		RAN_B+=("$(hmrf_running b)")
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
	hc_stop
}

diff_pct() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; printf "%.1f", m ? 100 * (a > b ? a - b : b - a) / m : 0 }'; }

for policy in hmrf drf; do
	run "$policy"
	tap_ok "$policy: the four steps ran" $? \
		"$(tail -5 "${dirs[-1]}/log/slurmctld.log" 2>/dev/null)" || continue
	d=$(diff_pct "$AGG_A" "$AGG_B")
	tap_diag "$policy: jobs started per step A ${RAN_A[*]} / B ${RAN_B[*]}" \
		"(paper, Table 1: $([ "$policy" = hmrf ] &&
			echo 'A 24 4 23 8 / B 4 24 8 23' ||
			echo 'A 24 20 22 20 / B 4 20 12 20'))"
	tap_diag "$policy: accumulated aggregate A $AGG_A, B $AGG_B: $d% apart"
	printf '%s: A %s / B %s; aggregate A %s, B %s (%s%% apart)\n' "$policy" \
		"${RAN_A[*]}" "${RAN_B[*]}" "$AGG_A" "$AGG_B" "$d" >&2
	tap_ok "$policy: the plugin accounted usage for both accounts" \
		$(awk -v a="$AGG_A" -v b="$AGG_B" 'BEGIN { exit !(a > 0 && b > 0) }'
		  echo $?)
	if [ "$policy" = hmrf ]; then
		HMRF_D=$d
		# Since jobs are charged to their very end (t0017), step 4
		# gives A 4 / B 24 where Table 1 has 8 / 23 and the gap is
		# 4-6% (0.6% before); why step 4 flips is not understood yet.
		tap_expect "hmrf: A's and B's aggregate usage within 5% ($d%)" \
			$(awk -v d="$d" 'BEGIN { exit !(d <= 5) }'; echo $?) \
			"step 4 departs from Table 1 since exact end charging"
	else
		tap_ok "hmrf keeps A and B less than half as far apart as drf (${HMRF_D:-?}% vs $d%)" \
			$(awk -v h="${HMRF_D:-100}" -v d="$d" 'BEGIN { exit !(h < d / 2) }'; echo $?)
		tap_ok "drf: A's and B's aggregate usage more than 20% apart ($d%)" \
			$(awk -v d="$d" 'BEGIN { exit !(d > 20) }'; echo $?)
	fi
done
tap_done
