#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0020: DRFH's Fig. 1 in integers on a real cluster.  Node na has 10 CPUs
# and 60 GB, node nb 60 CPUs and 10 GB; account a1's jobs take 1 CPU and
# 5 GB, a2's 5 CPUs and 1 GB; both keep 15 jobs waiting.  With
# select/eunomia's best-fit placement 10 + 10 jobs run at once (a1's on
# na, a2's on nb); the test prints what plain select/cons_tres runs on the
# same queue.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# run SELECT EUNOMIA_CONF [PRIORITY]: start the queue; sets RUN1 and RUN2.
run()
{
	local i n last=-1 same=0
	dirs+=("$(tap_rundir t0020)")
	hc_init "${dirs[-1]}" || return 1
	HC_NODES=$'na 10 60000\nnb 60 10000' HC_SELECT=$1 HC_EUNOMIA_CONF=$2 \
	HC_PRIORITY=${3:-} \
	HC_EXTRA_CONF=$'PartitionName=p1 Nodes=ALL State=UP\nPartitionName=p2 Nodes=ALL State=UP' \
	HC_HMRF_CONF=$'Period=1s' hc_start || return 1
	scontrol update nodename=na,nb state=drain reason=filling-the-queue
	for ((i = 0; i < 15; i++)); do
		sbatch -Q -A a1 -p p1 -N1 -n1 --mem=5000 -t 5 -o /dev/null --wrap 'sleep 120'
		sbatch -Q -A a2 -p p2 -N1 -n1 -c5 --mem=1000 -t 5 -o /dev/null --wrap 'sleep 120'
	done
	sleep 2
	hc_undrain na,nb
	for _ in $(seq 60); do
		n=$(squeue -h -t R -o %i | wc -l)
		[ "$n" = "$last" ] && [ "$n" -gt 0 ] && same=$((same + 1)) || same=0
		[ $same -ge 4 ] && break
		last=$n
		sleep 0.5
	done
	RUN1=$(squeue -h -t R -A a1 -o %i | wc -l)
	RUN2=$(squeue -h -t R -A a2 -o %i | wc -l)
	PLACE="a1 on $(squeue -h -t R -A a1 -o %N | sort | uniq -c | tr -s ' \n' ' ')/ a2 on $(squeue -h -t R -A a2 -o %N | sort | uniq -c | tr -s ' \n' ' ')"
	hc_stop
}

run select/eunomia "Placement=best-fit"
tap_ok "select/eunomia best-fit: the queue ran" $?
tap_diag "best-fit: $RUN1 + $RUN2 jobs running ($PLACE)"
echo "t0020: best-fit $RUN1 + $RUN2 ($PLACE)" >&2
tap_ok "best-fit runs 10 + 10 jobs at once ($RUN1 + $RUN2)" \
	$([ "$RUN1" = 10 ] && [ "$RUN2" = 10 ]; echo $?)
grep -q "select/eunomia: placement best-fit over select/cons_tres" \
	"${dirs[-1]}/log/slurmctld.log"
tap_ok "select/eunomia says it places by best-fit" $?

# Placement only, beside a stock priority plugin.
run select/eunomia "Placement=best-fit" priority/multifactor
tap_ok "select/eunomia beside priority/multifactor: the queue ran" $?
tap_diag "best-fit with multifactor: $RUN1 + $RUN2 jobs running ($PLACE)"
tap_ok "best-fit runs 10 + 10 jobs beside priority/multifactor too ($RUN1 + $RUN2)" \
	$([ "$RUN1" = 10 ] && [ "$RUN2" = 10 ]; echo $?)

run select/cons_tres ""
tap_ok "plain select/cons_tres: the queue ran" $?
tap_diag "cons_tres: $RUN1 + $RUN2 jobs running ($PLACE)"
echo "t0020: cons_tres $RUN1 + $RUN2 ($PLACE)" >&2

# A bad eunomia.conf stops slurmctld at start, naming file and line.
dirs+=("$(tap_rundir t0020)")
hc_init "${dirs[-1]}" || exit 1
HC_NODES="n1 2 2000" HC_EUNOMIA_CONF=$'# placement\nPlacement=random' \
	hc_start 2>/dev/null
tap_ok "a bad eunomia.conf stops slurmctld" $(hc_ctld_alive && echo 1 || echo 0)
grep -q "fatal: select/eunomia: ${dirs[-1]}/eunomia.conf:2: Placement=random: unknown placement 'random'" \
	"${dirs[-1]}/log/slurmctld.log"
tap_ok "and its log names file, line and problem" $? \
	"$(grep -i eunomia "${dirs[-1]}/log/slurmctld.log" | tail -2)"
hc_stop
tap_done
