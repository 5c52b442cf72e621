# SPDX-License-Identifier: GPL-2.0-or-later
# submitter.sh - sourced by the benchmarks that build a long queue: sets
# SUBMIT to bench_submit (bench_submit.c; HORAE_BENCH_SUBMIT, else the
# build tree's, built when missing).
if [ -n "${HORAE_BENCH_SUBMIT:-}" ]; then
	SUBMIT=$HORAE_BENCH_SUBMIT
	[ -x "$SUBMIT" ] ||
		{ echo "HORAE_BENCH_SUBMIT=$SUBMIT: no such program (make -C BUILD/testsuite bench/bench_submit)" >&2; exit 1; }
else
	_b=${HORAE_BUILDDIR:-$HERE/../build}
	[ -d "$_b/testsuite" ] || _b=$(dirname "$_b")
	SUBMIT=$_b/testsuite/bench/bench_submit
	[ -x "$SUBMIT" ] || make -s -C "$_b/testsuite" bench/bench_submit >&2 ||
		{ echo "cannot build bench_submit in $_b/testsuite" >&2; exit 1; }
fi
