#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-all: run every benchmark and write their figures, with the machine
# they ran on, to doc/benchmarks.md (what `make bench` does).  Each
# benchmark compares side by side in one run (ours against the stock
# Slurm plugin, or each policy); this script only collects what they print.
# doc/benchmarks.md holds the last full run and nothing else: the dated
# runs, profiles and analyses of single benchmarks are kept by hand in
# doc/benchmarks-history.md, which this script never writes.
#
#   bench-all.sh [--quick]
#
# --quick: the core and simulator benchmarks only (no daemons, no root),
# and the report goes to standard output, so that a quick run never
# replaces the last full one.  BENCH_OUT=FILE: write the report there
# instead.  Otherwise, as root, also the real-slurmctld ones:
#   bench-priority-recalc.sh 10000 100, 50000 1000 and  (priority/hmrf vs
#                            100000 1000                multifactor, both
#                                                        at once, 12 min each
#                                                        in two runs, each
#                                                        side first once)
#   BENCH_HISTORY=7 bench-priority-recalc.sh 50000 1000 (the same, hmrf's
#                                                        accounts with a
#                                                        week of usage)
#   bench-select-cycle.sh 5000 64 120                   (select/eunomia vs
#                                                        cons_tres, every
#                                                        Placement)
#   bench-eunomia-constrained.sh 3                      (Eunomia with and
#                                                        without pinned
#                                                        jobs blocking, and
#                                                        off; 25 minutes)
#   bench-submit.sh 5000                                (job_submit/justice
#                                                        vs none)
#   bench-scale.sh 100000 256 1000                      (Horae's three
#                                                        plugins vs stock,
#                                                        both clusters up
#                                                        at once: sbatch,
#                                                        squeue, sprio,
#                                                        sdiag, RSS)
# The full run takes about two and a half hours on a 2-core machine; run
# it alone.
set -uo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
build=${HORAE_BUILDDIR:-$HERE/build}
quick=
[ "${1:-}" = --quick ] && quick=1
out=${BENCH_OUT:-$HERE/doc/benchmarks.md}
[ -n "$quick" ] && out=${BENCH_OUT:-/dev/stdout}
# The plugins and commands measured are the ones built now: installed
# afresh into $build/stage, as contribs/horae-build does (a stage left
# from an earlier build would measure old code).
if [ -f "$build/config.status" ]; then
	make -s -C "$build" >/dev/null || exit 1
	rm -rf "$build/stage"
	make -s -C "$build" install DESTDIR="$build/stage" >/dev/null || exit 1
else
	"$HERE/contribs/horae-build" >/dev/null || exit 1
fi
make -s -C "$build/testsuite" bench/bench_rank bench/bench_submit bench/bench_cold bench/bench_state >/dev/null || exit 1
export HORAE_BENCH_SUBMIT=$build/testsuite/bench/bench_submit
export HORAE_PLUGINDIR=${HORAE_PLUGINDIR:-$build/stage$(make -s --no-print-directory -C "$build/src/plugins" print-plugindir)}
export HORAE_BINDIR=${HORAE_BINDIR:-$build/stage/usr/local/bin}
commit=$(git -C "$HERE" describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)

tmp=$(mktemp -d /tmp/horae-bench-all.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# section TITLE COMMAND...: run it, keep its output for the report.
n=0
section()
{
	local title=$1 t0 rc
	shift
	n=$((n + 1))
	echo "bench-all: $title" >&2
	t0=$SECONDS
	"$@" >"$tmp/$n.out" 2>&1
	rc=$?
	{
		echo "## $title"
		echo
		# the command as run from the top of the checkout
		echo "\`$(echo "$*" | sed "s|$build/|build/|g; s|$HERE/||g")\` (exit $rc, $((SECONDS - t0)) s)"
		echo
		echo '```'
		grep -v '^horae-\(deps\|build\):' "$tmp/$n.out"
		echo '```'
		echo
	} >>"$tmp/report.md"
}

section "The machine: reading memory that sat idle (bench_cold)" \
	"$build/testsuite/bench/bench_cold"
# Its files on tmpfs: on an ext4 without a journal, as /tmp is on some
# machines, creating them costs more the more were removed in the last
# minutes, and the figures drift from one round to the next.
section "Core: ranking, windows, state, views; files in /dev/shm (bench_rank)" \
	env TMPDIR=/dev/shm "$build/testsuite/bench/bench_rank"
section "Simulator: 1,000,000 tasks on 2,000 nodes per policy" \
	bash "$HERE/testsuite/bench/bench-sim.sh"
if [ -z "$quick" ]; then
	if [ "$(id -u)" = 0 ]; then
		section "priority/hmrf vs priority/multifactor: 10,000 jobs, 100 accounts" \
			bash "$HERE/testsuite/bench/bench-priority-recalc.sh" 10000 100
		section "priority/hmrf vs priority/multifactor: 50,000 jobs, 1,000 accounts" \
			bash "$HERE/testsuite/bench/bench-priority-recalc.sh" 50000 1000
		section "priority/hmrf vs priority/multifactor: 50,000 jobs, 1,000 accounts with a week of usage" \
			env BENCH_HISTORY=7 bash "$HERE/testsuite/bench/bench-priority-recalc.sh" 50000 1000
		section "priority/hmrf vs priority/multifactor: 100,000 jobs, 1,000 accounts" \
			bash "$HERE/testsuite/bench/bench-priority-recalc.sh" 100000 1000
		section "select/eunomia vs select/cons_tres: sdiag cycles, 5,000 jobs, 64 nodes" \
			bash "$HERE/testsuite/bench/bench-select-cycle.sh" 5000 64 120
		section "Eunomia under placement constraints: progress per second and shares" \
			bash "$HERE/testsuite/bench/bench-eunomia-constrained.sh" 3
		section "job_submit/justice vs no job_submit plugin: 5,000 submissions" \
			bash "$HERE/testsuite/bench/bench-submit.sh" 5000
		section "A slurmctld at scale: 100,000 pending jobs on 256 nodes, Horae against stock" \
			bash "$HERE/testsuite/bench/bench-scale.sh" 100000 256 1000
	else
		echo "bench-all: not root: the real-slurmctld benchmarks are left out" >&2
	fi
fi

{
	echo "# Benchmarks"
	echo
	echo "Written by \`testsuite/bench/bench-all.sh${quick:+ --quick}\` (\`make bench\`) on"
	case $commit in
	*-dirty) echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit ${commit%-dirty} with changes not committed." ;;
	*) echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit." ;;
	esac
	echo
	echo "| machine | |"
	echo "|---|---|"
	echo "| CPU | $(nproc) x $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo) |"
	echo "| memory | $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |"
	echo "| system | $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r) |"
	echo "| Slurm | $(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null || echo '?') |"
	echo "| plugins measured | $(echo "$HORAE_PLUGINDIR" | sed "s|^$HERE/||") |"
	echo
	echo "Every comparison below was measured in one run, side by side; the"
	echo "figures are what each benchmark printed.  Earlier runs, profiles and"
	echo "what each change did to these figures: doc/benchmarks-history.md."
	echo
	cat "$tmp/report.md"
} >"$out"
echo "bench-all: wrote $out" >&2
