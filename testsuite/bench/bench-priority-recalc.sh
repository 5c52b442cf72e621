#!/usr/bin/env bash
# bench-priority-recalc: the CPU time of one full priority recalculation
# in a real slurmctld, priority/hmrf next to stock priority/multifactor,
# measured in the same run on the same cluster and the same queue.
#
#   bench-priority-recalc.sh [JOBS [ACCOUNTS]]      (10000 100)
#
# Each plugin gets a fresh 8-node cluster (select/cons_tres, no job_submit
# plugin, sched/builtin so no backfill thread competes) and JOBS pending
# jobs from ACCOUNTS accounts, held in a DOWN partition so that nothing
# starts.  Both recalculate every 60 s (multifactor's PriorityCalcPeriod
# cannot go lower).  Every slurmctld thread's on-CPU time is sampled from
# /proc/PID/task/*/schedstat (nanoseconds) for 150 s; the thread that
# works in periodic bursts the most is the recalculation thread, and each
# burst is one recalculation.  Prints figures; asserts nothing.
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-10000}
ACCOUNTS=${2:-100}
WINDOW=150
[ "$(id -u)" = 0 ] || { echo "bench-priority-recalc: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR

dir=
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# sample PID SECONDS: print "t tid ns" lines every 0.25 s.
sample()
{
	local pid=$1 end=$((SECONDS + $2)) f
	while [ $SECONDS -lt $end ]; do
		for f in /proc/"$pid"/task/*/schedstat; do
			read -r ns _ <"$f" 2>/dev/null || continue
			t=${f%/schedstat}
			echo "$(date +%s.%N) ${t##*/} $ns"
		done
		sleep 0.25
	done
}

# bursts: from samples, per thread, runs of samples that each used > 1 ms;
# report the thread with the most burst CPU: "bursts median_ms max_ms".
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
		if (best == "") { print "0 0 0"; exit }
		k = n[best]
		for (i = 1; i <= k; i++) {	# insertion sort: mawk has no asort
			x = b[best, i]
			for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
			v[j + 1] = x
		}
		printf "%d %.1f %.1f\n", k, v[int((k + 1) / 2)] / 1e6, v[k] / 1e6
	}'
}

run()
{
	local prio=$1 extra=$2 pid i t0
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	HC_NODES=$(for i in 1 2 3 4 5 6 7 8; do echo "n$i 32 64000"; done) \
	HC_PRIORITY=$prio HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_EXTRA_CONF=$'PartitionName=hold Nodes=ALL State=DOWN\nSchedulerType=sched/builtin\nMaxJobCount=200000\n'"$extra" \
	HC_HMRF_CONF=$'Period=60s\nWindow=sliding:7d' \
		hc_start >/dev/null 2>&1 || { echo "cluster for $prio did not start" >&2; return 1; }
	t0=$SECONDS
	for ((i = 0; i < JOBS; i++)); do
		sbatch -Q -p hold -A "acct$((i % ACCOUNTS))" -n $((1 + i % 16)) \
			-t $((10 + i % 600)) -o /dev/null --wrap true >/dev/null
	done
	echo "  $prio: $JOBS jobs queued in $((SECONDS - t0)) s; sampling ${WINDOW} s" >&2
	pid=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
	read -r n med max < <(sample "$pid" "$WINDOW" | bursts)
	printf '%-22s %8s %14s %12s\n' "$prio" "$n" "$med" "$max"
	hc_stop
	rm -rf "$dir"
	dir=
}

echo "Priority recalculation with $JOBS pending jobs of $ACCOUNTS accounts (CPU ms per cycle)"
printf '%-22s %8s %14s %12s\n' plugin cycles median_ms max_ms
hmrf=$(run priority/hmrf "" | tee /dev/stderr)
mf=$(run priority/multifactor $'PriorityCalcPeriod=1\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightFairshare=10000')
echo "$mf"
awk -v h="$(echo "$hmrf" | awk '{print $3}')" -v m="$(echo "$mf" | awk '{print $3}')" \
	'BEGIN { if (m > 0) printf "ratio hmrf/multifactor (median): %.2f\n", h / m }'
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r)"
