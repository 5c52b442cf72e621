#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-select-cycle: the cost of select/eunomia on slurmctld's scheduling
# cycles, next to plain select/cons_tres, in the same run on the same
# queue, for every Placement (first-fit, best-fit, affinity, rpsdsf,
# eunomia with its speed map): JOBS pending jobs over NODES nodes (slurmd
# daemons on this machine, one per node), the nodes kept partly busy so
# that every cycle works; the main scheduler runs every 2 s
# (sched_interval=2) and backfill every 5 s, so that 120 s hold some 50
# main and 20 backfill cycles per side.  Sampling begins once the jobs
# running have stayed the same for BENCH_SETTLE seconds (10; at most 300
# s of waiting), so that no cycle sampled is one that starts the jobs
# that fit; the jobs running when it began and when it ended are
# printed per pass.  Each cycle is a sample: sdiag is read every
# second, and a "Last cycle" is taken whenever the cycle count went up by
# one since the last reading (two or more cycles between readings are
# counted, not sampled).  Prints, for the main scheduler and backfill,
# the cycles sampled and their quartiles and median (us), and each
# Placement's median over cons_tres's.
#
# A cycle's time is mostly cons_tres's tests of jobs that cannot start
# on the nodes as the first cycles left them, so a Placement's ratio
# measures what its placements left as much as what its code costs.  Two
# figures tell them apart: the side "pass-through" (select/eunomia with
# Placement=cons_tres: every call passed down, nothing steered), whose
# ratio is the wrapper's cost alone; and, with perf, the share of
# slurmctld's CPU samples (perf record -F 499 during the sampling, no
# call graph) in select_eunomia.so's own code (the core linked in
# included; what it calls in libc or libslurm not).  The jobs running
# when the sampling ends are counted per side: they show how far the
# placements left the sides apart.
#
# The sides run one at a time (each its own cluster), in PASSES passes of
# SECONDS/PASSES each, every other one in the reverse order (cons_tres,
# first-fit, ..., eunomia, then eunomia, ..., cons_tres, and so on), and
# each side's figures pool all passes: a machine that drifts over the run
# weighs on every side about alike.  Each pass's medians are printed too,
# so that the drift shows, and each side's ratio is also taken pass by
# pass against cons_tres's in the same pass, with the median and range of
# those ratios: how far one pass's ratio strays is the noise a pooled
# ratio sits in.  (Two passes of 60 s put cons_tres's own main cycle at
# 10.2 and 8.3 ms: one pass's figure is not a measurement.)
#
#   bench-select-cycle.sh [JOBS [NODES [SECONDS]]]     (5000 64 120)
#
# BENCH_PASSES=N: how many passes (4; at least 2).
# BENCH_SIDES="NAME ...": those sides only, in that order (all seven; a
# ratio needs cons_tres among them).
# BENCH_SETTLE=SECONDS: how long the jobs running must stay the same
# before sampling begins (10; 0 samples at once).
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
# Prints figures; asserts nothing.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-5000}
NODES=${2:-64}
RUN=${3:-120}
[ "$(id -u)" = 0 ] || { echo "bench-select-cycle: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"
. "$HERE/bench/cycles.sh"

dir=
perfpid=
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
work=
perfok=
command -v perf >/dev/null 2>&1 && perfok=1

# "OWN TOTAL": perf samples in select_eunomia.so's own code, and in all.
_own_samples()
{
	perf report -i "$1" --no-children --sort dso --stdio -g none \
		--show-nr-samples 2>/dev/null |
		awk '!/^#/ && $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { t += $2
			if ($3 == "select_eunomia.so") e += $2 }
		     END { printf "%d %d\n", e, t }'
}

# Wait for the first cycles to start what fits, and for the jobs they
# start to be up: sampling begins once the jobs running have stayed the
# same for SETTLE seconds (at most 300 s), so that every cycle sampled
# works on the same queue and the same nodes, with no job starting on
# the machine meanwhile.
_settle()
{
	local same=0 prev=-1 n end=$((SECONDS + 300))
	while :; do
		n=$(squeue -h -t R -o %i 2>/dev/null | wc -l)
		if [ "$n" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$n
		[ "$same" -lt "$SETTLE" ] && [ $SECONDS -lt $end ] || break
		sleep 1
	done
	echo "$n"
}

run()
{
	local select=$1 econf=$2 i
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	HC_NODES=$(for ((i = 1; i <= NODES; i++)); do
		echo "c$i $((16 + 16 * (i % 4))) $((32000 + 32000 * (i % 3))) gen$((1 + i % 4))"; done) \
	HC_SELECT=$select HC_EUNOMIA_CONF=$econf HC_JOBSUBMIT=none \
	HC_EXTRA_CONF=$'SchedulerParameters=batch_sched_delay=0,sched_interval=2,bf_interval=5,bf_max_job_test=1000,default_queue_depth=1000\nMaxJobCount=100000' \
	HC_HMRF_CONF=$'Period=30s' \
		hc_start >/dev/null 2>&1 || { echo "cluster for $select did not start" >&2; return 1; }
	# Keep every node partly busy with long jobs, then queue JOBS more.
	for ((i = 1; i <= NODES; i++)); do
		sbatch -Q -A fill -w "c$i" -n 12 -t 60 -o /dev/null --wrap 'sleep 3600' >/dev/null
	done
	for ((i = 0; i < JOBS; i++)); do
		echo "- acct$((i % 50)) $((1 + i % 48)) $((5 + i % 120)) $((1000 * (1 + i % 8))) - sleep 600"
	done | "$SUBMIT" >&2
	started=$(_settle)
	sdiag -r >/dev/null 2>&1
	own="0 0"
	if [ -n "$perfok" ]; then
		perf record -q -F 499 -o "$dir/perf.data" \
			-p "$(cat "$HC_RUNDIR/pids/slurmctld.pid")" \
			-- sleep "$PASS" >/dev/null 2>&1 &
		perfpid=$!
	fi
	cycles_samples "$PASS" >"$dir/cycles"
	if [ -n "$perfpid" ]; then
		wait "$perfpid"
		perfpid=
		own=$(_own_samples "$dir/perf.data")
	fi
	running=$(squeue -h -t R -o %i 2>/dev/null | wc -l)
	cat "$dir/cycles" >>"$work/$3.cycles"
	read -r mn _ mmed _ < <(cycles_quartiles main <"$dir/cycles")
	read -r bn _ bmed _ < <(cycles_quartiles bf <"$dir/cycles")
	printf "$pfmt" "$4" "$3" "$mn" "$mmed" "$bn" "$bmed" "$started" "$running" >&2
	echo "$4 $3 $mn $mmed $bn $bmed $running $own $started" >>"$work/passes"
	hc_stop
	rm -rf "$dir"
	dir=
}

# side NAME: its select plugin and eunomia.conf, as "select conf".
side()
{
	case $1 in
	cons_tres) echo "select/cons_tres" ;;
	pass-through) echo "select/eunomia Placement=cons_tres" ;;
	eunomia) echo "select/eunomia Placement=eunomia SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3" ;;
	*) echo "select/eunomia Placement=$1" ;;
	esac
}

declare -A MAIN BF
SIDES=(${BENCH_SIDES:-cons_tres pass-through first-fit best-fit affinity rpsdsf eunomia})
for name in "${SIDES[@]}"; do
	case " cons_tres pass-through first-fit best-fit affinity rpsdsf eunomia " in
	*" $name "*) ;;
	*) echo "bench-select-cycle: BENCH_SIDES: no side '$name' (cons_tres pass-through first-fit best-fit affinity rpsdsf eunomia)" >&2
		exit 2 ;;
	esac
done
PASSES=${BENCH_PASSES:-4}
case $PASSES in '' | *[!0-9]* | 0 | 1)
	echo "bench-select-cycle: BENCH_PASSES is a whole number of 2 or more, not '$PASSES'" >&2
	exit 2 ;;
esac
PASS=$(((RUN + PASSES - 1) / PASSES))
SETTLE=${BENCH_SETTLE:-10}
case $SETTLE in '' | *[!0-9]*)
	echo "bench-select-cycle: BENCH_SETTLE is a whole number of seconds, not '$SETTLE'" >&2
	exit 2 ;;
esac
work=$(mktemp -d /tmp/horae-bench-select.XXXXXX)
: >"$work/passes"
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"; rm -rf "$work"' EXIT
fmt='%-22s %6s %8s %8s %8s   %6s %8s %8s %8s\n'
pfmt='%-6s %-16s %6s %8s   %6s %8s   %6s %6s\n'
echo "  each pass: side, main cycles and median (us), backfill cycles and median (us), jobs running when its sampling began and ended" >&2
for ((pass = 1; pass <= PASSES; pass++)); do
	order=("${SIDES[@]}")
	if [ $((pass % 2)) = 0 ]; then
		order=()
		for ((i = ${#SIDES[@]} - 1; i >= 0; i--)); do
			order+=("${SIDES[i]}")
		done
	fi
	for name in "${order[@]}"; do
		read -r sel conf < <(side "$name")
		run "$sel" "$conf" "$name" "pass$pass"
	done
done
echo "$JOBS queued jobs over $NODES nodes, $((PASS * PASSES)) s of scheduling each in $PASSES passes of ${PASS} s (every other one in reverse order): cycles sampled and their time (us)"
printf "$fmt" select main q1 median q3 bf q1 median q3
for name in "${SIDES[@]}"; do
	f=$work/$name.cycles
	touch "$f"
	read -r mn mq1 mmed mq3 < <(cycles_quartiles main <"$f")
	read -r bn bq1 bmed bq3 < <(cycles_quartiles bf <"$f")
	printf "$fmt" "$name" "$mn" "$mq1" "$mmed" "$mq3" "$bn" "$bq1" "$bmed" "$bq3"
	MAIN[$name]=$mmed BF[$name]=$bmed
done
echo "medians of each pass (us): side, then each pass's main and backfill"
for name in "${SIDES[@]}"; do
	awk -v s="$name" -v np="$PASSES" '$2 == s { m[$1] = $4; b[$1] = $6 }
		END { printf "%-22s", s
		      for (k = 1; k <= np; k++)
			      printf " %8s %8s  ", m["pass" k], b["pass" k]
		      printf "\n" }' "$work/passes"
done
echo "jobs running when each pass's sampling ended, and select/eunomia's own code as a share of slurmctld's CPU samples (all passes)"
for name in "${SIDES[@]}"; do
	awk -v s="$name" -v perf="$perfok" -v np="$PASSES" '$2 == s { r[$1] = $7; e += $8; t += $9 }
		END { printf "%-22s", s
		      for (k = 1; k <= np; k++)
			      printf " %6s", r["pass" k]
		      printf "   %s\n", !perf ? "- (no perf)" : t ? sprintf("%.2f%% of %d samples", 100 * e / t, t) : "- (no samples)" }' "$work/passes"
done
for p in pass-through first-fit best-fit affinity rpsdsf eunomia; do
	awk -v p="$p" -v a="${MAIN[$p]:--}" -v b="${MAIN[cons_tres]:--}" \
	    -v c="${BF[$p]:--}" -v d="${BF[cons_tres]:--}" 'BEGIN {
		printf "ratio eunomia (%s) / cons_tres, median cycle: main %s, backfill %s\n", p,
		       (a + 0 > 0 && b + 0 > 0) ? sprintf("%.2f", a / b) : "-",
		       (c + 0 > 0 && d + 0 > 0) ? sprintf("%.2f", c / d) : "-" }'
done
echo "pass by pass against cons_tres in the same pass: median ratio (lowest-highest) over the passes"
for p in pass-through first-fit best-fit affinity rpsdsf eunomia; do
	awk -v p="$p" '
		$2 == "cons_tres" { cm[$1] = $4; cb[$1] = $6 }
		$2 == p { pm[$1] = $4; pb[$1] = $6 }
		# spread LIST N: "median (min-max)" of N ratios, sorted here
		function spread(v, n,   i, j, t) {
			if (!n) return "-"
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			return sprintf("%.2f (%.2f-%.2f)", n % 2 ? v[(n + 1) / 2] :
				       (v[n / 2] + v[n / 2 + 1]) / 2, v[1], v[n])
		}
		END {
			for (k in pm) if (pm[k] + 0 > 0 && cm[k] + 0 > 0) rm[++nm] = pm[k] / cm[k]
			for (k in pb) if (pb[k] + 0 > 0 && cb[k] + 0 > 0) rb[++nb] = pb[k] / cb[k]
			printf "ratio eunomia (%s) / cons_tres, per pass: main %s, backfill %s\n",
			       p, spread(rm, nm), spread(rb, nb) }' "$work/passes"
done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
