#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0019: with slurmdbd, a site's usage limits and sshare work under
# priority/hmrf as under priority/multifactor, in the same run: each
# cluster (multifactor first, then hmrf) has an account `capped` with
# GrpTRESMins=cpu=2 (two CPU-minutes) on a node of 2 CPUs.  Two jobs of 2
# CPUs for 33 s each use 132 CPU-s (2.2 CPU-minutes); the limit lets both
# start (usage below it) and must hold the third, pending with
# AssocGrpCPUMinutesLimit.  sshare must show capped's raw usage close to
# what ran (measured: multifactor 133, hmrf 131 CPU-s of 132).  Under hmrf
# the association usage these read used to stay 0 (issue 20).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

RUN=33
dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# wait_state JOB STATE SECONDS
wait_state()
{
	local i
	for ((i = 0; i < $3 * 2; i++)); do
		[ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = "$2" ] && return 0
		[ "$2" = GONE ] && [ -z "$(squeue -h -j "$1" -o %T 2>/dev/null)" ] &&
			return 0
		sleep 0.5
	done
	return 1
}

# run PRIORITY: one cluster, the three jobs, the checks.
run()
{
	local prio=$1 name=${1#priority/} j1 j2 j3 reason raw mins
	dirs+=("$(tap_rundir "t0019-$name")")
	hc_init "${dirs[-1]}" || return 1
	HC_ACCOUNTING=1 HC_ACCOUNTS="capped:1" HC_NODES="n1 2 2000" \
	HC_PRIORITY=$prio HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_EXTRA_CONF=$'AccountingStorageEnforce=associations,limits\nPriorityCalcPeriod=1' \
	HC_HMRF_CONF=$'Period=1s' \
		hc_start || { tap_ok "$name: a cluster with slurmdbd started" 1; hc_stop; return 1; }
	tap_ok "$name: a cluster with slurmdbd started" 0
	sacctmgr -i -Q modify account capped set GrpTRESMins=cpu=2 >/dev/null
	tap_ok "$name: sacctmgr set capped's GrpTRESMins=cpu=2" $?
	sleep 2 # slurmctld hears of it from slurmdbd
	j1=$(sbatch --parsable -A capped -n 2 -t 1 -o /dev/null --wrap "sleep $RUN")
	wait_state "$j1" GONE $((RUN + 30))
	tap_ok "$name: job 1 (2 CPUs, ${RUN} s) ran and ended" $?
	j2=$(sbatch --parsable -A capped -n 2 -t 1 -o /dev/null --wrap "sleep $RUN")
	wait_state "$j2" GONE $((RUN + 30))
	tap_ok "$name: job 2 started below the limit, ran and ended" $?
	j3=$(sbatch --parsable -A capped -n 1 -t 1 -o /dev/null --wrap "sleep 1")
	sleep 5
	reason=$(squeue -h -j "$j3" -o "%T %r" 2>/dev/null)
	tap_diag "$name: job 3: $reason"
	[ "$reason" = "PENDING AssocGrpCPUMinutesLimit" ]
	tap_ok "$name: job 3 is held by the limit ($reason)" $?
	raw=$(sshare -h -n -P -A capped -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /capped/ { print $2; exit }')
	tap_diag "$name: sshare -l: $(sshare -l -P -A capped 2>&1 | tr '\n' ' ')"
	echo "t0019 $name: job 3 '$reason', RawUsage $raw" >&2
	awk -v r="${raw:-0}" -v want=$((2 * 2 * RUN)) \
		'BEGIN { exit !(r >= 0.9 * want && r <= 1.3 * want) }'
	tap_ok "$name: sshare's RawUsage of capped is what ran ($raw CPU-s; $((4 * RUN)) ran)" $?
	scancel "$j3" 2>/dev/null
	hc_stop
}

run priority/multifactor
run priority/hmrf
tap_done
