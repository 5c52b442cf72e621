#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# soak: the core's and the simulator's generated-case tests again on other
# cases.  Each of those tests draws its cases from fixed seeds, so every
# run checks the same cases; with HORAE_TEST_SEED=N (src/common/test/
# test_seed.h) every seed moves, and the same properties are checked on
# cases no run has seen: the ranking against its replay, the books against
# the paper's steps and against the simulator's feeding, Eunomia's books
# against an independent model, the rankers' repeat and skip, PSDSF's
# pass against its pick, best-fit task by task against a model, the heap,
# Justice's admission against a model and its marks, the usage decay,
# Eunomia's progress under pins.  Runs the test binaries for N = FIRST
# .. LAST, JOBS at a time, and prints each failure with its N (run it
# again with HORAE_TEST_SEED=N and CK_FORK=no to debug), then a summary.
# Exits 1 when any failed, 2 when a binary is missing.
#
#   soak.sh [LAST [FIRST [JOBS]]]       (100 1 2)
#   soak.sh --list                      the test programs' names
#
# HORAE_BUILDDIR: a configured build (default: the repository's build/).
# Each test has a minute (CK_DEFAULT_TIMEOUT, 60 unless set), as under
# make check: a timeout catches a hang, not a machine loaded by the suites
# beside this one.  A failure is printed with its test and line
# (CK_VERBOSITY=normal).
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BINS=(
	src/common/test/hmrf_test
	src/common/test/hmrf_books_test
	src/common/test/eunomia_books_test
	src/common/test/eunomia_test
	src/common/test/psdsf_test
	src/common/test/tsf_test
	src/common/test/justice_test
	src/common/test/justice_mark_test
	src/common/test/assoc_usage_test
	src/common/test/heap_test
	contribs/sim/test/sim_engine_test
)
if [ "${1:-}" = --list ]; then
	for b in "${BINS[@]}"; do basename "$b"; done
	exit 0
fi
build=${HORAE_BUILDDIR:-$TOP/build}
[ -d "$build/testsuite" ] || build=$(dirname "$build")
last=${1:-100}
first=${2:-1}
jobs=${3:-2}
for v in "$last" "$first" "$jobs"; do
	case $v in
	'' | *[!0-9]*) echo "soak: LAST, FIRST and JOBS are whole numbers, not '$v'" >&2
		exit 2 ;;
	esac
done
# Built (or brought up to date) first: a soak of stale programs would
# check old code.
for b in "${BINS[@]}"; do
	make -s -C "$build/$(dirname "$(dirname "$b")")" \
		"test/$(basename "$b")" >&2 ||
		{ echo "soak: cannot build $build/$b" >&2; exit 2; }
done
work=$(mktemp -d /tmp/horae-soak.XXXXXX)
trap 'rm -rf "$work"' EXIT

# one N: every binary; "N BINARY" a line for each that failed, with its
# first failure's message in WORK/N.BINARY.
one()
{
	local n=$1 b name
	for b in "${BINS[@]}"; do
		name=$(basename "$b")
		if ! HORAE_TEST_SEED=$n CK_VERBOSITY=normal \
			CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60} "$build/$b" \
			>"$work/$n.$name" 2>&1; then
			echo "$n $name"
		else
			rm -f "$work/$n.$name"
		fi
	done
}

: >"$work/failed"
for ((n = first; n <= last; n++)); do
	one "$n" >>"$work/failed" &
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
done
wait
sort -n "$work/failed" | while read -r n name; do
	echo "HORAE_TEST_SEED=$n $name: $(grep -m1 -E ':[EF]:' "$work/$n.$name" || tail -1 "$work/$n.$name")"
done
nf=$(wc -l <"$work/failed")
echo "soak: ${#BINS[@]} test programs on seeds $first-$last: $nf failed"
[ "$nf" = 0 ]
