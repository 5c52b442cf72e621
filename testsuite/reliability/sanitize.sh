#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sanitize: the core's and the simulator's tests under AddressSanitizer
# (with LeakSanitizer) and UndefinedBehaviorSanitizer.  Configures a
# separate out-of-tree build with -fsanitize=address,undefined, builds
# src/common and contribs/sim in it, and runs their Check binaries
# (`make check`) and the simulator's command-line tests (t0400, t0401)
# against the sanitized horae-sim.  Any leak, bad access or undefined
# behaviour aborts the process it happens in and fails its test; a report
# from a horae-sim run whose exit status a script does not check fails
# the script's stage as well.
#
#   testsuite/reliability/sanitize.sh
#
# Environment: HORAE_ASAN_BUILDDIR, the build directory (/tmp/horae-asan).
# It is kept, so that a second run only rebuilds what changed and the
# failures' test-suite.log files can be read; remove it to start over.
# Ends with "sanitize: N passed, N failed" (test cases of the Check
# binaries plus the TAP scripts' tests) and the time taken; exits 1 on
# any failure.
#
# Only what runs outside slurmctld is built: the Slurm plugins cannot be
# tested this way, because an ASan-instrumented .so cannot be dlopen()ed
# into Debian's uninstrumented slurmctld (the ASan runtime must come first
# in the process's initial library list), and sfair links Slurm's
# libslurmfull.  Check forks a child per test case by default, which ASan
# handles: each child runs its own leak check when it exits, so a leak
# fails the test case that made it.  CK_FORK=no would save about 15 s, but
# a leak would then fail a whole binary, and sim_trace_test's
# test_write_stdout, which freopen()s stdout, needs its own process.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${HORAE_ASAN_BUILDDIR:-/tmp/horae-asan}
san_cflags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined"
san_cflags="$san_cflags -fno-sanitize-recover=undefined"
san_ldflags="-fsanitize=address,undefined"
san_report='runtime error:|ERROR: (Address|Leak)Sanitizer'
start=$SECONDS
passed=0
failed=0

say() { echo "sanitize: $*"; }

# Run from a `make check` (t0500), we must not inherit its make flags: a
# TESTS=... given there would replace the TESTS of the directories here.
unset MAKEFLAGS MFLAGS MAKELEVEL

tmp=$(mktemp -d /tmp/horae-sanitize.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# finish: the summary line and the time; exits.
finish()
{
	say "$passed passed, $failed failed"
	say "took $((SECONDS - start)) s"
	[ "$failed" = 0 ] || exit 1
	exit 0
}

# --- configure ---------------------------------------------------------------
if [ "$(id -u)" = 0 ]; then
	HORAE_QUIET=1 "$top/contribs/horae-deps" >&2 ||
		{ say "configure: failed (contribs/horae-deps)"; failed=1; finish; }
else
	say "not root: no contribs/horae-deps (configure names what is missing)"
fi
if [ ! -x "$top/configure" ]; then
	if ! (cd "$top" && ./autogen.sh >"$top/autogen.log" 2>&1); then
		say "configure: failed (autogen.sh)"
		cat "$top/autogen.log"
		failed=1
		finish
	fi
fi
# The stamp says which checkout and flags $B was configured with.  Built
# from another checkout, its objects could look newer than our sources:
# start over (the stamp tells that the directory is ours to remove).
args="srcdir=$top CFLAGS=$san_cflags LDFLAGS=$san_ldflags"
old=$(cat "$B/.horae-sanitize-args" 2>/dev/null) || old=
case "$old" in
"srcdir=$top "*) ;;
srcdir=*)
	say "$B was built from ${old%% CFLAGS=*}: starting over"
	rm -rf "$B" ;;
esac
mkdir -p "$B"
t0=$SECONDS
if [ ! -f "$B/config.status" ] || [ "$top/configure" -nt "$B/config.status" ] ||
   [ "$old" != "$args" ]; then
	rm -f "$B/.horae-sanitize-args"
	if ! (cd "$B" && "$top/configure" CFLAGS="$san_cflags" \
		LDFLAGS="$san_ldflags" >configure.out 2>&1); then
		say "configure: failed (in $B)"
		tail -30 "$B/configure.out"
		failed=1
		finish
	fi
	echo "$args" >"$B/.horae-sanitize-args"
	say "configure: ok in $B ($((SECONDS - t0)) s)"
else
	say "configure: ok, $B is configured already"
fi

# --- build --------------------------------------------------------------------
t0=$SECONDS
if ! { make -j"$(nproc)" -C "$B/src/common" &&
       make -j"$(nproc)" -C "$B/contribs/sim"; } >"$tmp/make.out" 2>&1; then
	say "build: failed"
	grep -E 'error|warning' "$tmp/make.out" || tail -30 "$tmp/make.out"
	failed=1
	finish
fi
say "build: ok, src/common and contribs/sim ($((SECONDS - t0)) s)"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# abort_on_error for UBSan too: it otherwise exits 1, the status with which
# horae-sim refuses bad input, and t0401 takes that for a pass.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1

# excerpt LOG RE: the lines of the tests that failed (matching RE), then
# the first sanitizer report in full (the others are in LOG, often the same
# leak reached another way).
excerpt()
{
	{ grep -E "$2" "$1" | head -20; } || true
	awk -v re="$san_report" '$0 ~ re { on = 1 }
		on { print } on && /^SUMMARY: / { exit }' "$1" | head -60 || true
}

# --- Check binaries -----------------------------------------------------------
# check DIR: `make check` in $B/DIR; adds its test-suite.log counts.
check()
{
	local dir=$1 log=$B/$1/test-suite.log t0=$SECONDS p f
	rm -f "$log"
	make -j"$(nproc)" -C "$B/$dir" check >"$tmp/check.out" 2>&1 || true
	if [ ! -f "$log" ]; then
		say "$dir: make check ran no tests: 0 passed, 1 failed"
		grep -E 'error' "$tmp/check.out" || tail -30 "$tmp/check.out"
		failed=$((failed + 1))
		return
	fi
	p=$(awk '/^# PASS:/ { print $3 }' "$log")
	f=$(awk '/^# (FAIL|ERROR|XPASS):/ { f += $3 } END { print f + 0 }' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
	say "$dir: $p passed, $f failed ($((SECONDS - t0)) s)"
	# The log holds the output of every test that did not pass, the
	# sanitizer's reports among it.
	if [ "$f" != 0 ]; then
		excerpt "$log" '^(FAIL|ERROR|XPASS):'
		echo "(all of it: $log)"
	fi
}
check src/common
check contribs/sim

# --- the simulator's command line ---------------------------------------------
# tap SCRIPT: run a TAP script of testsuite/; adds its "N passed, N failed".
tap()
{
	local t=$1 t0=$SECONDS rc=0 sum p f reports
	HORAE_BUILDDIR=$B/testsuite bash "$top/testsuite/$t" >"$tmp/tap.out" 2>&1 ||
		rc=$?
	sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/tap.out" | tail -1) ||
		true
	if [ -z "$sum" ]; then
		# Skipped (77) or died before its summary: a failure here,
		# where horae-sim and jq are there to be tested.
		say "$t: exit $rc without a summary: 0 passed, 1 failed"
		tail -30 "$tmp/tap.out"
		failed=$((failed + 1))
		return
	fi
	read -r p _ f _ <<<"${sum//,/}"
	[ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
	# The scripts ignore the exit status of some runs whose output they
	# check: a leak reported as such a run exits is seen only here.  (A
	# report in a failed test's diagnostic, "#   ...", is counted there.)
	reports=$(grep -v '^#' "$tmp/tap.out" | grep -cE "$san_report") || true
	f=$((f + reports))
	passed=$((passed + p))
	failed=$((failed + f))
	say "$t: $p passed, $f failed ($((SECONDS - t0)) s)$(
		[ "$reports" = 0 ] || echo ", $reports sanitizer reports")"
	# The failed tests, and the first report horae-sim wrote on stderr.
	[ "$f" = 0 ] || excerpt "$tmp/tap.out" '^not ok'
}
tap sim/t0400-sim-papers.sh
tap sim/t0401-sim-cli.sh

finish
