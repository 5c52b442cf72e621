#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-select-cycle: the cost of select/eunomia on slurmctld's scheduling
# cycles, next to plain select/cons_tres, in the same run on the same
# queue, for every Placement (first-fit, best-fit, affinity, rpsdsf,
# eunomia with its speed map): JOBS pending jobs over NODES nodes (slurmd
# daemons on this machine, one per node), the nodes kept partly busy so
# that every cycle works; the main scheduler runs every 2 s
# (sched_interval=2) and backfill every 5 s, so that 120 s hold some 50
# main and 20 backfill cycles per side.  Each cycle is a sample: sdiag is read every
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
# The sides run one at a time (each its own cluster), in two passes of
# SECONDS/2 each, the second in the reverse order of the first (cons_tres,
# first-fit, ..., eunomia, then eunomia, ..., cons_tres), and each side's
# figures pool both passes: a machine that drifts over the run weighs on
# every side about alike.  Each pass's medians are printed too, so that
# the drift shows.
#
#   bench-select-cycle.sh [JOBS [NODES [SECONDS]]]     (5000 64 120)
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
	printf "$pfmt" "$4" "$3" "$mn" "$mmed" "$bn" "$bmed" "$running" >&2
	echo "$4 $3 $mn $mmed $bn $bmed $running $own" >>"$work/passes"
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
SIDES=(cons_tres pass-through first-fit best-fit affinity rpsdsf eunomia)
PASS=$(((RUN + 1) / 2))
work=$(mktemp -d /tmp/horae-bench-select.XXXXXX)
: >"$work/passes"
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"; rm -rf "$work"' EXIT
fmt='%-22s %6s %8s %8s %8s   %6s %8s %8s %8s\n'
pfmt='%-6s %-16s %6s %8s   %6s %8s   %6s\n'
echo "  each pass: side, main cycles and median (us), backfill cycles and median (us), jobs running" >&2
for pass in 1 2; do
	order=("${SIDES[@]}")
	if [ "$pass" = 2 ]; then
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
echo "$JOBS queued jobs over $NODES nodes, ${RUN} s of scheduling each in two passes of ${PASS} s (the second in reverse order): cycles sampled and their time (us)"
printf "$fmt" select main q1 median q3 bf q1 median q3
for name in "${SIDES[@]}"; do
	f=$work/$name.cycles
	touch "$f"
	read -r mn mq1 mmed mq3 < <(cycles_quartiles main <"$f")
	read -r bn bq1 bmed bq3 < <(cycles_quartiles bf <"$f")
	printf "$fmt" "$name" "$mn" "$mq1" "$mmed" "$mq3" "$bn" "$bq1" "$bmed" "$bq3"
	MAIN[$name]=$mmed BF[$name]=$bmed
done
echo "medians of each pass (us): side, pass 1 main and backfill, pass 2 main and backfill"
for name in "${SIDES[@]}"; do
	awk -v s="$name" '$2 == s { m[$1] = $4; b[$1] = $6 }
		END { printf "%-22s %8s %8s   %8s %8s\n", s, m["pass1"], b["pass1"], m["pass2"], b["pass2"] }' "$work/passes"
done
echo "jobs running when each pass's sampling ended, and select/eunomia's own code as a share of slurmctld's CPU samples (both passes)"
for name in "${SIDES[@]}"; do
	awk -v s="$name" -v perf="$perfok" '$2 == s { r[$1] = $7; e += $8; t += $9 }
		END { printf "%-22s %8s %8s   %s\n", s, r["pass1"], r["pass2"],
			!perf ? "- (no perf)" : t ? sprintf("%.2f%% of %d samples", 100 * e / t, t) : "- (no samples)" }' "$work/passes"
done
for p in pass-through first-fit best-fit affinity rpsdsf eunomia; do
	awk -v p="$p" -v a="${MAIN[$p]:--}" -v b="${MAIN[cons_tres]:--}" \
	    -v c="${BF[$p]:--}" -v d="${BF[cons_tres]:--}" 'BEGIN {
		printf "ratio eunomia (%s) / cons_tres, median cycle: main %s, backfill %s\n", p,
		       (a + 0 > 0 && b + 0 > 0) ? sprintf("%.2f", a / b) : "-",
		       (c + 0 > 0 && d + 0 > 0) ? sprintf("%.2f", c / d) : "-" }'
done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
