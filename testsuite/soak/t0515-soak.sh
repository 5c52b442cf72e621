#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0515: the core's and the simulator's generated-case tests on cases
# their fixed seeds do not draw: testsuite/soak/soak.sh with
# HORAE_TEST_SEED = 1 .. T0515_SEEDS.  One test per test program, ok when
# it passed on every seed; a failure names the seeds and the first
# failure's message (run the program again with that HORAE_TEST_SEED and
# CK_FORK=no).  Long runs: testsuite/soak/soak.sh [LAST [FIRST [JOBS]]].
#
#   T0515_SEEDS   how many seeds (20)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_core_only
work=$(mktemp -d /tmp/horae-soak-t0515.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$HERE/soak/soak.sh" "${T0515_SEEDS:-20}" 1 2 >"$work/out" 2>"$work/err"
rc=$?
if [ $rc = 2 ]; then
	tap_ok "soak.sh finds its test programs" 1 "$(tail -5 "$work/err")"
	tap_done
fi
progs=$("$HERE/soak/soak.sh" --list)
for p in $progs; do
	fails=$(grep " $p: " "$work/out")
	if [ -z "$fails" ]; then
		tap_ok "$p: every generated case passes on seeds 1-${T0515_SEEDS:-20}" 0
	else
		tap_ok "$p: a generated case fails" 1 "$(echo "$fails" | head -5)"
	fi
done
grep -q "^soak: " "$work/out" ||
	tap_ok "soak.sh prints its summary" 1 "$(tail -5 "$work/err")"
tap_done
