#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-all: run every benchmark and write their figures, with the machine
# they ran on, to doc/benchmarks.md (what `make bench` does).  Each
# benchmark compares side by side in one run (ours against the stock
# Slurm plugin, or each policy); this script only collects what they print.
# doc/benchmarks.md holds the last run of each benchmark and nothing else:
# the dated runs, profiles and analyses of single benchmarks are kept by
# hand in doc/benchmarks-history.md, which this script never writes.
#
#   bench-all.sh [--quick] [--only NAME[,NAME...]]
#   bench-all.sh --list                 the benchmarks' names and titles
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
#   BENCH_HISTORY=7 BENCH_USERS=1000 ... 50000 1000     (and the jobs of
#                                                        1,000 users under
#                                                        PrivateData=usage)
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
# The full run takes about four hours on a 2-core machine (the sections
# of doc/benchmarks.md say how long each took); run it alone.
#
# --only NAME,...: run only those benchmarks (names from --list) and put
# their sections in place of the same benchmarks' sections in the report
# (BENCH_OUT or doc/benchmarks.md), keeping the others as they were, so
# that a full report can be made a few benchmarks at a time.  Each
# section says when it ended, on which commit and on which machine (CPU,
# kernel) it ran; one that a whole run wrote before sections said so
# gets that run's, from the report's header (when that run ended).
set -uo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
build=${HORAE_BUILDDIR:-$HERE/build}
quick=
only=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--only)
		[ $# -ge 2 ] || {
			echo "bench-all: --only needs a list of names (--list)" >&2
			exit 2
		}
		only=,$2,
		shift
		;;
	--only=*) only=,${1#--only=}, ;;
	--list) list=1 ;;
	*)
		echo "bench-all: unknown argument '$1'" \
			"(bench-all.sh [--quick] [--only NAME,...] | --list)" >&2
		exit 2
		;;
	esac
	shift
done
# The benchmarks, in the report's order: NAME, whether it needs root
# (real daemons), its section's title, and its command (run from the top
# of the checkout; $B is the build directory, which must not hold a
# space).  bench_rank's files are on tmpfs: on an ext4 without a
# journal, as /tmp is on some machines, creating them costs more the
# more were removed in the last minutes, and the figures drift from one
# round to the next.
BENCHES=$(cat <<'LIST'
cold	0	The machine: reading memory that sat idle (bench_cold)	$B/testsuite/bench/bench_cold
rank	0	Core: ranking, windows, state, views; files in /dev/shm (bench_rank)	env TMPDIR=/dev/shm $B/testsuite/bench/bench_rank
sim	0	Simulator: 1,000,000 tasks on 2,000 nodes per policy	bash testsuite/bench/bench-sim.sh
prio-10k	1	priority/hmrf vs priority/multifactor: 10,000 jobs, 100 accounts	bash testsuite/bench/bench-priority-recalc.sh 10000 100
prio-50k	1	priority/hmrf vs priority/multifactor: 50,000 jobs, 1,000 accounts	bash testsuite/bench/bench-priority-recalc.sh 50000 1000
prio-50k-week	1	priority/hmrf vs priority/multifactor: 50,000 jobs, 1,000 accounts with a week of usage	env BENCH_HISTORY=7 bash testsuite/bench/bench-priority-recalc.sh 50000 1000
prio-50k-users	1	priority/hmrf vs priority/multifactor: 50,000 jobs of 1,000 users under PrivateData=usage, 1,000 accounts with a week of usage	env BENCH_HISTORY=7 BENCH_USERS=1000 bash testsuite/bench/bench-priority-recalc.sh 50000 1000
prio-100k	1	priority/hmrf vs priority/multifactor: 100,000 jobs, 1,000 accounts	bash testsuite/bench/bench-priority-recalc.sh 100000 1000
select	1	select/eunomia vs select/cons_tres: sdiag cycles, 5,000 jobs, 64 nodes	bash testsuite/bench/bench-select-cycle.sh 5000 64 120
constrained	1	Eunomia under placement constraints: progress per second and shares	bash testsuite/bench/bench-eunomia-constrained.sh 3
submit	1	job_submit/justice vs no job_submit plugin: 5,000 submissions	bash testsuite/bench/bench-submit.sh 5000
scale	1	A slurmctld at scale: 100,000 pending jobs on 256 nodes, Horae against stock	bash testsuite/bench/bench-scale.sh 100000 256 1000
LIST
)
if [ -n "${list:-}" ]; then
	echo "$BENCHES" | awk -F'\t' '{
		printf "%-16s %s%s\n", $1, $3, $2 == 1 ? " (root)" : "" }'
	exit 0
fi
if [ -n "$only" ]; then
	for name in $(echo "$only" | tr ',' ' '); do
		echo "$BENCHES" | cut -f1 | grep -qxF "$name" || {
			echo "bench-all: --only: no benchmark named '$name'" \
				"(bench-all.sh --list)" >&2
			exit 2
		}
	done
fi

out=${BENCH_OUT:-$HERE/doc/benchmarks.md}
[ -n "$quick" ] && out=${BENCH_OUT:-/dev/stdout}
if [ -n "$only" ] && [ -n "$quick" ]; then
	echo "bench-all: --only and --quick: choose one" >&2
	exit 2
fi
if [ -n "$only" ] && [ ! -s "$out" ]; then
	echo "bench-all: --only puts sections into an existing report;" \
		"$out is missing or empty (run the whole of it once)" >&2
	exit 2
fi
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
# Changes to the documents (this report among them, when --only runs
# one after another) change nothing measured.
commit=$(git -C "$HERE" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$HERE" status --porcelain -- . ':(exclude)doc' \
	':(exclude)README.md' 2>/dev/null)" ] && commit=$commit-dirty
case $commit in
*-dirty) commit_said="commit ${commit%-dirty} with changes not committed" ;;
*) commit_said="commit $commit" ;;
esac
cpu_said="$(nproc) x $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
linux_said="Linux $(uname -r)"

tmp=$(mktemp -d /tmp/horae-bench-all.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run NAME TITLE COMMAND...: run it, keep its section for the report in
# $tmp/NAME.md.
run()
{
	local name=$1 title=$2 t0 rc
	shift 2
	echo "bench-all: $title" >&2
	t0=$SECONDS
	(cd "$HERE" && "$@") >"$tmp/$name.out" 2>&1
	rc=$?
	{
		echo "## $title"
		echo
		# the command as run from the top of the checkout
		echo "\`$(echo "$*" | sed "s|$build/|build/|g; s|$HERE/||g")\` (exit $rc, $((SECONDS - t0)) s; $(date -u '+%Y-%m-%d %H:%M UTC'), $commit_said, on $cpu_said, $linux_said)"
		echo
		echo '```'
		grep -v '^horae-\(deps\|build\):' "$tmp/$name.out"
		echo '```'
		echo
	} >"$tmp/$name.md"
}

# old_section TITLE: the section of that title in the report as it was
# (its "## " line to the next one's), else nothing; a section whose
# command line says neither when nor on which commit it ran (written by a
# whole run before sections carried that) gets its run's, from the
# report's header.
old_section()
{
	local when cpu linux
	when=$(awk '/^Written by/ { w = 1 } w && / UTC, commit / { print; exit }' "$tmp/old.md" | sed 's/^ *//; s/\.$//')
	cpu=$(sed -n 's/^| CPU | \(.*\) |$/\1/p' "$tmp/old.md" | head -1)
	linux=$(sed -n 's/^| system | .*, \(Linux [^|]*\) |$/\1/p' "$tmp/old.md" | head -1)
	[ -n "$when" ] && [ -n "$cpu" ] && when="$when, on $cpu, $linux"
	awk -v t="## $1" -v when="${when:-when, on which commit and where unknown}" '
		/^## / { on = ($0 == t) }
		on && /^`.*` \(exit [0-9]+, [0-9]+ s\)$/ {
			sub(/\)$/, "; " when ")")
		}
		on { print }' "$tmp/old.md"
}

if [ -n "$only" ]; then
	cp "$out" "$tmp/old.md"
	# A section whose title no benchmark has any more (renamed since)
	# is not carried over: say so, so that it is run again.
	grep '^## ' "$tmp/old.md" | cut -c4- | while IFS= read -r t; do
		echo "$BENCHES" | cut -f3 | grep -qxF "$t" ||
			echo "bench-all: the report's section '$t' matches" \
				"no benchmark's title and is left out" \
				"(run that benchmark again)" >&2
	done
fi
while IFS=$'\t' read -r name root title cmd; do
	[ -n "$only" ] && [[ $only != *",$name,"* ]] && continue
	if [ "$root" = 1 ]; then
		[ -n "$quick" ] && continue
		if [ "$(id -u)" != 0 ]; then
			echo "bench-all: not root: $name left out" >&2
			continue
		fi
	fi
	# shellcheck disable=SC2086 # the command's words
	run "$name" "$title" ${cmd//\$B/$build}
done <<<"$BENCHES"

# The report: each benchmark's new section, else (with --only) its old
# one.
{
	echo "# Benchmarks"
	echo
	if [ -n "$only" ]; then
		echo "Written by \`testsuite/bench/bench-all.sh --only ${only:1:-1}\` on"
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $commit_said, into the"
		echo "report before it: each section says when it ended, on which commit"
		echo "and on which machine (CPU and kernel; 24 GiB and Debian 12 each"
		echo "time so far).  The machine below is this last run's."
	else
		echo "Written by \`testsuite/bench/bench-all.sh${quick:+ --quick}\` (\`make bench\`) on"
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $commit_said."
	fi
	echo
	echo "| machine | |"
	echo "|---|---|"
	echo "| CPU | $cpu_said |"
	echo "| memory | $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |"
	echo "| system | $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r) |"
	echo "| Slurm | $(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null || echo '?') |"
	echo "| plugins measured | $(echo "$HORAE_PLUGINDIR" | sed "s|^$HERE/||") |"
	echo
	echo "Every comparison below was measured in one run, side by side; the"
	echo "figures are what each benchmark printed.  Earlier runs, profiles and"
	echo "what each change did to these figures: doc/benchmarks-history.md."
	echo
	while IFS=$'\t' read -r name root title cmd; do
		if [ -f "$tmp/$name.md" ]; then
			cat "$tmp/$name.md"
		elif [ -n "$only" ]; then
			old_section "$title"
		fi
	done <<<"$BENCHES"
} >"$tmp/report"
cat "$tmp/report" >"$out"
echo "bench-all: wrote $out" >&2
