#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0510: the libFuzzer targets of testsuite/fuzz in their CI form: fuzz.sh
# builds them with clang (AddressSanitizer, leak detection and
# UndefinedBehaviorSanitizer) and runs each for a few seconds from the
# repository's seeds.  One test per target, ok when it ran without a
# crash, leak or undefined behaviour; a failure shows the crash file and
# the start of the sanitizer's report, and keeps the work directory.
# Long runs: testsuite/fuzz/fuzz.sh [SECONDS] [TARGET...].
#
#   T0510_SECONDS   seconds per target (3)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_core_only
command -v clang >/dev/null ||
	tap_skip_all "clang missing (contribs/horae-deps installs it)"
work=$(mktemp -d /tmp/horae-fuzz-t0510.XXXXXX)
# libFuzzer's runtime is libclang-rt-*-dev, which clang only recommends.
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void)d; (void)n; return 0; }' >"$work/probe.c"
clang -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>/dev/null || {
	rm -rf "$work"
	tap_skip_all "clang cannot link libFuzzer (install libclang-rt-dev)"
}

HORAE_FUZZ_DIR=$work "$HERE/fuzz/fuzz.sh" "${T0510_SECONDS:-3}" \
	>"$work/out" 2>"$work/err"
rc=$?
if [ $rc = 2 ]; then
	tap_ok "fuzz targets build" 1 "$(tail -20 "$work/err")"
	tap_diag "work directory kept: $work"
	tap_done
fi

# "TARGET: N runs, no crash", or "TARGET: CRASH ..." and indented lines.
targets=$(sed -n '/^fuzz: /!s/^\([a-z_]*\): .*/\1/p' "$work/out")
for t in $targets; do
	line=$(grep "^$t: " "$work/out")
	report=$(sed -n "/^$t: /,/^[^ ]/p" "$work/out" | sed '1d;$d')
	case $line in
	*", no crash") tap_ok "$t: ${line#"$t: "}" 0 ;;
	*) tap_ok "$t: crash, leak or undefined behaviour" 1 \
		"$line"$'\n'"$report" ;;
	esac
done
[ -n "$targets" ] ||
	tap_ok "fuzz.sh reports its targets" 1 "$(tail -5 "$work/err")"
if [ "$TAP_FAILED" = 0 ]; then
	rm -rf "$work"
else
	tap_diag "work directory kept: $work"
fi
tap_done
