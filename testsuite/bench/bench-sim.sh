#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-sim: how long horae-sim takes, and how much memory, to simulate
# 1,000,000 tasks on 2,000 nodes under each policy (issue 22's goal: 5 s or less
# each on the machine it runs on).  The workload: 2,000 nodes of 16 CPUs
# and 64 GB in four speed generations, 100 accounts of weights 1-3, 1,000
# jobs of 1,000 tasks (1-4 CPUs, 1-8 GB, 10-109 s of work), one every 2 s:
# the cluster is oversubscribed about 2.5 times, so queues stay long.
# Prints seconds (elapsed), peak resident memory and the simulated
# makespan per policy, and then where each policy's time goes (perf, when
# it is here); asserts nothing.  Each policy runs BENCH_SIM_RUNS
# times (5), the policies one after another in each round and in the
# reverse order every other round, and the seconds are given as the
# median with the fastest and the slowest run beside it: on a virtual
# machine one run of the same binary has taken from 3.5 to 5.7 s.  The
# makespan must come out the same every run (the simulator is
# deterministic); a run that differs is printed as an error.
#
#   bench-sim.sh [POLICY...]     (default: all of them)
set -euo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
runs=${BENCH_SIM_RUNS:-5}
case $runs in
'' | *[!0-9]* | 0) echo "bench-sim: BENCH_SIM_RUNS is a positive whole number, not '$runs'" >&2
	exit 2 ;;
esac
build=${HORAE_BUILDDIR:-$HERE/build}
# Build what is missing (the configured build is kept as it is).
if [ -f "$build/config.status" ]; then
	make -s -C "$build" >/dev/null
else
	"$HERE/contribs/horae-build" >/dev/null
fi
sim=$build/contribs/sim/horae-sim
policies=("$@")
[ ${#policies[@]} -gt 0 ] || policies=(fifo drf drfh af lt-drf lt-af hmrf
	tsf tsf-cluster eunomia psdsf rpsdsf)

dir=$(mktemp -d /tmp/horae-bench-sim.XXXXXX)
trap 'rm -rf "$dir"' EXIT
awk 'BEGIN {
	srand(1);
	printf "{\"version\":1,\"tres\":\"cpu,mem\",\"nodes\":[";
	split("1 1.5 2 3", speed, " ");
	for (g = 1; g <= 4; g++)
		printf "%s{\"name\":\"gen%d-\",\"count\":500,\"tres\":\"cpu=16,mem=64G\",\"speed\":%s,\"features\":\"gen%d\"}",
			(g > 1 ? "," : ""), g, speed[g], g;
	printf "],\"accounts\":[";
	for (a = 1; a <= 100; a++)
		printf "%s{\"name\":\"a%d\",\"weight\":%d}", (a > 1 ? "," : ""), a, 1 + a % 3;
	printf "],\"jobs\":[";
	for (j = 1; j <= 1000; j++)
		printf "%s{\"id\":%d,\"account\":\"a%d\",\"submit\":%d,\"tasks\":1000,\"task_tres\":\"cpu=%d,mem=%dG\",\"work\":%d}",
			(j > 1 ? "," : ""), j, 1 + int(rand() * 100), 2 * (j - 1),
			1 + int(rand() * 4), 1 + int(rand() * 8), 10 + int(rand() * 100);
	printf "]}\n";
}' >"$dir/trace.json"

# Each run's line in $dir/runs: policy, seconds, peak KB, makespan, tasks.
for ((round = 1; round <= runs; round++)); do
	order=("${policies[@]}")
	if ((round % 2 == 0)); then
		order=()
		for ((i = ${#policies[@]} - 1; i >= 0; i--)); do
			order+=("${policies[i]}")
		done
	fi
	for p in "${order[@]}"; do
		/usr/bin/time -f '%e %M' -o "$dir/time" \
			"$sim" -q --json -p "$p" -w sliding:1h "$dir/trace.json" \
			>"$dir/out.json"
		read -r secs kb <"$dir/time"
		echo "$p $secs $kb $(jq -r '.makespan' "$dir/out.json")" \
			"$(jq -r '.tasks_started' "$dir/out.json")" >>"$dir/runs"
	done
done
printf '%-12s %8s %8s %8s %12s %12s %10s\n' policy seconds fastest slowest \
	"peak RSS MB" makespan tasks
for p in "${policies[@]}"; do
	awk -v p="$p" '$1 == p' "$dir/runs" | sort -k2,2n | awk -v p="$p" '
		{ s[NR] = $2; if ($3 > kb) kb = $3; ms[NR] = $4; t = $5 }
		END {
			med = NR % 2 ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2
			printf "%-12s %8.2f %8.2f %8.2f %12.1f %12s %10s\n",
				p, med, s[1], s[NR], kb / 1024, ms[1], t
			for (i = 2; i <= NR; i++)
				if (ms[i] != ms[1])
					printf "bench-sim: %s: the makespan differs between runs (%s, %s)\n",
						p, ms[1], ms[i] > "/dev/stderr"
		}'
done
echo "seconds: the median of $runs runs (elapsed), with the fastest and the slowest"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"

# Where the time goes: one more run of each policy, not timed, under perf
# (the software clock, which a virtual machine has when it has no
# hardware counters); each function's share of the run's samples, the
# kernel's marked [k].  Functions inlined into another count as it.
if ! command -v perf >/dev/null; then
	echo "where the time goes: perf is not installed (linux-perf): no profile"
	exit 0
fi
if ! perf record -q -e cpu-clock -o "$dir/perf.try" true >/dev/null 2>&1; then
	echo "where the time goes: perf record fails here (perf_event_paranoid?): no profile"
	exit 0
fi
echo
echo "where the time goes: one more run of each policy under perf record -e cpu-clock -F 999; its six functions with the most samples"
for p in "${policies[@]}"; do
	perf record -q -e cpu-clock -F 999 -o "$dir/perf.data" \
		"$sim" -q --json -p "$p" -w sliding:1h "$dir/trace.json" \
		>/dev/null 2>&1 || {
		echo "$p: perf record failed"
		continue
	}
	perf report -i "$dir/perf.data" --no-children --sort dso,symbol \
		--stdio 2>/dev/null | awk -v p="$p" '
		/^ *[0-9.]+%/ && n < 6 {
			pct = $1; k = ($3 == "[k]") ? " [k]" : ""
			printf "%s%s %s%s", (n ? ", " : sprintf("%-12s ", p)),
				$4, pct, k
			n++
		}
		END { print "" }'
done
