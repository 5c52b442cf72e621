#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-priority-recalc: what one full priority recalculation costs in a
# real slurmctld, priority/hmrf beside stock priority/multifactor: CPU time
# of the plugin's thread, and time that thread holds slurmctld's locks
# (while it holds the job write lock nobody can submit, query or
# schedule).  Both clusters run at the same time, on the same kind of
# queue, and are sampled over the same window, so that machine noise falls
# on both alike.  Each table gives the recalculations' minimum, quartiles,
# median, maximum and mean, and each ratio is given of the medians and of
# the means: the median is a typical recalculation, the mean what they
# cost over time when some are dearer than the rest (a round of users'
# views every ten Periods under PrivateData=usage).  Prints figures;
# asserts nothing.
#
#   bench-priority-recalc.sh [JOBS [ACCOUNTS]]      (10000 100)
#
# BENCH_WINDOW=SECONDS: how long both are sampled (default 660: eleven
# recalculations at the 60 s period, ten at least once the first partial
# one is left out; with both orders 720, half in each, five or six
# recalculations in each order).  BENCH_PERIOD=SECONDS: hmrf's Period
# (default 60, multifactor's PriorityCalcPeriod, which cannot go lower).
# BENCH_BASELINE=DIR: measure priority/hmrf against priority/hmrf loaded
# from DIR (another build's staged plugins, e.g. a copy of build/stage's
# plugin directory made before a change) instead of multifactor: the
# same queue, sampling and figures, the baseline's own log too.
# BENCH_HISTORY=DAYS: priority/hmrf starts from a saved state in which
# every account has DAYS days of usage (bench_state: 1-16 CPUs each, in
# its 7-day window) instead of from nothing: hmrf saves its whole window
# each recalculation, as it would at a site whose accounts have run jobs.
# Multifactor's decay does not depend on it (its usage is saved by
# slurmctld's own state save, not its decay thread).
# BENCH_USERS=N: both clusters run with PrivateData=usage, and the jobs
# are N users' (uids 100000 on, which need no account on the machine: the
# jobs never start), account k's jobs user k mod N's, in job_list's order
# one user after another (the dearest for listing who reads what): hmrf
# publishes each user's views as a site with private usage has it do.
# By default the jobs are root's, who gets no view.
# BENCH_ORDERS=both (the default) runs the comparison twice, each side's
# cluster started and queued first once, over half the window each, and
# pools the two runs' recalculations (each run's report is printed too,
# its lines marked with its order); BENCH_ORDERS=one runs it once.
# BENCH_SWAP=1 (with BENCH_ORDERS=one): start the other side's cluster
# first, and queue its chunks first (by default hmrf's).  With
# BENCH_BASELINE, builds whose gathers do the same have come out 3-5 ms
# apart there at 50,000 jobs in one run and even in the next: measure a
# change both ways.  BENCH_CHUNK=N: jobs queued to a side at a time
# (1000; JOBS queues each side's whole queue at once).  How the queue was
# built has moved hmrf's figure by more than its code changes: at
# 10,000/100, both orders pooled, 0.76 of multifactor's in chunks of
# 1,000 and 1.15 whole (doc/benchmarks-history.md, seventeenth session).
#
# Stock priority/multifactor recalculates only with slurmdbd (without it,
# it starts no decay thread), so both clusters run with MariaDB and
# slurmdbd on loopback and the ACCOUNTS accounts made with sacctmgr.  Each
# cluster has 8 nodes (select/cons_tres, no job_submit plugin,
# sched/builtin so no backfill thread competes) and JOBS pending jobs of
# ACCOUNTS accounts, held in a DOWN partition so that nothing starts; they
# are queued through libslurm (bench_submit), BENCH_CHUNK (1000) at a time
# to each cluster in turn, and their rate is printed (see bench-submit.sh
# for sbatch's).
#
# CPU: the plugin's thread (multifactor's "decay", hmrf's "hmrf") is found
# by name; its on-CPU time is sampled from /proc/PID/task/TID/schedstat
# every 0.25 s, and each burst of work is one recalculation.
#
# Locks: uprobes on slurmctld's lock_slurmctld (its return: the locks are
# held) and unlock_slurmctld (its entry), recorded by `perf record` for
# those two threads only; a recalculation's hold is the sum of its
# lock-to-unlock spans (multifactor takes the job lock twice per
# recalculation with Fair Tree, hmrf twice: gather and write).  A third
# uprobe, on lock_slurmctld's entry, reads the job lock's level from its
# argument (slurmctld_lock_t, passed by value on the stack: conf, job,
# node, part, fed, so the job's at 12(%sp) on x86-64), and the time with
# the job write lock held is given apart from the time with any of them
# held.  With the job write lock held nobody can submit, schedule or
# query.  hmrf's gather holds read locks alone (slurmctld's and
# assoc_mgr's): squeue and sprio run beside it (glibc's rwlocks, which
# Slurm's locks are, let a reader in while others read, even with a
# writer waiting), sbatch and the schedulers wait.  multifactor holds the
# job write lock (and assoc_mgr's write locks) for its whole pass.  The
# probes are named horae_bench:* and removed at the end.  Without perf or uprobes the
# locks are not measured, and the script says so.  hmrf's own
# DebugFlags=Priority line (slurmctld's locks, each hold apart, and the
# closing of its books under assoc_mgr's locks alone) is printed beside
# it as a cross-check.
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-10000}
ACCOUNTS=${2:-100}
WINDOW=${BENCH_WINDOW:-$([ "${BENCH_ORDERS:-both}" = both ] && echo 720 || echo 660)}
PERIOD=${BENCH_PERIOD:-60}
[ "$(id -u)" = 0 ] || { echo "bench-priority-recalc: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
BASELINE=${BENCH_BASELINE:-}
HISTORY=${BENCH_HISTORY:-0}
USERS=${BENCH_USERS:-0}
private=
[ "$USERS" = 0 ] || private=$'PrivateData=usage\n'
[ -z "$BASELINE" ] || [ -f "$BASELINE/priority_hmrf.so" ] ||
	{ echo "bench-priority-recalc: BENCH_BASELINE=$BASELINE: no priority_hmrf.so there" >&2; exit 2; }
# other: the other side's row; short: its name in the ratios and notes.
if [ -n "$BASELINE" ]; then
	other=baseline/hmrf other_thread=hmrf short=baseline
else
	other=priority/multifactor other_thread=decay short=multifactor
fi
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"

work=$(mktemp -d /tmp/horae-bench-prio.XXXXXX)
# hmrf's saved state with usage history, when asked for (BENCH_HISTORY);
# with both orders, each run makes its own.
history=
if [ "$HISTORY" != 0 ] && [ "${BENCH_ORDERS:-both}" = one ]; then
	history=$work/history
	_st=$(dirname "$SUBMIT")/bench_state
	[ -x "$_st" ] || make -s -C "$(dirname "$SUBMIT")/.." bench/bench_state >&2 ||
		{ echo "bench-priority-recalc: cannot build bench_state" >&2; rm -rf "$work"; exit 1; }
	mkdir -p "$history"
	"$_st" "$history/horae_hmrf.state" "$ACCOUNTS" "$HISTORY" ||
		{ rm -rf "$work"; exit 1; }
fi
dirs=()
probes= levels=
cleanup()
{
	local d
	for d in "${dirs[@]}"; do
		hc_init "$d" >/dev/null 2>&1 && hc_stop
		rm -rf "$d"
	done
	[ -z "$probes" ] || perf probe -q -d 'horae_bench:*' >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
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

# spans: from one thread's samples, each run of samples that each used
# > 1 ms (a burst: one recalculation), one a line: "start end ms", from
# the sample before its first to its last, and its CPU ms.  The first
# burst is left out when it was already under way at the first sample.
spans()
{
	awk 'NR == 1 { last = $3; prev = $1; next }
	{
		d = $3 - last; last = $3
		if (d > 1e6) {
			if (!inb) { n++; inb = 1; cut[n] = (NR == 2); s[n] = prev }
			b[n] += d; e[n] = $1
		} else inb = 0
		prev = $1
	}
	END { for (i = 1; i <= n; i++) if (!cut[i]) printf "%.3f %.3f %.3f\n", s[i], e[i], b[i] / 1e6 }'
}

# apart A B: the CPU ms of the spans in file A that overlap none in file
# B, one a line.  The spans are as wide as the sampling (0.25 s or
# more), so two recalculations close in time count as overlapping even
# when they did not: none left in is measured beside the other.
apart()
{
	awk 'NR == FNR { s[++n] = $1; e[n] = $2; next }
	{ for (i = 1; i <= n; i++) if ($1 < e[i] && s[i] < $2) next; print $3 }' "$2" "$1"
}

# holds TID: from perf script's "tid time event [args]" lines, the ms
# each recalculation of thread TID held slurmctld's locks: spans from a
# return of lock_slurmctld to the next unlock_slurmctld, those less than
# 1 s apart summed as one recalculation; then, when the entry probe gave
# the job lock's level (job=2: write), the ms of those with the job write
# lock held.
holds()
{
	awk -v tid="$1" '
	function out() {
		if (unknown) print sum * 1e3
		else printf "%s %s\n", sum * 1e3, wsum * 1e3
		sum = wsum = 0; unknown = 0
	}
	$1 == tid {
		t = $2; sub(":", "", t)
		if ($3 ~ /:locking/) {
			lv = ""
			if (match($0, /job=[0-9]+/)) lv = substr($0, RSTART + 4, RLENGTH - 4)
			next
		}
		if ($3 ~ /locked/) { l = t; lvl = lv; lv = ""; next }
		if (l == "") next
		if (last != "" && l - last > 1) out()
		sum += t - l; last = t
		if (lvl == "") unknown = 1
		else if (lvl == 2) wsum += t - l
		l = ""
	} END { if (last != "") out() }'
}

# stats: from one number a line, "n min q1 median q3 max mean" (or "0 -
# ...").  The mean is what a site pays over time: a recalculation that is
# dearer one time in several (a view round, say) moves it, not the median.
stats()
{
	sort -g | awk '{ v[++n] = $1; s += $1 } END {
		if (!n) { print "0 - - - - - -"; exit }
		printf "%d %.1f %.1f %.1f %.1f %.1f %.1f\n", n, v[1],
		       v[int((n + 3) / 4)], v[int((n + 1) / 2)],
		       v[int((3 * n + 3) / 4)], v[n], s / n }'
}
# ratios WHAT H M HMEAN MMEAN: the medians' ratio and the means'.
ratios()
{
	awk -v w="$1" -v h="$2" -v m="$3" -v hm="$4" -v mm="$5" -v o="$short" 'BEGIN {
		if (h > 0 && m > 0) printf "ratio hmrf/%s, median %s: %.2f\n", o, w, h / m
		if (hm > 0 && mm > 0) printf "ratio hmrf/%s, mean %s: %.2f\n", o, w, hm / mm }'
}

# The tables' rows.
fmt='%-22s %8s %7s %8s %8s %8s %8s %8s %8s\n'

# lock_rows COLUMN TITLE WHAT: the table and ratios of column COLUMN of
# $work/locks.h and $work/locks.m (lock_table).
lock_rows()
{
	local ln lmin lq1 lmed lq3 lmax lmean kn kmin kq1 kmed kq3 kmax kmean
	read -r ln lmin lq1 lmed lq3 lmax lmean < <(cut -d' ' -f"$1" "$work/locks.h" | stats)
	read -r kn kmin kq1 kmed kq3 kmax kmean < <(cut -d' ' -f"$1" "$work/locks.m" | stats)
	echo "$2"
	printf "$fmt" plugin '' cycles min q1 median q3 max mean
	printf "$fmt" priority/hmrf '' "$ln" "$lmin" "$lq1" "$lmed" "$lq3" "$lmax" "$lmean"
	printf "$fmt" "$other" '' "$kn" "$kmin" "$kq1" "$kmed" "$kq3" "$kmax" "$kmean"
	ratios "$3" "$lmed" "$kmed" "$lmean" "$kmean"
}

# lock_table H M: the time under slurmctld's locks, from files of one
# recalculation's holds a line (holds), hmrf's and the other side's; then
# the part of it with the job write lock held, when holds gave it for
# every recalculation of both.
lock_table()
{
	cat "$1" >"$work/locks.h"
	cat "$2" >"$work/locks.m"
	lock_rows 1 "ms per recalculation with slurmctld's locks held (uprobes on lock_slurmctld/unlock_slurmctld)" \
		"time under slurmctld's locks per recalculation"
	if awk 'NF < 2 { bad = 1 } END { exit bad || !NR }' "$work/locks.h" &&
	   awk 'NF < 2 { bad = 1 } END { exit bad || !NR }' "$work/locks.m"; then
		lock_rows 2 "ms per recalculation of that with the job write lock held (its level read at lock_slurmctld's entry)" \
			"time under the job write lock per recalculation"
	else
		echo "time under the job write lock: not told apart (the job lock's level was not read for every hold)"
	fi
}

# Both orders (BENCH_ORDERS=both, the default): this script once with
# hmrf's cluster started and queued first and once with the other's, each
# over half the window, and the figures of both runs pooled: which
# cluster came first has moved a plugin's CPU per recalculation by up to
# 42% against a like build (at the queue below).
if [ "${BENCH_ORDERS:-both}" = both ]; then
	half=$(((WINDOW + 1) / 2))
	for o in 0 1; do
		mkdir -p "$work/order$o"
		echo "# order $((o + 1)) of 2: $([ $o = 0 ] && echo "hmrf's" || echo "${other}'s") cluster first, ${half} s" >&2
		BENCH_ORDERS=one BENCH_SWAP=$o BENCH_WINDOW=$half BENCH_KEEP=$work/order$o \
			bash "$0" "$JOBS" "$ACCOUNTS" >"$work/order$o/report" ||
			{ cat "$work/order$o/report"; echo "bench-priority-recalc: the run in order $((o + 1)) failed" >&2; exit 1; }
		sed "s/^/order $((o + 1)): /" "$work/order$o/report"
	done
	pool() { cat "$work"/order0/"$1" "$work"/order1/"$1" 2>/dev/null; }
	echo "$JOBS pending jobs of $ACCOUNTS accounts, both orders pooled: each side's recalculations of the two runs above (${half} s each, hmrf's cluster first, then $short's)"
	echo "CPU ms per full recalculation (q1, q3: quartiles)"
	printf "$fmt" plugin submit/s cycles min q1 median q3 max mean
	read -r hn hmin hq1 hmed hq3 hmax hmean < <(pool hmrf.cpu | stats)
	read -r mn mmin mq1 mmed mq3 mmax mmean < <(pool mf.cpu | stats)
	hrate=$(pool hmrf.rate | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n }')
	mrate=$(pool mf.rate | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n }')
	printf "$fmt" priority/hmrf "$hrate" "$hn" "$hmin" "$hq1" "$hmed" "$hq3" "$hmax" "$hmean"
	printf "$fmt" "$other" "$mrate" "$mn" "$mmin" "$mq1" "$mmed" "$mq3" "$mmax" "$mmean"
	ratios "CPU per recalculation" "$hmed" "$mmed" "$hmean" "$mmean"
	[ "$hn" -ge 10 ] && [ "$mn" -ge 10 ] || echo "  (fewer than 10 recalculations a side: a longer BENCH_WINDOW)"
	for o in 0 1; do
		read -r _ _ _ a _ _ _ < <(stats <"$work/order$o/hmrf.cpu")
		read -r _ _ _ b _ _ _ < <(stats <"$work/order$o/mf.cpu")
		awk -v a="$a" -v b="$b" -v o="$short" -v k="$o" 'BEGIN { if (a > 0 && b > 0) printf "  order %d (%s first): medians %.1f and %.1f ms, ratio %.2f\n", k + 1, k ? o : "hmrf", a, b, a / b }'
	done
	if [ -s "$work/order0/hmrf.holds" ] || [ -s "$work/order1/hmrf.holds" ]; then
		lock_table <(pool hmrf.holds) <(pool mf.holds)
	else
		echo "time under slurmctld's locks: not measured (see each order's report)"
	fi
	echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

# start NAME PRIORITY EXTRA DEBUG [PLUGINDIR]: a cluster, its rundir
# appended to dirs; its slurmctld's PID, conf and log noted under NAME.
start()
{
	local name=$1 prio=$2 extra=$3 debug=$4 plugins=${5:-$HORAE_PLUGINDIR} dir i
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	dirs+=("$dir")
	hc_init "$dir" || return 1
	HC_NODES=$(for i in 1 2 3 4 5 6 7 8; do echo "n$i 32 64000"; done) \
	HC_PLUGINDIR=$plugins HC_PRIORITY=$prio HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_DEBUG=$debug HC_ACCOUNTING=1 HC_ACCOUNTS=$(for ((i = 0; i < ACCOUNTS; i++)); do echo "acct$i:$((1 + i % 4))"; done) \
	HC_EXTRA_CONF=$'PartitionName=hold Nodes=ALL State=DOWN\nSchedulerType=sched/builtin\nMaxJobCount=200000\n'"$private$extra" \
	HC_HMRF_CONF=$'Period='"$PERIOD"$'s\nWindow=sliding:7d' \
	HC_STATE_FROM=$([ "$prio" = priority/hmrf ] && echo "$history") \
		hc_start >/dev/null 2>&1 || { echo "cluster for $prio did not start" >&2; return 1; }
	cat "$HC_RUNDIR/pids/slurmctld.pid" >"$work/$name.pid"
	echo "$HC_CONF" >"$work/$name.conf"
	echo "$HC_RUNDIR/log/slurmctld.log" >"$work/$name.log"
}

start_other()
{
	if [ -n "$BASELINE" ]; then
		start mf priority/hmrf $'DebugFlags=Priority' verbose "$BASELINE"
	else
		start mf priority/multifactor $'PriorityCalcPeriod=1\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightFairshare=10000' info
	fi
}
if [ "${BENCH_SWAP:-0}" = 1 ]; then
	start_other || exit 1
	start hmrf priority/hmrf $'DebugFlags=Priority' verbose || exit 1
	sides="mf hmrf"
else
	start hmrf priority/hmrf $'DebugFlags=Priority' verbose || exit 1
	start_other || exit 1
	sides="hmrf mf"
fi
# The queue, CHUNK jobs at a time to each side in turn, so that neither
# side's jobs are all older than the other's.  It does not make the order
# of the clusters fair by itself (hence both orders, BENCH_ORDERS): with
# the whole queue submitted to one cluster and then to the other, the
# same plugin recalculated 10,000 jobs of 100 accounts in 4.7 ms when its
# cluster came first and 2.7 when second (two runs); queued in turns, a
# build came out 1.25 times a like one when first and 1.00 when second.
# Each side's rate is its jobs over the time its chunks took.
CHUNK=${BENCH_CHUNK:-1000}
echo "  queueing $JOBS on each side, $CHUNK at a time in turn ($sides)" >&2
for ((q = 0; q < JOBS; q += CHUNK)); do
	n=$((JOBS - q < CHUNK ? JOBS - q : CHUNK))
	for side in $sides; do
		t0=$(date +%s.%N)
		for ((i = q; i < q + n; i++)); do
			[ "$USERS" = 0 ] || printf '@%d ' $((100000 + i % ACCOUNTS % USERS))
			echo "hold acct$((i % ACCOUNTS)) $((1 + i % 16)) $((10 + i % 600)) - - true"
		done | SLURM_CONF=$(cat "$work/$side.conf") "$SUBMIT" >>"$work/$side.submit.log" 2>&1
		t1=$(date +%s.%N)
		echo "$n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >>"$work/$side.queue"
	done
done
for side in $sides; do
	awk '$1 == "submitted" { s += $2; f += $4; if ($4 > 0 && !first) first = $0 }
	END { printf "submitted %d failed %d\n", s, f; if (first) print "the first chunk that failed: " first }' "$work/$side.submit.log" >&2
	# A queue short of JOBS is not the one the figures would name.
	queued=$(awk '$1 == "submitted" { s += $2 } END { print s + 0 }' "$work/$side.submit.log")
	[ "$queued" -ge "$JOBS" ] || {
		echo "bench-priority-recalc: $queued of $JOBS jobs queued on the $side side; its submitter said:" >&2
		tail -n 5 "$work/$side.submit.log" >&2
		exit 1
	}
	echo "$(cat "$work/$side.pid") $(awk '{ n += $1; t += $2 } END { printf "%.0f", (t > 0 ? n / t : n) }' "$work/$side.queue")" >"$work/$side.start"
done
read -r hpid hrate <"$work/hmrf.start"
read -r mpid mrate <"$work/mf.start"
htid=$(plugin_thread "$hpid" hmrf)
mtid=$(plugin_thread "$mpid" "$other_thread")
[ -n "$htid" ] || { echo "bench-priority-recalc: no thread named hmrf in slurmctld $hpid" >&2; exit 1; }
[ -n "$mtid" ] || { echo "bench-priority-recalc: no thread named $other_thread in slurmctld $mpid" >&2; exit 1; }

# The lock probes, when perf and uprobes are there.
lockwhy=
bin=$(readlink -f "${HC_SBIN:-/usr/sbin}/slurmctld")
if ! command -v perf >/dev/null; then
	lockwhy="perf is not installed (linux-perf)"
else
	[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	perf probe -q -d 'horae_bench:*' >/dev/null 2>&1
	if perf probe -q -x "$bin" --add 'horae_bench:locked=lock_slurmctld%return' >"$work/probe.log" 2>&1 &&
	   perf probe -q -x "$bin" --add 'horae_bench:unlocking=unlock_slurmctld' >>"$work/probe.log" 2>&1; then
		probes=1
		# The job lock's level (x86-64 only: see the header).
		levels=
		[ "$(uname -m)" = x86_64 ] &&
			perf probe -q -x "$bin" --add 'horae_bench:locking=lock_slurmctld job=+12(%sp):u32' >>"$work/probe.log" 2>&1 &&
			levels="-e horae_bench:locking"
	else
		lockwhy="no uprobes on $bin: $(tail -1 "$work/probe.log")"
	fi
fi

echo "  sampling both plugins' threads for ${WINDOW} s (hmrf $htid in $hpid, $other's $other_thread $mtid in $mpid)" >&2
hskip=$(wc -l <"$(cat "$work/hmrf.log")")
mskip=$(wc -l <"$(cat "$work/mf.log")")
if [ -n "$probes" ]; then
	perf record -q -e horae_bench:locked__return -e horae_bench:unlocking $levels \
		-t "$htid,$mtid" -o "$work/locks.data" -- sleep "$WINDOW" \
		>"$work/perf.log" 2>&1 &
	perfpid=$!
fi
sample "$hpid" "$htid" "$WINDOW" >"$work/hmrf.samples" &
hs=$!
sample "$mpid" "$mtid" "$WINDOW" >"$work/mf.samples" &
ms=$!
wait "$hs" "$ms"
if [ -n "$probes" ]; then
	wait "$perfpid"
	perf script -i "$work/locks.data" -F tid,time,event,trace >"$work/locks.txt" 2>>"$work/perf.log"
fi

spans <"$work/hmrf.samples" >"$work/hmrf.spans"
spans <"$work/mf.samples" >"$work/mf.spans"
# One order of two (BENCH_ORDERS=both): what the pooled figures need.
KEEP=${BENCH_KEEP:-}
if [ -n "$KEEP" ]; then
	for side in hmrf mf; do
		cut -d' ' -f3 "$work/$side.spans" >"$KEEP/$side.cpu"
		cut -d' ' -f2 "$work/$side.start" >"$KEEP/$side.rate"
	done
	if [ -n "$probes" ]; then
		holds "$htid" <"$work/locks.txt" >"$KEEP/hmrf.holds"
		holds "$mtid" <"$work/locks.txt" >"$KEEP/mf.holds"
	fi
fi
read -r hn hmin hq1 hmed hq3 hmax hmean < <(cut -d' ' -f3 "$work/hmrf.spans" | stats)
read -r mn mmin mq1 mmed mq3 mmax mmean < <(cut -d' ' -f3 "$work/mf.spans" | stats)
echo "$JOBS pending jobs of $ACCOUNTS accounts, both plugins at once over ${WINDOW} s, recalculating every $PERIOD s"
if [ -n "$history" ]; then
	echo "hmrf's accounts start with $HISTORY days of usage in its saved state ($(stat -c %s "$history/horae_hmrf.state") bytes)"
else
	echo "hmrf's accounts start with no usage (BENCH_HISTORY=DAYS gives them some)"
fi
if [ "$USERS" != 0 ]; then
	echo "PrivateData=usage, the jobs of $USERS users (hmrf publishes each one's views)"
fi
echo "CPU ms per full recalculation (q1, q3: quartiles)"
printf "$fmt" plugin submit/s cycles min q1 median q3 max mean
printf "$fmt" priority/hmrf "$hrate" "$hn" "$hmin" "$hq1" "$hmed" "$hq3" "$hmax" "$hmean"
printf "$fmt" "$other" "$mrate" "$mn" "$mmin" "$mq1" "$mmed" "$mq3" "$mmax" "$mmean"
ratios "CPU per recalculation" "$hmed" "$mmed" "$hmean" "$mmean"
# The two sides' recalculations, when they come at the same time, share
# the machine's caches and memory: both are dearer then.  Their phases
# follow when each slurmctld started, so how many do is chance; those
# that did not, apart.
read -r an amin aq1 amed aq3 amax amean < <(apart "$work/hmrf.spans" "$work/mf.spans" | stats)
read -r bn bmin bq1 bmed bq3 bmax bmean < <(apart "$work/mf.spans" "$work/hmrf.spans" | stats)
echo "CPU ms per recalculation run apart from the other side's (overlapping within the sampling: hmrf $((hn - an)) of $hn, $short $((mn - bn)) of $mn)"
printf "$fmt" plugin '' cycles min q1 median q3 max mean
printf "$fmt" priority/hmrf '' "$an" "$amin" "$aq1" "$amed" "$aq3" "$amax" "$amean"
printf "$fmt" "$other" '' "$bn" "$bmin" "$bq1" "$bmed" "$bq3" "$bmax" "$bmean"
awk -v h="$amed" -v m="$bmed" -v o="$short" -v a="$an" -v b="$bn" 'BEGIN { if (h > 0 && m > 0) printf "ratio hmrf/%s, median CPU per recalculation run apart: %.2f%s\n", o, h / m, (a < 10 || b < 10) ? " (fewer than 10 a side)" : "" }'
if [ -n "$probes" ]; then
	lock_table <(holds "$htid" <"$work/locks.txt") <(holds "$mtid" <"$work/locks.txt")
else
	echo "time under slurmctld's locks: not measured: $lockwhy"
fi
# hmrf's own account of its locks (DebugFlags=Priority): slurmctld's
# locks in all, then each hold, the books' closing (assoc_mgr's locks
# alone), the ranking and the state's copy (the mutex alone) and its
# saving (no lock) apart, when the log gives them.
# own KEY: from $took, the stats of the field KEY=usec, in ms.
own()
{
	sed -n "s/.*$1=\\([0-9]*\\).*/\\1/p" "$took" | awk '{ print $1 / 1e3 }' | stats
}
# own_log NAME SKIP WHO: the medians of side NAME's log lines after the
# first SKIP, said of WHO.
own_log()
{
	local gn gmed wmed cmed rn rmed pmed smed
	took=$work/$1.took
	tail -n +"$(($2 + 1))" "$(cat "$work/$1.log")" | grep 'recalculation took' >"$took"
	own 'took usec' | {
		read -r n min _ med _ max _
		[ "$n" = 0 ] || echo "$3's own log: slurmctld's locks held min $min ms, median $med ms, max $max ms ($n recalculations)"
	}
	read -r gn _ _ gmed _ _ _ < <(own 'gather usec')
	read -r _ _ _ wmed _ _ _ < <(own 'write usec')
	read -r _ _ _ cmed _ _ _ < <(own 'closed in usec')
	read -r rn _ _ rmed _ _ _ < <(own 'ranked in usec')
	read -r _ _ _ pmed _ _ _ < <(own 'copied in usec')
	read -r _ _ _ smed _ _ _ < <(own 'published in usec')
	[ "$gn" = 0 ] || echo "$3's own log, medians: gather $gmed ms, write $wmed ms (slurmctld's locks); the books' closing $cmed ms (assoc_mgr's locks alone)"
	[ "$rn" = 0 ] || echo "$3's own log, medians: ranking $rmed ms, the state copied $pmed ms (the plugin's mutex alone); saved and published $smed ms (no lock)"
}
own_log hmrf "$hskip" hmrf
[ -z "$BASELINE" ] || own_log mf "$mskip" "the baseline hmrf"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
