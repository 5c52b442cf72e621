#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-select-cycle: the cost of select/eunomia's placement steering on
# slurmctld's scheduling cycles, next to plain select/cons_tres, in the
# same run on the same queue, with Placement=best-fit and Placement=eunomia
# (progress accounting and steering): JOBS pending jobs over NODES nodes
# (slurmd daemons on this machine), the nodes kept busy so that every
# cycle works.
# Prints sdiag's main and backfill mean cycle times and their ratio.
#
#   bench-select-cycle.sh [JOBS [NODES [SECONDS]]]     (5000 64 90)
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
# Prints figures; asserts nothing.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-5000}
NODES=${2:-64}
RUN=${3:-90}
[ "$(id -u)" = 0 ] || { echo "bench-select-cycle: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR
. "$HERE/bench/submitter.sh"

dir=
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# sdiag's "Mean cycle" of the main scheduler and of backfill, in us.
cycles()
{
	sdiag | awk '
		/^Main schedule statistics/ { sec = "main" }
		/^Backfilling stats/ { sec = "bf" }
		/Mean cycle:/ { v[sec] = $3 }
		/Total cycles:/ { n[sec] = $3 }
		END { printf "%s %s %s %s\n", v["main"] + 0, n["main"] + 0, v["bf"] + 0, n["bf"] + 0 }'
}

run()
{
	local select=$1 econf=$2 i
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	HC_NODES=$(for ((i = 1; i <= NODES; i++)); do
		echo "c$i $((16 + 16 * (i % 4))) $((32000 + 32000 * (i % 3))) gen$((1 + i % 4))"; done) \
	HC_SELECT=$select HC_EUNOMIA_CONF=$econf HC_JOBSUBMIT=none \
	HC_EXTRA_CONF=$'SchedulerParameters=batch_sched_delay=0,bf_interval=5,bf_max_job_test=1000,default_queue_depth=1000\nMaxJobCount=100000' \
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
	sleep "$RUN"
	read -r main mainn bf bfn < <(cycles)
	printf '%-34s %14s %8s %14s %8s\n' "$select${econf:+ (${econf%% *})}" "$main" "$mainn" "$bf" "$bfn"
	eval "MAIN_${3}=$main BF_${3}=$bf"
	hc_stop
	rm -rf "$dir"
	dir=
}

echo "$JOBS queued jobs over $NODES nodes, ${RUN}s of scheduling: sdiag mean cycle (us) and cycles"
printf '%-34s %14s %8s %14s %8s\n' select main_mean_us cycles backfill_mean_us cycles
run select/cons_tres "" stock
run select/eunomia "Placement=best-fit" ours
run select/eunomia "Placement=eunomia SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3" eun
for p in ours:best-fit eun:eunomia; do
	eval "a=\${MAIN_${p%%:*}:-0} c=\${BF_${p%%:*}:-0}"
	awk -v a="$a" -v b="${MAIN_stock:-0}" -v c="$c" -v d="${BF_stock:-0}" -v p="${p#*:}" 'BEGIN {
		if (b > 0) printf "ratio eunomia (%s) / cons_tres, main cycle: %.2f\n", p, a / b
		if (d > 0) printf "ratio eunomia (%s) / cons_tres, backfill cycle: %.2f\n", p, c / d }'
done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo)"
