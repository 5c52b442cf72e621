#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0037: Slurm's own python testsuite as a witness (issue 20).  It runs
# once on a cluster with Slurm's stock plugins and once on one with
# Horae's (testsuite/witness/slurm-pytest.sh, about 4 minutes in all), and
# every Slurm test that passes with stock must pass with Horae.  The tests
# that skip unless slurm.conf names priority/multifactor (sprio's) run on
# Horae with that gate lifted: one check makes sure they did run and pass
# (a failure on both sides is the machine's, as in check 2).
# doc/witness.md has the figures and why the rest fail or skip on both.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"
command -v pytest-3 >/dev/null ||
	tap_skip_all "pytest-3 missing (contribs/horae-deps installs python3-pytest)"

out=$(tap_rundir t0037)
trap '[ "$TAP_FAILED" = 0 ] && [ "${HC_KEEP:-0}" != 1 ] && rm -rf "$out"' EXIT
"$HERE/witness/slurm-pytest.sh" "$out" >"$out/report.out" 2>&1
rc=$?
tap_diag "$(cat "$out/report.out")"
[ -s "$out/stock.xml" ] && [ -s "$out/horae.xml" ]
tap_ok "Slurm's python testsuite ran on both clusters (JUnit in $out)" $?
[ $rc = 0 ]
tap_ok "every Slurm test that passes with the stock plugins passes with Horae's (exit $rc)" $?
# The sprio tests and multifactor's priority tests, gated on the name
# priority/multifactor, ran on Horae (none skipped) and passed, but for
# one that failed with the stock plugins too, which says the machine or
# the harness, not the plugin (seen once in a loaded run: 24.11's
# test_130_3 failed on teardown, "Job (4) was not found", on both): on
# 22.05 in directories of their own, on 24.11 as tests/test_113_2.py
# (sprio's options), test_113_5.py (sprio --weights) and test_130_3.py
# (priorities).  A gated test that failed on Horae and then passed on one
# of slurm-pytest.sh's reruns counts as passed, as in check 2: 22.05's
# test_relative_job_priorities asks two jobs of one account, submitted
# together, for the same priority, which H-MRF gives them until a
# recalculation ranks them one after the other (seen once, when both
# still waited at a recalculation; passed on the rerun).
python3 - "$out/stock.xml" "$out/horae.xml" "$out"/horae-rerun*.xml <<'PY'
import os
import sys
import xml.etree.ElementTree as ET
GATED = (".sprio.test_--weights", ".sprio.test_job_options",
         ".PriorityType.multifactor.test_priority",
         ".test_113_2", ".test_113_5", ".test_130_3")
def cases(path):
    return {(c.get("classname", ""), c.get("name", "")): c
            for c in ET.parse(path).getroot().iter("testcase")
            if c.get("classname", "").endswith(GATED)}
def outcome(c):
    tags = [k.tag for k in c if k.tag != "properties"]
    return "skipped" if "skipped" in tags else "failed" if tags else "passed"
stock, horae = cases(sys.argv[1]), cases(sys.argv[2])
reruns = [cases(p) for p in sys.argv[3:] if os.path.exists(p)]
ok = [k for k, c in horae.items() if outcome(c) == "passed" or
      any(k in r and outcome(r[k]) == "passed" for r in reruns)]
both = [k for k, c in horae.items() if k not in ok and
        outcome(c) == "failed" and k in stock and
        outcome(stock[k]) == "failed"]
bad = [k for k in horae if k not in ok and k not in both]
print(f"# gated tests passed on Horae: {len(ok)} of {len(horae)}")
for k in ok:
    if outcome(horae[k]) != "passed":
        print(f"# passed on a rerun: {k[0]}::{k[1]}")
for k in both:
    print(f"# failed on both, not held against Horae: {k[0]}::{k[1]}")
for k in bad:
    print(f"# not passed on Horae: {k[0]}::{k[1]} ({outcome(horae[k])})")
sys.exit(0 if horae and ok and not bad else 1)
PY
tap_ok "the tests gated on priority/multifactor ran on Horae and passed, but for any that failed with stock too" $?
tap_done
