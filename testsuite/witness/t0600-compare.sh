#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0600: compare.py, the judge of t0037, on JUnit files written here: a
# test lost on Horae fails the comparison, one that failed once and
# passed on a rerun does not, nor one that failed on both sides of a
# paired rerun (both at once), and --lost names each lost test with the
# pytest node id a rerun needs, also for a test inside a class.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
CMP="$HERE/witness/compare.py"
command -v python3 >/dev/null || tap_skip_all "python3 missing"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# junit FILE CASE...: a JUnit file; CASE is OUTCOME:MODULE[.CLASS]:NAME
# with OUTCOME pass, fail or skip, MODULE a path without .py.
junit()
{
	local f=$1 c kind mod cls name
	shift
	{
		echo '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">'
		for c in "$@"; do
			IFS=: read -r kind mod name <<<"$c"
			cls=${mod//\//.}
			mod=${mod%%.*}
			printf '<testcase classname="%s" name="%s" file="%s.py" line="1">' \
				"$cls" "$name" "$mod"
			case $kind in
			fail) echo '<failure message="assert 1 == 2">x</failure>' ;;
			skip) echo '<skipped message="needs a GPU"/>' ;;
			esac
			echo '</testcase>'
		done
		echo '</testsuite></testsuites>'
	} >"$f"
}

stock_cases="pass:tests/a/test_--w:test_w pass:tests/a/test_m.Test_m:test_mem skip:tests/a/test_g:test_gpu fail:tests/a/test_x:test_x"
# shellcheck disable=SC2086
junit "$tmp/stock.xml" $stock_cases
# Horae: test_w fails, test_mem is in a class and fails, the rest as stock.
junit "$tmp/horae.xml" fail:tests/a/test_--w:test_w \
	fail:tests/a/test_m.Test_m:test_mem skip:tests/a/test_g:test_gpu \
	fail:tests/a/test_x:test_x

lost=$(python3 "$CMP" --lost "$tmp/stock.xml" "$tmp/horae.xml")
tap_ok "--lost names a module's test and a class's test by their node ids" \
	$([ "$lost" = "tests/a/test_--w.py::test_w tests/a/test_m.py::Test_m::test_mem" ]; echo $?) "$lost"

python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "two tests lost: exit 1, both listed" \
	$([ $rc = 1 ] && grep -q '^Passed with stock, not with Horae: 2$' "$tmp/out"; echo $?) "$(cat "$tmp/out")"

# A rerun of the two: test_w passes, test_mem fails again.
junit "$tmp/horae-rerun1.xml" pass:tests/a/test_--w:test_w \
	fail:tests/a/test_m.Test_m:test_mem
lost=$(python3 "$CMP" --lost "$tmp/stock.xml" "$tmp/horae.xml" "$tmp/horae-rerun1.xml")
tap_ok "after a rerun, --lost names only the test still lost" \
	$([ "$lost" = "tests/a/test_m.py::Test_m::test_mem" ]; echo $?) "$lost"

# The second rerun passes test_mem: nothing lost, exit 0; the counts are
# the first run's with the reruns' passes, not a rerun's alone.
junit "$tmp/horae-rerun2.xml" pass:tests/a/test_m.Test_m:test_mem
python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" "$tmp/horae-rerun1.xml" \
	"$tmp/horae-rerun2.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "both passed on a rerun: exit 0, listed as such, counted over all four tests" \
	$([ $rc = 0 ] && grep -q '^Failed on Horae, then passed on a rerun (2):' "$tmp/out" &&
		grep -Eq '^horae +2 +1 +1 +4$' "$tmp/out"; echo $?) "$(cat "$tmp/out")"

# Paired reruns (both sides at once): in the first, test_w fails on both
# sides (the machine: not held against Horae) and test_mem fails on Horae
# only (still lost); in the second, test_mem again fails on Horae and
# passes on stock.
junit "$tmp/horae.xml" fail:tests/a/test_--w:test_w \
	fail:tests/a/test_m.Test_m:test_mem skip:tests/a/test_g:test_gpu \
	fail:tests/a/test_x:test_x
junit "$tmp/stock-rerun1.xml" fail:tests/a/test_--w:test_w \
	pass:tests/a/test_m.Test_m:test_mem
junit "$tmp/horae-rerun1.xml" fail:tests/a/test_--w:test_w \
	fail:tests/a/test_m.Test_m:test_mem
junit "$tmp/stock-rerun2.xml" pass:tests/a/test_m.Test_m:test_mem
junit "$tmp/horae-rerun2.xml" fail:tests/a/test_m.Test_m:test_mem
lost=$(python3 "$CMP" --lost "$tmp/stock.xml" "$tmp/horae.xml" \
	--paired "$tmp/stock-rerun1.xml" "$tmp/horae-rerun1.xml")
tap_ok "a test that failed on both sides of a paired rerun is no longer lost; one that failed on Horae alone is" \
	$([ "$lost" = "tests/a/test_m.py::Test_m::test_mem" ]; echo $?) "$lost"
python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" \
	--paired "$tmp/stock-rerun1.xml" "$tmp/horae-rerun1.xml" \
	--paired "$tmp/stock-rerun2.xml" "$tmp/horae-rerun2.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "after two paired reruns: exit 1, test_w listed as failing on both side by side, test_mem as lost" \
	$([ $rc = 1 ] &&
		grep -q '^Passed with stock, failed on Horae, then failed on both side by side in a rerun (1)' "$tmp/out" &&
		grep -q '^  tests.a.test_--w::test_w: stock in the rerun: assert 1 == 2' "$tmp/out" &&
		grep -q '^Passed with stock, not with Horae: 1$' "$tmp/out" &&
		grep -q '^  tests.a.test_m.Test_m::test_mem$' "$tmp/out"; echo $?) "$(cat "$tmp/out")"
# Horae passing in a paired rerun counts as passing, whatever stock did.
junit "$tmp/horae-rerun2.xml" pass:tests/a/test_m.Test_m:test_mem
junit "$tmp/stock-rerun2.xml" fail:tests/a/test_m.Test_m:test_mem
python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" \
	--paired "$tmp/stock-rerun1.xml" "$tmp/horae-rerun1.xml" \
	--paired "$tmp/stock-rerun2.xml" "$tmp/horae-rerun2.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "a test Horae passes in a paired rerun passes: exit 0" \
	$([ $rc = 0 ] && grep -q '^Failed on Horae, then passed on a rerun (1):' "$tmp/out"; echo $?) "$(cat "$tmp/out")"

# A test missing on Horae is lost too; one failing on both sides is not.
junit "$tmp/horae.xml" pass:tests/a/test_--w:test_w \
	pass:tests/a/test_m.Test_m:test_mem fail:tests/a/test_x:test_x
python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "a skipped test absent on Horae changes the table, not the verdict; a failure on both is listed as such" \
	$([ $rc = 0 ] && grep -q 'test_gpu: skipped -> absent' "$tmp/out" &&
		grep -q '^Failing on both (1)' "$tmp/out"; echo $?) "$(cat "$tmp/out")"
junit "$tmp/horae.xml" pass:tests/a/test_--w:test_w fail:tests/a/test_x:test_x
python3 "$CMP" "$tmp/stock.xml" "$tmp/horae.xml" >"$tmp/out" 2>&1
rc=$?
tap_ok "a passing test absent on Horae is lost: exit 1" \
	$([ $rc = 1 ] && grep -q 'test_mem: passed -> absent' "$tmp/out"; echo $?) "$(cat "$tmp/out")"
tap_done
