#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-scale: a slurmctld with a long queue on many nodes, with Horae's
# three plugins (priority/hmrf, select/eunomia with Placement=eunomia,
# job_submit/justice) and with stock Slurm's (priority/multifactor,
# select/cons_tres, no job_submit plugin), both clusters up at the same
# time and every measurement made on each in turn, so that the machine's
# noise falls on both alike.  What an admin would notice, per side:
#
#   - submissions/s while JOBS jobs are queued through libslurm
#     (bench_submit: the RPC sbatch sends, without its process start),
#     BENCH_CHUNK (5000) to one side, then to the other, and so on; the
#     slowest and fastest chunk beside it, and slurmctld's own CPU per
#     submission (user and system, from /proc, over its chunks: this
#     includes what slurmctld does meanwhile, its cycles and
#     recalculations on the growing queue);
#   - real sbatch's throughput with that queue in place (BENCH_SBATCH jobs
#     in rounds of BENCH_SBATCH_ROUND (100), each by 4 concurrent loops,
#     each job with --deadline so that Justice judges it; the sides take
#     rounds in turn), with the slowest and fastest round;
#   - squeue and sprio response times, median and p99 over BENCH_CALLS
#     calls each (whole queue, output discarded; one call to a side, then
#     one to the other);
#   - the main scheduler's and backfill's cycle times (sdiag, sampled as
#     bench-select-cycle.sh does), median and quartiles, over the whole
#     measuring window, while the calls above run;
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
# The nodes are NODES slurmd daemons per cluster on this machine (one
# process each, `slurmd -N`), 4 CPUs each, half gen1 and half gen2
# (Eunomia's speed map 1 and 2).  Each is first filled by one long job,
# so that the queue stays pending and every cycle works through it.  Both
# sides account through MariaDB and slurmdbd on loopback (multifactor
# needs it to recalculate), with ACCOUNTS accounts; both recalculate
# priorities every 60 s with the same weights.  The scheduler runs every
# 10 s and backfill every 15 s on both sides (Slurm's defaults are 60 and
# 30), so that the window holds ten cycles or more of each.
#
# BENCH_WINDOW=SECONDS: the measuring window (default 900; it lasts at
# least as long as the calls take).  At 100,000 jobs a backfill cycle
# takes 2-8 s, its lengths falling in two groups: 300 s held 15 cycles a
# side, whose median was whichever group the eighth fell in; 900 s holds
# about 45, and 110 main cycles.  BENCH_ORDER="horae stock": which
# side takes its turn first (default stock first); one side alone
# ("horae") runs only that cluster, which with HC_PRIORITY, HC_SELECT or
# HC_JOBSUBMIT set swaps one of Horae's plugins for a stock one.
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).  About
# 27 minutes at the defaults on a 2-core machine.  Prints figures;
# asserts nothing.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-100000}
NODES=${2:-256}
ACCOUNTS=${3:-1000}
WINDOW=${BENCH_WINDOW:-900}
CALLS=${BENCH_CALLS:-50}
NSBATCH=${BENCH_SBATCH:-1000}
SIDES=${BENCH_ORDER:-stock horae}
CHUNK=${BENCH_CHUNK:-5000}
SBATCH_ROUND=${BENCH_SBATCH_ROUND:-100}
LOOPS=4
[ "$(id -u)" = 0 ] || { echo "bench-scale: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"
. "$HERE/bench/cycles.sh"

for s in $SIDES; do
	case $s in stock | horae) ;; *) echo "bench-scale: BENCH_ORDER: '$s' is neither stock nor horae" >&2; exit 2 ;; esac
done
[ "$CHUNK" -gt 0 ] && [ "$SBATCH_ROUND" -ge "$LOOPS" ] ||
	{ echo "bench-scale: BENCH_CHUNK must be > 0 and BENCH_SBATCH_ROUND >= $LOOPS" >&2; exit 2; }

work=$(mktemp -d /tmp/horae-bench-scale.XXXXXX)
dirs=()
spids=()
cleanup()
{
	local d
	cd /
	[ ${#spids[@]} = 0 ] || kill "${spids[@]}" 2>/dev/null
	for d in "${dirs[@]}"; do
		hc_init "$d" >/dev/null 2>&1 && hc_stop
		rm -rf "$d"
	done
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

# with SIDE CMD...: CMD against SIDE's cluster.
with()
{
	local side=$1
	shift
	SLURM_CONF=${conf[$side]} "$@"
}

# cpu_ticks PID: the process's user and system CPU so far, clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# sbatch_round SIDE N: real sbatch, N jobs by LOOPS loops against SIDE;
# prints "jobs seconds".
sbatch_round()
{
	local side=$1 per=$(($2 / LOOPS)) l pids=() t0 t1 before after
	before=$(with "$side" squeue -h -o %i 2>/dev/null | wc -l)
	t0=$(date +%s.%N)
	for ((l = 0; l < LOOPS; l++)); do
		(for ((i = 0; i < per; i++)); do
			with "$side" sbatch -Q -A acct$((i % ACCOUNTS)) -n1 -t 10 \
				--deadline=now+7days -o /dev/null --wrap true
		done) &
		pids+=($!)
	done
	wait "${pids[@]}"
	t1=$(date +%s.%N)
	after=$(with "$side" squeue -h -o %i 2>/dev/null | wc -l)
	echo "$((after - before)) $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
}

# up NAME: NAME's cluster with its nodes full; sets conf, pid and rundir
# [NAME] and adds its run directory to dirs.
up()
{
	local name=$1 i running d
	local weights=$'PriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightFairshare=10000\nPriorityWeightAssoc=1000\nPriorityCalcPeriod=1'
	d=$(mktemp -d /tmp/horae-bench.XXXXXX)
	dirs+=("$d")
	hc_init "$d" || return 1
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
	conf[$name]=$HC_CONF
	pid[$name]=$(cat "$HC_RUNDIR/pids/slurmctld.pid")
	rundir[$name]=$d
	# Jobs work in the run directory: hc_stop finds what is left there.
	# One long job a node: the nodes stay full, the queue pending.
	for ((i = 1; i <= NODES; i++)); do
		echo "- acct$((i % ACCOUNTS)) 4 600 - s$i sleep 36000"
	done | (cd "$d" && with "$name" "$SUBMIT") >&2 || return 1
	for ((i = 0; i < 120; i++)); do
		running=$(with "$name" squeue -h -t R -o %i 2>/dev/null | wc -l)
		[ "$running" -ge "$NODES" ] && break
		sleep 1
	done
	echo "  $name: $running of $NODES filler jobs running" >&2
}

# fig_add SIDE KEY VALUE
fig_add() { echo "$2 $3" >>"$work/$1.fig"; }

# rss_all KEY: each side's RSS now.
rss_all() { local s; for s in $SIDES; do fig_add "$s" "$1" "$(rss_mb "${pid[$s]}")"; done; }

# sum_rate FILE: from "n seconds" lines, "n / sum of seconds".
sum_rate() { awk '{ n += $1; t += $2 } END { if (t > 0) printf "%.1f\n", n / t; else print "-" }' "$1"; }

# spread FILE: from "n seconds" lines, each line's rate: "min max".
spread() { awk '$2 > 0 { r = $1 / $2; if (!k++ || r < lo) lo = r; if (r > hi) hi = r } END { if (k) printf "%.1f %.1f\n", lo, hi; else print "- -" }' "$1"; }

declare -A conf pid rundir
for s in $SIDES; do
	up "$s" || exit 1
	: >"$work/$s.fig"
done

# The queue, CHUNK jobs at a time to each side in turn: the machine's
# noise falls on both alike.  slurmctld's own CPU while its chunks are
# queued is summed beside the rate.
echo "  queueing $JOBS on each side, $CHUNK at a time in turn ($SIDES)" >&2
for ((q = 0; q < JOBS; q += CHUNK)); do
	n=$((JOBS - q < CHUNK ? JOBS - q : CHUNK))
	for s in $SIDES; do
		c0=$(cpu_ticks "${pid[$s]}")
		t0=$(date +%s.%N)
		for ((i = q; i < q + n; i++)); do
			echo "- acct$((i % ACCOUNTS)) $((1 + i % 4)) $((10 + i % 600)) - - sleep 600"
		done | (cd "${rundir[$s]}" && with "$s" "$SUBMIT") >>"$work/$s.submit.log" 2>&1
		t1=$(date +%s.%N)
		c1=$(cpu_ticks "${pid[$s]}")
		echo "$n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $((c1 - c0))" >>"$work/$s.queue"
	done
done
for s in $SIDES; do
	fig_add "$s" submit "$(sum_rate "$work/$s.queue")"
	fig_add "$s" submit_failed "$(awk '$1 == "submitted" { f += $4 } END { print f + 0 }' "$work/$s.submit.log")"
	read -r lo hi < <(spread "$work/$s.queue")
	fig_add "$s" submit_min "$lo"
	fig_add "$s" submit_max "$hi"
	fig_add "$s" submit_cpu "$(awk -v hz="$(getconf CLK_TCK)" '{ n += $1; c += $3 } END { if (n) printf "%.2f\n", c / hz * 1000 / n }' "$work/$s.queue")"
done
rss_all rss_queued

# The measuring window: both sides' cycles sampled all along, the calls
# made to each side in turn.
t0=$SECONDS
for s in $SIDES; do
	with "$s" sdiag -r >/dev/null 2>&1
	(export SLURM_CONF=${conf[$s]}; cycles_samples "$WINDOW") >"$work/$s.cycles" &
	spids+=($!)
done
echo "  $CALLS squeue, $CALLS sprio and $NSBATCH sbatch on each side, in turn" >&2
for ((k = 0; k < CALLS; k++)); do
	for s in $SIDES; do timed 1 with "$s" squeue -h >>"$work/$s.squeue"; done
done
rss_all rss_squeue
for ((k = 0; k < CALLS; k++)); do
	for s in $SIDES; do timed 1 with "$s" sprio -h >>"$work/$s.sprio"; done
done
rss_all rss_sprio
for ((k = 0; k < NSBATCH; k += SBATCH_ROUND)); do
	for s in $SIDES; do sbatch_round "$s" "$SBATCH_ROUND" >>"$work/$s.sbatch"; done
done
wait "${spids[@]}"
for s in $SIDES; do
	out=$work/$s.fig
	fig_add "$s" window $((SECONDS - t0))
	fig_add "$s" sbatch "$(sum_rate "$work/$s.sbatch")"
	read -r lo hi < <(spread "$work/$s.sbatch")
	fig_add "$s" sbatch_min "$lo"
	fig_add "$s" sbatch_max "$hi"
	read -r m p < <(stats <"$work/$s.squeue")
	fig_add "$s" squeue_med "$m"
	fig_add "$s" squeue_p99 "$p"
	read -r m p < <(stats <"$work/$s.sprio")
	fig_add "$s" sprio_med "$m"
	fig_add "$s" sprio_p99 "$p"
	read -r n q1 m q3 < <(cycles_quartiles main <"$work/$s.cycles")
	fig_add "$s" main_n "$n"
	fig_add "$s" main_q1 "$q1"
	fig_add "$s" main_med "$m"
	fig_add "$s" main_q3 "$q3"
	read -r n q1 m q3 < <(cycles_quartiles bf <"$work/$s.cycles")
	fig_add "$s" bf_n "$n"
	fig_add "$s" bf_q1 "$q1"
	fig_add "$s" bf_med "$m"
	fig_add "$s" bf_q3 "$q3"
	awk '/^VmRSS/ { printf "rss %.0f\n", $2 / 1024 } /^VmHWM/ { printf "hwm %.0f\n", $2 / 1024 }' \
		"/proc/${pid[$s]}/status" >>"$out"
	rss_split "${pid[$s]}" >>"$out"
	fig_add "$s" queued "$(with "$s" squeue -h -o %i 2>/dev/null | wc -l)"
done

# fig SIDE KEY
fig() { awk -v k="$2" '$1 == k { print $2 }' "$work/$1.fig" 2>/dev/null; }

echo "$JOBS pending jobs of $ACCOUNTS accounts on $NODES nodes a cluster (slurmd daemons on this machine), both clusters up at once, each measurement made on each in turn ($SIDES)"
fmt='%-36s %14s %14s %8s\n'
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
# note LABEL KEY: a figure printed without a ratio.
note() { printf "$fmt" "$1" "$(fig stock "$2")" "$(fig horae "$2")" ""; }
row "submissions/s (libslurm)" submit 0
note "  slowest chunk, jobs/s" submit_min
note "  fastest chunk, jobs/s" submit_max
row "slurmctld CPU ms per submission" submit_cpu 1
row "sbatch/s (4 loops, --deadline)" sbatch 0
note "  slowest round, jobs/s" sbatch_min
note "  fastest round, jobs/s" sbatch_max
row "squeue ms, median" squeue_med 1
row "squeue ms, p99" squeue_p99 1
row "sprio ms, median" sprio_med 1
row "sprio ms, p99" sprio_p99 1
row "main cycle us, median" main_med 1
note "  q1" main_q1
note "  q3" main_q3
row "backfill cycle us, median" bf_med 1
note "  q1" bf_q1
note "  q3" bf_q3
row "slurmctld RSS MB, queue submitted" rss_queued 1
row "  after the squeue calls" rss_squeue 1
row "  after the sprio calls" rss_sprio 1
row "slurmctld RSS MB, end" rss 1
row "slurmctld peak RSS MB" hwm 1
row "  of RSS: main heap MB" rss_heap 1
row "  of RSS: other anonymous MB" rss_arenas 1
row "  of RSS: mapped files MB" rss_files 1
note "main cycles sampled" main_n
note "backfill cycles sampled" bf_n
note "submissions failed (libslurm)" submit_failed
note "jobs queued at the end" queued
note "measuring window s" window
echo "ratio: horae / stock for times, CPU and memory, stock / horae for rates (above 1: Horae worse)"
echo "$CALLS calls each for squeue and sprio; $NSBATCH sbatch in rounds of $SBATCH_ROUND; the queue in chunks of $CHUNK; machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
