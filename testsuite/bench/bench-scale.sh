#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-scale: a slurmctld with a long queue on many nodes, with Horae's
# three plugins (priority/hmrf, select/eunomia with Placement=eunomia,
# job_submit/justice) and with stock Slurm's (priority/multifactor,
# select/cons_tres, no job_submit plugin), one after the other on the same
# queue.  What an admin would notice, per side:
#
#   - submissions/s while JOBS jobs are queued through libslurm
#     (bench_submit: the RPC sbatch sends, without its process start), and
#     real sbatch's throughput with that queue in place (BENCH_SBATCH jobs
#     by 4 concurrent loops, each with --deadline so that Justice judges
#     it);
#   - squeue and sprio response times, median and p99 over BENCH_CALLS
#     calls each (whole queue, output discarded);
#   - the main scheduler's and backfill's cycle times (sdiag, sampled as
#     bench-select-cycle.sh does) over the whole measuring window, while
#     the calls above run;
#   - slurmctld's resident memory (VmRSS) once the queue is submitted,
#     after the squeue calls, after the sprio calls (a call that keeps
#     memory shows there) and at the end, split by where it lies
#     (rss_split), and its peak (VmHWM).
#
# and each figure's ratio Horae / stock (for a rate, stock / Horae, so
# that above 1 is always Horae worse).
#
#   bench-scale.sh [JOBS [NODES [ACCOUNTS]]]     (100000 256 1000)
#
# The nodes are NODES slurmd daemons on this machine (one process each,
# `slurmd -N`), 4 CPUs each, half gen1 and half gen2 (Eunomia's speed map
# 1 and 2).  Each is first filled by one long job, so that the queue stays
# pending and every cycle works through it.  Both sides account through
# MariaDB and slurmdbd on loopback (multifactor needs it to recalculate),
# with ACCOUNTS accounts; both recalculate priorities every 60 s with the
# same weights.  The scheduler runs every 10 s and backfill every 15 s on
# both sides (Slurm's defaults are 60 and 30), so that the window holds
# ten cycles or more of each.
#
# BENCH_WINDOW=SECONDS: the measuring window per side (default 300; it
# lasts at least as long as the calls take).  BENCH_ORDER="horae stock"
# runs Horae first (default stock first).
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).  About
# 30 minutes at the defaults on a 2-core machine.  Prints figures;
# asserts nothing.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-100000}
NODES=${2:-256}
ACCOUNTS=${3:-1000}
WINDOW=${BENCH_WINDOW:-300}
CALLS=${BENCH_CALLS:-50}
NSBATCH=${BENCH_SBATCH:-1000}
ORDER=${BENCH_ORDER:-stock horae}
LOOPS=4
[ "$(id -u)" = 0 ] || { echo "bench-scale: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"
. "$HERE/bench/cycles.sh"

work=$(mktemp -d /tmp/horae-bench-scale.XXXXXX)
dir=
cleanup()
{
	[ -n "$dir" ] && { hc_stop; rm -rf "$dir"; }
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stats: from one number a line, "median p99" (nearest rank).
stats()
{
	sort -g | awk '{ v[++n] = $1 } END {
		if (!n) { print "- -"; exit }
		p = int(0.99 * n); if (p < 0.99 * n) p++
		printf "%.1f %.1f\n", v[int((n + 1) / 2)], v[p] }'
}

# timed N CMD...: run CMD N times, one "ms" line each.
timed()
{
	local n=$1 i t0 t1
	shift
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000)) | awk '{ printf "%.1f\n", $1 / 1000 }'
	done
}

# rss_split PID: where slurmctld's resident memory lies, MB: "heap" the
# main malloc arena (brk), "arenas" the other anonymous maps (the arenas
# of malloc's other threads, blocks too large for an arena, stacks), "files"
# what is mapped from files (libraries, plugins).
rss_split()
{
	awk '/^[0-9a-f]+-[0-9a-f]+ / { m = (NF >= 6) ? $6 : ""; next }
		/^Rss:/ { if (m == "[heap]") h += $2
			  else if (m == "" || m ~ /^\[/) a += $2
			  else f += $2 }
		END { printf "rss_heap %.0f\nrss_arenas %.0f\nrss_files %.0f\n",
			     h / 1024, a / 1024, f / 1024 }' "/proc/$1/smaps"
}

# rss_mb PID: its resident memory now, MB.
rss_mb() { awk '/^VmRSS/ { printf "%.0f\n", $2 / 1024 }' "/proc/$1/status"; }

# sbatch_rate: real sbatch, NSBATCH jobs by LOOPS loops; prints jobs/s.
sbatch_rate()
{
	local per=$((NSBATCH / LOOPS)) l pids=() t0 t1 before after
	before=$(squeue -h -o %i 2>/dev/null | wc -l)
	t0=$(date +%s.%N)
	for ((l = 0; l < LOOPS; l++)); do
		(for ((i = 0; i < per; i++)); do
			sbatch -Q -A acct$((i % ACCOUNTS)) -n1 -t 10 \
				--deadline=now+7days -o /dev/null --wrap true
		done) &
		pids+=($!)
	done
	wait "${pids[@]}"
	t1=$(date +%s.%N)
	after=$(squeue -h -o %i 2>/dev/null | wc -l)
	awk -v n="$((after - before))" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.1f\n", n / (b - a) }'
}

# side NAME: one cluster, the queue, the measurements; writes
# $work/NAME.fig with one "key value" a line.
side()
{
	local name=$1 t0 pid i running spid out=$work/$1.fig
	local weights=$'PriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightFairshare=10000\nPriorityWeightAssoc=1000\nPriorityCalcPeriod=1'
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	echo "  $name: starting $NODES slurmd, MariaDB and slurmdbd" >&2
	if [ "$name" = horae ]; then
		export HC_PROFILE=horae
		export HC_HMRF_CONF=$'Period=60s\nWindow=sliding:7d'
		export HC_EUNOMIA_CONF=$'Placement=eunomia\nSpeedMap=gen1:1,gen2:2'
	else
		export HC_PROFILE=stock
		unset HC_HMRF_CONF HC_EUNOMIA_CONF
	fi
	HC_NODES=$(for ((i = 1; i <= NODES; i++)); do
		echo "s$i 4 8000 gen$((1 + i % 2))"; done) \
	HC_ACCOUNTING=1 HC_IDLE_WAIT=600 \
	HC_ACCOUNTS=$(for ((i = 0; i < ACCOUNTS; i++)); do echo "acct$i:$((1 + i % 4))"; done) \
	HC_EXTRA_CONF=$'SchedulerParameters=batch_sched_delay=0,sched_interval=10,bf_interval=15\nMaxJobCount=300000\n'"$weights" \
		hc_start >/dev/null 2>&1 || { echo "bench-scale: the $name cluster did not start" >&2; return 1; }
	pid=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
	# Jobs work in the run directory: hc_stop finds what is left there.
	cd "$dir" || return 1
	# One long job a node: the nodes stay full, the queue pending.
	for ((i = 1; i <= NODES; i++)); do
		echo "- acct$((i % ACCOUNTS)) 4 600 - s$i sleep 36000"
	done | "$SUBMIT" >&2 || return 1
	for ((i = 0; i < 120; i++)); do
		running=$(squeue -h -t R -o %i 2>/dev/null | wc -l)
		[ "$running" -ge "$NODES" ] && break
		sleep 1
	done
	echo "  $name: $running of $NODES filler jobs running; queueing $JOBS" >&2
	t0=$(date +%s.%N)
	for ((i = 0; i < JOBS; i++)); do
		echo "- acct$((i % ACCOUNTS)) $((1 + i % 4)) $((10 + i % 600)) - - sleep 600"
	done | "$SUBMIT" >&2
	awk -v n="$JOBS" -v a="$t0" -v b="$(date +%s.%N)" \
		'BEGIN { printf "submit %.1f\n", n / (b - a) }' >"$out"
	echo "rss_queued $(rss_mb "$pid")" >>"$out"
	# The measuring window: cycles sampled all along, the calls in it.
	sdiag -r >/dev/null 2>&1
	t0=$SECONDS
	cycles_samples "$WINDOW" >"$work/$name.cycles" &
	spid=$!
	echo "  $name: $CALLS squeue, $CALLS sprio, $NSBATCH sbatch" >&2
	timed "$CALLS" squeue -h >"$work/$name.squeue"
	echo "rss_squeue $(rss_mb "$pid")" >>"$out"
	timed "$CALLS" sprio -h >"$work/$name.sprio"
	echo "rss_sprio $(rss_mb "$pid")" >>"$out"
	echo "sbatch $(sbatch_rate)" >>"$out"
	wait "$spid"
	echo "window $((SECONDS - t0))" >>"$out"
	read -r m p < <(stats <"$work/$name.squeue")
	echo "squeue_med $m" >>"$out"
	echo "squeue_p99 $p" >>"$out"
	read -r m p < <(stats <"$work/$name.sprio")
	echo "sprio_med $m" >>"$out"
	echo "sprio_p99 $p" >>"$out"
	read -r n _ m _ < <(cycles_quartiles main <"$work/$name.cycles")
	echo "main_n $n" >>"$out"
	echo "main_med $m" >>"$out"
	read -r n _ m _ < <(cycles_quartiles bf <"$work/$name.cycles")
	echo "bf_n $n" >>"$out"
	echo "bf_med $m" >>"$out"
	awk '/^VmRSS/ { printf "rss %.0f\n", $2 / 1024 } /^VmHWM/ { printf "hwm %.0f\n", $2 / 1024 }' \
		"/proc/$pid/status" >>"$out"
	rss_split "$pid" >>"$out"
	echo "queued $(squeue -h -o %i 2>/dev/null | wc -l)" >>"$out"
	cd / && hc_stop
	rm -rf "$dir"
	dir=
}

for s in $ORDER; do
	side "$s" || exit 1
done

# fig SIDE KEY
fig() { awk -v k="$2" '$1 == k { print $2 }' "$work/$1.fig"; }

echo "$JOBS pending jobs of $ACCOUNTS accounts on $NODES nodes (slurmd daemons on this machine), sides run one after the other ($ORDER)"
fmt='%-34s %14s %14s %8s\n'
printf "$fmt" figure stock horae ratio
row()
{
	# row LABEL KEY HIGHER_IS_WORSE(1|0)
	local s h
	s=$(fig stock "$2") h=$(fig horae "$2")
	printf "$fmt" "$1" "${s:--}" "${h:--}" "$(awk -v s="$s" -v h="$h" -v w="$3" 'BEGIN {
		if (s + 0 <= 0 || h + 0 <= 0) { print "-"; exit }
		printf "%.2f", w ? h / s : s / h }')"
}
row "submissions/s (libslurm)" submit 0
row "sbatch/s (4 loops, --deadline)" sbatch 0
row "squeue ms, median" squeue_med 1
row "squeue ms, p99" squeue_p99 1
row "sprio ms, median" sprio_med 1
row "sprio ms, p99" sprio_p99 1
row "main cycle us, median" main_med 1
row "backfill cycle us, median" bf_med 1
row "slurmctld RSS MB, queue submitted" rss_queued 1
row "  after the squeue calls" rss_squeue 1
row "  after the sprio calls" rss_sprio 1
row "slurmctld RSS MB, end" rss 1
row "slurmctld peak RSS MB" hwm 1
row "  of RSS: main heap MB" rss_heap 1
row "  of RSS: other anonymous MB" rss_arenas 1
row "  of RSS: mapped files MB" rss_files 1
printf "$fmt" "main cycles sampled" "$(fig stock main_n)" "$(fig horae main_n)" ""
printf "$fmt" "backfill cycles sampled" "$(fig stock bf_n)" "$(fig horae bf_n)" ""
printf "$fmt" "jobs queued at the end" "$(fig stock queued)" "$(fig horae queued)" ""
printf "$fmt" "measuring window s" "$(fig stock window)" "$(fig horae window)" ""
echo "ratio: horae / stock for times and memory, stock / horae for rates (above 1: Horae worse)"
echo "$CALLS calls each for squeue and sprio; $NSBATCH sbatch; machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
