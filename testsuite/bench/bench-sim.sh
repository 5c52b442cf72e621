#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-sim: how long horae-sim takes, and how much memory, to simulate
# 1,000,000 tasks on 2,000 nodes under each policy (issue 22's goal: 5 s or less
# each on the machine it runs on).  The workload: 2,000 nodes of 16 CPUs
# and 64 GB in four speed generations, 100 accounts of weights 1-3, 1,000
# jobs of 1,000 tasks (1-4 CPUs, 1-8 GB, 10-109 s of work), one every 2 s:
# the cluster is oversubscribed about 2.5 times, so queues stay long.
# Prints seconds, peak resident memory and the simulated makespan per
# policy; asserts nothing.
#
#   bench-sim.sh [POLICY...]     (default: all of them)
set -euo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
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

printf '%-12s %10s %12s %12s %10s\n' policy seconds "peak RSS MB" makespan tasks
for p in "${policies[@]}"; do
	/usr/bin/time -f '%e %M' -o "$dir/time" \
		"$sim" -q --json -p "$p" -w sliding:1h "$dir/trace.json" \
		>"$dir/out.json"
	read -r secs kb <"$dir/time"
	printf '%-12s %10.2f %12.1f %12s %10s\n' "$p" "$secs" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" \
		"$(jq -r '.makespan' "$dir/out.json")" \
		"$(jq -r '.tasks_started' "$dir/out.json")"
done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"
