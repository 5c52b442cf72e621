#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-priority-recalc: the CPU time of one full priority recalculation
# in a real slurmctld, priority/hmrf next to stock priority/multifactor,
# measured in the same run on the same cluster and the same queue.
#
#   bench-priority-recalc.sh [JOBS [ACCOUNTS]]      (10000 100)
#
# BENCH_WINDOW=SECONDS samples each side that long (default 150, two or
# three recalculations; 660 gives ten or more).
#
# Stock priority/multifactor recalculates only with slurmdbd (without it,
# it starts no decay thread), so both clusters run with MariaDB and
# slurmdbd on loopback and the ACCOUNTS accounts made with sacctmgr.  The
# JOBS jobs are queued through libslurm (bench_submit; their rate is
# printed beside the recalculation, not sbatch's: see bench-submit.sh).
#
# Each plugin gets a fresh 8-node cluster (select/cons_tres, no job_submit
# plugin, sched/builtin so no backfill thread competes) and JOBS pending
# jobs from ACCOUNTS accounts, held in a DOWN partition so that nothing
# starts.  Both recalculate every 60 s (multifactor's PriorityCalcPeriod
# cannot go lower).  The plugin's thread is found by its name
# (multifactor's decay thread "decay", hmrf's recalculation thread
# "hmrf"); that thread's on-CPU time is sampled from
# /proc/PID/task/TID/schedstat (nanoseconds) for 150 s, and each burst of
# work is one recalculation.  For hmrf, also the part of each
# recalculation spent under slurmctld's locks (its DebugFlags=Priority
# log line, at SlurmctldDebug=verbose), the part that can hold up scheduling.  Prints figures;
# asserts nothing.
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-10000}
ACCOUNTS=${2:-100}
WINDOW=${BENCH_WINDOW:-150}
[ "$(id -u)" = 0 ] || { echo "bench-priority-recalc: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"

dir=
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# plugin_thread PID NAME: the thread of slurmctld PID named NAME.
plugin_thread()
{
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] && { echo "${t##*/}"; return; }
	done
}

# sample PID TID SECONDS: print "t tid ns" lines every 0.25 s.
sample()
{
	local f=/proc/$1/task/$2/schedstat end=$((SECONDS + $3)) ns
	while [ $SECONDS -lt $end ]; do
		read -r ns _ <"$f" 2>/dev/null || return
		echo "$(date +%s.%N) $2 $ns"
		sleep 0.25
	done
}

# bursts: from samples, per thread, runs of samples that each used > 1 ms;
# report the thread with the most burst CPU: "bursts min_ms median_ms
# max_ms".
bursts()
{
	sort -k2,2n -k1,1n | awk '
	$2 != tid { tid = $2; last = $3; inb = 0; next }
	{
		d = $3 - last; last = $3
		if (d > 1e6) { if (!inb) { n[tid]++; inb = 1 } b[tid, n[tid]] += d; tot[tid] += d }
		else inb = 0
	}
	END {
		best = ""
		for (t in tot) if (best == "" || tot[t] > tot[best]) best = t
		if (best == "") { print "0 0 0 0"; exit }
		k = n[best]
		for (i = 1; i <= k; i++) {	# insertion sort: mawk has no asort
			x = b[best, i]
			for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
			v[j + 1] = x
		}
		printf "%d %.1f %.1f %.1f\n", k, v[1] / 1e6, v[int((k + 1) / 2)] / 1e6, v[k] / 1e6
	}'
}

run()
{
	local prio=$1 thread=$2 extra=$3 debug=${4:-info} pid tid i t0 rate n min med max log skip
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	HC_NODES=$(for i in 1 2 3 4 5 6 7 8; do echo "n$i 32 64000"; done) \
	HC_PRIORITY=$prio HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_DEBUG=$debug HC_ACCOUNTING=1 HC_ACCOUNTS=$(for ((i = 0; i < ACCOUNTS; i++)); do echo "acct$i:$((1 + i % 4))"; done) \
	HC_EXTRA_CONF=$'PartitionName=hold Nodes=ALL State=DOWN\nSchedulerType=sched/builtin\nMaxJobCount=200000\n'"$extra" \
	HC_HMRF_CONF=$'Period=60s\nWindow=sliding:7d' \
		hc_start >/dev/null 2>&1 || { echo "cluster for $prio did not start" >&2; return 1; }
	t0=$SECONDS
	for ((i = 0; i < JOBS; i++)); do
		echo "hold acct$((i % ACCOUNTS)) $((1 + i % 16)) $((10 + i % 600)) - - true"
	done | "$SUBMIT" >&2
	rate=$(awk -v n="$JOBS" -v s="$((SECONDS - t0))" 'BEGIN { printf "%.0f", s ? n / s : n }')
	pid=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
	tid=$(plugin_thread "$pid" "$thread")
	if [ -z "$tid" ]; then
		printf '%-22s %10s %8s %10s %10s %10s  %s\n' "$prio" "$rate" - - - - \
			"no thread named $thread"
	else
		echo "  $prio: sampling thread $tid for ${WINDOW} s" >&2
		log=$HC_RUNDIR/log/slurmctld.log
		skip=$(wc -l <"$log")
		read -r n min med max < <(sample "$pid" "$tid" "$WINDOW" | bursts)
		MEDIAN[$prio]=$med
		printf '%-22s %10s %8s %10s %10s %10s\n' "$prio" "$rate" "$n" "$min" "$med" "$max"
		# hmrf says how long each recalculation held slurmctld's locks
		# (DebugFlags=Priority); the rest of its burst saves the state
		# and publishes sfair's views with no lock held.
		tail -n +"$((skip + 1))" "$log" |
			sed -n 's/.*recalculation took usec=\([0-9]*\).*/\1/p' |
			sort -n | awk '{ v[++k] = $1 } END {
				if (k) printf "  of which under slurmctld'"'"'s job and association locks: min %.1f ms, median %.1f ms, max %.1f ms (%d recalculations)\n", v[1] / 1e3, v[int((k + 1) / 2)] / 1e3, v[k] / 1e3, k }'
	fi
	hc_stop
	rm -rf "$dir"
	dir=
}

echo "$JOBS pending jobs of $ACCOUNTS accounts: submissions/s, and CPU ms per full recalculation"
printf '%-22s %10s %8s %10s %10s %10s\n' plugin submit/s cycles min_ms median_ms max_ms
declare -A MEDIAN
run priority/hmrf hmrf $'DebugFlags=Priority' verbose
run priority/multifactor decay $'PriorityCalcPeriod=1\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightFairshare=10000'
awk -v h="${MEDIAN[priority/hmrf]:-0}" -v m="${MEDIAN[priority/multifactor]:-0}" \
	'BEGIN { if (h > 0 && m > 0) printf "ratio hmrf/multifactor per recalculation (median CPU): %.2f\n", h / m }'
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r)"
