#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-submit: sbatch throughput with job_submit/justice and without a
# job_submit plugin, in the same run: JOBS deadline jobs (--deadline a day
# away, -t 10) submitted by 4 sbatch loops at once to a 4-node cluster
# whose nodes are drained (nothing starts; every job goes through the
# plugin and stays queued).  Justice is given a history first (its
# Bootstrap=0 and two finished jobs), so each submission runs its full
# estimate.  Prints jobs/s for both and the ratio; asserts nothing.
#
#   bench-submit.sh [JOBS]          (2000)
#
# Needs root and HORAE_PLUGINDIR (contribs/horae-build prints it).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/cluster.sh"
JOBS=${1:-2000}
LOOPS=4
[ "$(id -u)" = 0 ] || { echo "bench-submit: needs root" >&2; exit 2; }
[ -n "${HORAE_PLUGINDIR:-}" ] || HORAE_PLUGINDIR=$("$HERE/../contribs/horae-build") || exit 1
export HORAE_PLUGINDIR

dir=
trap 'hc_stop; [ -n "$dir" ] && rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# run JOBSUBMIT: sets RESULT to "jobs/s queued seconds".
run()
{
	local js=$1 t0 t1 l per=$((JOBS / LOOPS)) n pids=()
	dir=$(mktemp -d /tmp/horae-bench.XXXXXX)
	hc_init "$dir" || return 1
	HC_NODES=$'n1 4 4000\nn2 4 4000\nn3 4 4000\nn4 4 4000' \
	HC_JOBSUBMIT=$js HC_JUSTICE_CONF=$'Bootstrap=0\nPeriod=1s' \
	HC_EXTRA_CONF='MaxJobCount=100000' hc_start >&2 || return 1
	cd "$dir" || return 1
	if [ "$js" = justice ]; then
		# Two finished deadline jobs: Justice estimates from now on.
		for _ in 1 2; do
			sbatch -Q -n1 -t UNLIMITED --deadline=now+600 -o /dev/null \
				--wrap 'sleep 1'
		done
		hc_wait_jobs_done 60
		sleep 3
	fi
	scontrol update nodename=ALL state=drain reason=bench
	t0=$(date +%s.%N)
	for ((l = 0; l < LOOPS; l++)); do
		(for ((i = 0; i < per; i++)); do
			sbatch -Q -n1 -t 10 --deadline=now+1day -o /dev/null \
				--wrap true
		done) &
		pids+=($!)
	done
	wait "${pids[@]}" # not the daemons hc_start left in the background
	t1=$(date +%s.%N)
	n=$(squeue -h -o %i | wc -l)
	RESULT=$(awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f %d %.1f\n", n / (b - a), n, b - a }')
	cd / && hc_stop >&2
	rm -rf "$dir"
	dir=
}

# Not in a subshell: the EXIT trap must see the cluster to stop it.
run justice || exit 1
read -r with nw tw <<<"$RESULT"
run none || exit 1
read -r without no to <<<"$RESULT"
echo "sbatch throughput, $JOBS deadline jobs by $LOOPS concurrent sbatch loops, $(nproc) CPUs:"
printf '  %-28s %8s jobs/s  (%d queued in %s s)\n' "job_submit/justice" "$with" "$nw" "$tw"
printf '  %-28s %8s jobs/s  (%d queued in %s s)\n' "no job_submit plugin" "$without" "$no" "$to"
awk -v a="$with" -v b="$without" 'BEGIN { printf "  ratio justice / none: %.2f\n", a / b }'
