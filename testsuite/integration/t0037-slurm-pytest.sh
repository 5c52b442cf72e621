#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0037: Slurm's own python testsuite as a witness (issue 20).  It runs
# once on a cluster with Slurm's stock plugins and once on one with
# Horae's (testsuite/witness/slurm-pytest.sh, about 4 minutes in all), and
# every Slurm test that passes with stock must pass with Horae.  The tests
# that skip unless slurm.conf names priority/multifactor (sprio's) run on
# Horae with that gate lifted: one check makes sure they did run and pass.
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
# priority/multifactor, ran and passed on Horae: on 22.05 in directories
# of their own, on 24.11 as tests/test_113_2.py (sprio's options),
# test_113_5.py (sprio --weights) and test_130_3.py (priorities).
python3 - "$out/horae.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
cases = [c for c in ET.parse(sys.argv[1]).getroot().iter("testcase")
         if c.get("classname", "").endswith((
             ".sprio.test_--weights", ".sprio.test_job_options",
             ".PriorityType.multifactor.test_priority",
             ".test_113_2", ".test_113_5", ".test_130_3"))]
ok = [c for c in cases if not len([k for k in c if k.tag != "properties"])]
print(f"# gated tests passed on Horae: {len(ok)} of {len(cases)}")
sys.exit(0 if cases and len(ok) == len(cases) else 1)
PY
tap_ok "the tests gated on priority/multifactor ran and passed on Horae, the gate lifted" $?
tap_done
