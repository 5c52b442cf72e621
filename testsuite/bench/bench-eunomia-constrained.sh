#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-eunomia-constrained: what Eunomia costs in delivered progress
# when jobs carry placement constraints, on a real cluster.
#
# Four nodes of two generations: slow1 and slow2 (8 CPUs, speed 1, feature
# slow) and fast1 and fast2 (4 CPUs, speed 3, feature fast): 16 + 24 = 40
# units of progress a second (a unit is a CPU-second at speed 1).  Three
# backlogged accounts: pslow pins its jobs to the slow nodes
# (--constraint=slow), pfast to the fast ones, free takes any node.  Each
# submits JOBS one-CPU jobs of WORK units (a job sleeps WORK / speed of its
# node and logs what it did).  Equal progress, 13.3 units a second each,
# fits every account's constraint, so a fair scheduler can be even and
# keep every CPU busy at once.
#
# Sides, alternated, RUNS times each, in one run of this script:
#   eunomia      priority/hmrf's Eunomia factor, select/eunomia with
#                Placement=eunomia, and SchedulerParameters=
#                bf_min_prio_reserve above every job's priority (what
#                horae-eunomia.conf(5) asks for: a job that cannot start on
#                the nodes free now does not stop the main scheduler for
#                its partition)
#   blocking     the same without bf_min_prio_reserve: slurmctld's main
#                scheduler stops at the first job of a partition that
#                cannot start (fail_by_part), and only backfill (every
#                30 s) starts the jobs behind it
#   off          priority/hmrf (H-MRF, fairness in CPU time) over plain
#                select/cons_tres: no Eunomia
#   off-nb       the same with eunomia's bf_min_prio_reserve: what a site
#                that sets the parameter has without Eunomia
# From the jobs' own logs, over the time all three accounts had work (from
# the start to the first account's last end): progress delivered per
# second, each account's progress share (its progress over what the
# cluster delivered; 1/3 each is even) and their max/min, and the mean of
# the accounts' completion times.  Medians over the runs, then each
# side's progress per second over off's and off-nb's.  A run in which
# fewer jobs logged their work than were submitted (a job that failed to
# start) says so.
#
#   bench-eunomia-constrained.sh [RUNS [JOBS [WORK]]]     (3 120 12)
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
# Prints figures; asserts nothing.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
RUNS=${1:-3}
JOBS=${2:-120}
WORK=${3:-12}
[ "$(id -u)" = 0 ] || { echo "bench-eunomia-constrained: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR

NODES=$'slow1 8 8000 slow\nslow2 8 8000 slow\nfast1 4 4000 fast\nfast2 4 4000 fast'
dir=
results=$(mktemp /tmp/horae-bench-ec.XXXXXX)
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"; rm -f "$results"' EXIT
trap 'exit 130' INT TERM

# job_script DIR: sleep WORK / speed of the node, then log "account speed
# start end".
job_script()
{
	cat <<EOF
#!/bin/bash
start=\$(date +%s.%N)
case \$SLURMD_NODENAME in fast*) s=3 ;; *) s=1 ;; esac
sleep \$(awk -v w=$WORK -v s=\$s 'BEGIN { printf "%.3f", w / s }')
echo "\$SLURM_JOB_ACCOUNT \$s \$start \$(date +%s.%N)" >>$1/work.log
EOF
}

# start SIDE: a cluster for that side.
start()
{
	local eunomia=$'Placement=eunomia\nSpeedMap=slow:1,fast:3\nWindow=none\nPeriod=2s'
	local hmrf=$'Period=2s\nWindow=none\nPriorityWeight=1'${EC_HMRF:+$'\n'$EC_HMRF}
	local part=$'PartitionName=p Nodes=ALL Default=YES State=UP'
	local sched='SchedulerParameters=batch_sched_delay=0'
	dir=$(mktemp -d /tmp/horae-bench-ec.XXXXXX)
	hc_init "$dir" || return 1
	case $1 in
	eunomia)
		# Every job's priority is at most PriorityWeight +
		# PriorityWeightAssoc (+ age, 0 here): 100001.
		HC_NODES=$NODES HC_EUNOMIA_CONF=$eunomia HC_HMRF_CONF=$hmrf \
		HC_EXTRA_CONF="PriorityWeightAssoc=100000
$sched,bf_min_prio_reserve=200000
$part" hc_start ;;
	blocking)
		HC_NODES=$NODES HC_EUNOMIA_CONF=$eunomia HC_HMRF_CONF=$hmrf \
		HC_EXTRA_CONF="PriorityWeightAssoc=100000
$sched
$part" hc_start ;;
	off)
		HC_NODES=$NODES HC_SELECT=select/cons_tres \
		HC_HMRF_CONF=$'Period=2s\nWindow=none' \
		HC_EXTRA_CONF="$sched
$part" hc_start ;;
	off-nb)
		HC_NODES=$NODES HC_SELECT=select/cons_tres \
		HC_HMRF_CONF=$'Period=2s\nWindow=none' \
		HC_EXTRA_CONF="$sched,bf_min_prio_reserve=200000
$part" hc_start ;;
	esac
}

# run SIDE K: one run; appends "SIDE K rate share_max/min mean_done
# pslow pfast free" (shares) to $results.
run()
{
	local side=$1 k=$2 i a t0
	start "$side" >/dev/null 2>&1 ||
		{ echo "cluster for $side did not start" >&2; hc_stop; return 1; }
	job_script "$dir" >"$dir/job.sh"
	chmod +x "$dir/job.sh"
	: >"$dir/work.log"
	scontrol update nodename=ALL state=drain reason=filling-the-queue
	for ((i = 0; i < JOBS; i++)); do
		sbatch -Q -A pslow -n1 -t 5 -C slow -o /dev/null "$dir/job.sh"
		sbatch -Q -A pfast -n1 -t 5 -C fast -o /dev/null "$dir/job.sh"
		sbatch -Q -A free -n1 -t 5 -o /dev/null "$dir/job.sh"
	done
	sleep 5 # two recalculations: the factors of the queue
	t0=$(date +%s.%N)
	hc_undrain ALL
	if ! hc_wait_jobs_done 1200; then
		echo "$side run $k: the jobs did not finish in 1200 s" >&2
		hc_stop
		return 1
	fi
	hc_stop
	i=$(wc -l <"$dir/work.log")
	[ "$i" = $((3 * JOBS)) ] ||
		echo "$side run $k: $i of $((3 * JOBS)) jobs logged their work" >&2
	awk -v t0="$t0" -v side="$side" -v k="$k" '
	{
		acct[$1] = 1
		p[NR] = $1; sp[NR] = $2; st[NR] = $3; en[NR] = $4
		if ($4 > done[$1]) done[$1] = $4
	}
	END {
		cut = -1
		for (a in acct) if (cut < 0 || done[a] < cut) cut = done[a]
		for (i = 1; i <= NR; i++) {
			e = en[i] < cut ? en[i] : cut
			if (e > st[i]) { x[p[i]] += sp[i] * (e - st[i]); tot += sp[i] * (e - st[i]) }
		}
		mx = 0; mn = -1
		for (a in acct) {
			s = x[a] / tot
			if (s > mx) mx = s
			if (mn < 0 || s < mn) mn = s
			m += done[a] - t0; n++
		}
		printf "%s %d %.2f %.3f %.1f %.3f %.3f %.3f %.1f\n", side, k,
			tot / (cut - t0), (mn > 0 ? mx / mn : 999), m / n,
			x["pslow"] / tot, x["pfast"] / tot, x["free"] / tot, cut - t0
	}' "$dir/work.log" >>"$results"
	tail -1 "$results" >&2
	rm -rf "$dir"
	dir=
}

echo "# $((3 * JOBS)) jobs of $WORK units, sides alternated, $RUNS runs each" >&2
for ((k = 1; k <= RUNS; k++)); do
	for side in ${SIDES:-eunomia blocking off off-nb}; do
		run "$side" "$k"
	done
done

med() { sort -n | awk '{ v[++n] = $1 } END { if (n) printf "%s", (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2); else printf "-" }'; }
col() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$results"; }
echo "Eunomia under placement constraints: 4 nodes (2 x 8 CPUs speed 1, 2 x 4 CPUs speed 3), accounts pinned slow / pinned fast / free, $JOBS jobs of $WORK units each"
echo "while all three accounts had work (medians over runs; even shares are 0.333 each):"
printf '%-10s %5s %12s %14s %12s %8s %8s %8s\n' side runs progress/s 'share max/min' 'mean done s' pslow pfast free
for side in eunomia blocking off off-nb; do
	printf '%-10s %5d %12s %14s %12s %8s %8s %8s\n' "$side" \
		"$(col "$side" 2 | wc -l)" "$(col "$side" 3 | med)" \
		"$(col "$side" 4 | med)" "$(col "$side" 5 | med)" \
		"$(col "$side" 6 | med)" "$(col "$side" 7 | med)" \
		"$(col "$side" 8 | med)"
done
for base in off off-nb; do
	o=$(col $base 3 | med)
	for side in eunomia blocking; do
		awk -v s="$side" -v b="$base" -v r="$(col "$side" 3 | med)" -v o="$o" 'BEGIN {
			if (o > 0 && r != "-") printf "progress per second, %s over %s: %.3f\n", s, b, r / o }'
	done
done
echo "per run (side run progress/s share_max/min mean_done pslow pfast free window_s):"
cat "$results"
