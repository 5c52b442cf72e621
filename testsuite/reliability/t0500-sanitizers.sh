#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0500: the core's and the simulator's tests pass under AddressSanitizer
# (leaks included) and UndefinedBehaviorSanitizer: runs
# reliability/sanitize.sh (its own build in $HORAE_ASAN_BUILDDIR, default
# /tmp/horae-asan) and reports each of its stages as one test: configure,
# build, the Check binaries of src/common and contribs/sim, and the
# simulator's CLI tests t0400 and t0401.  The plugins are not covered: see
# sanitize.sh for why.  On 2 cores: about 35 s with the build kept from a
# previous run, 85 s from nothing (over 2 minutes on a busy machine).
# Not part of `make check` (CI has no room for it); run it with
#   make -C build/testsuite check TESTS=reliability/t0500-sanitizers.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sanitizers need the compiler's flags and its runtime libraries.
echo 'int main(void) { return 0; }' >"$tmp/probe.c"
if ! ${CC:-gcc} -fsanitize=address,undefined -o "$tmp/probe" "$tmp/probe.c" \
	>/dev/null 2>&1 || ! "$tmp/probe"; then
	tap_skip_all "${CC:-gcc} cannot build or run -fsanitize=address,undefined"
fi

bash "$HERE/reliability/sanitize.sh" >"$tmp/out" 2>&1
rc=$?

# stage NAME: the line "sanitize: NAME: ..." passes when it says "ok" or
# "0 failed"; what sanitize.sh printed after it, up to its next line, is
# the diagnostic.
stage()
{
	local line diag
	line=$(grep -F "sanitize: $1: " "$tmp/out" | head -1)
	diag=$(awk -v l="$line" '$0 == l { on = 1; next }
		on && /^sanitize: / { exit } on' "$tmp/out" | head -60)
	case "$line" in
	"sanitize: $1: ok"* | *" 0 failed"*) tap_ok "$1: ${line#*: *: }" 0 ;;
	"") tap_ok "$1: not reached (sanitize.sh stopped before it)" 1 ;;
	*) tap_ok "$1: ${line#*: *: }" 1 "$diag" ;;
	esac
}
stage configure
stage build
stage src/common
stage contribs/sim
stage sim/t0400-sim-papers.sh
stage sim/t0401-sim-cli.sh
tap_diag "$(grep -E '^sanitize: ([0-9]+ passed|took)' "$tmp/out")"
tap_ok "sanitize.sh exits 0" "$rc" "$(tail -3 "$tmp/out")"

tap_done
