#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0401: horae-sim as a command: its outputs against golden files (the
# per-job CSV and the text summary of H-MRF's Table 1 run) and their
# documented fields (--json, -j FILE.json, -s FILE.json through jq), a
# trace written with --write-trace reading back to the same run, a
# Standard Workload Format log, --until, --plot, and bad options and
# traces refused with exit 1 and a message naming what is wrong and where.
#
# To regenerate the golden files after a deliberate change of format:
#   T0401_UPDATE=1 make -C build/testsuite check TESTS=sim/t0401-sim-cli.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_core_only
SIM=${HORAE_BUILDDIR:-}/../contribs/sim/horae-sim
[ -x "$SIM" ] || tap_skip_all "horae-sim not built (run through make check)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"
GOLDEN=$HERE/sim/golden
DATA=$HERE/../contribs/sim/test/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

golden()
{
	[ -n "${T0401_UPDATE:-}" ] && cp "$2" "$GOLDEN/$1"
	diff -u "$GOLDEN/$1" "$2" >"$tmp/diff" 2>&1
	tap_ok "$3 (golden/$1)" $? "$(head -20 "$tmp/diff")"
}

# refuse NAME MESSAGE ARGS...: exit 1, MESSAGE on stderr, nothing on stdout.
refuse()
{
	local name=$1 msg=$2 rc
	shift 2
	"$SIM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	tap_ok "$name" "$([ $rc = 1 ] && [ ! -s "$tmp/out" ] &&
		grep -qF -- "$msg" "$tmp/err"; echo $?)" \
		"exit $rc; stderr: $(cat "$tmp/err"); want: $msg"
}

# --- formats ---------------------------------------------------------------
"$SIM" -q -g hmrf-table1 -p drf --horizon=1 -j "$tmp/jobs.csv" \
	-o "$tmp/summary.txt"
golden table1-drf-jobs.csv "$tmp/jobs.csv" "per-job CSV"
golden table1-drf-summary.txt "$tmp/summary.txt" "text summary"
"$SIM" -q -g hmrf-table1 -p drf --horizon=1 --json -o "$tmp/summary.json"
tap_ok "the text summary is YAML, the same document as --json" \
	"$(/usr/bin/python3 -c '
import json, sys, yaml
sys.exit(yaml.safe_load(open(sys.argv[1])) != json.load(open(sys.argv[2])))
' "$tmp/summary.txt" "$tmp/summary.json" 2>&1; echo $?)"

"$SIM" -q -g eunomia-micro -p eunomia --json -j "$tmp/jobs.json" \
	-s "$tmp/series.json" --sample=10 >"$tmp/sum.json"
tap_check "--json: the summary has its documented fields" jq -e '
	(.run | has("policy") and has("placement") and has("admission") and has("seed")) and
	(.jobs | has("total") and has("ended") and has("refused") and has("dropped") and
		has("killed") and has("unfinished")) and
	(.completion_time | has("mean") and has("p50") and has("p90") and has("p99") and has("max")) and
	(.queueing_delay | has("mean")) and (.utilisation | has("cpu") and has("mem")) and
	(.accounts | length == 4) and (.accounts[0] | has("name") and has("weight") and
		has("tasks") and has("cpu_time") and has("first_start") and has("last_end")) and
	has("makespan") and has("tasks_started") and has("passes") and
	.jobs.total == 4 and .jobs.ended == 4 and .tasks_started == 4000' "$tmp/sum.json"
tap_check "-j FILE.json: each job has its documented fields" jq -e '
	length == 4 and all(.[]; has("id") and has("account") and has("submit") and
		has("start") and has("end") and has("tasks") and has("status") and
		has("met") and has("wait") and has("cpu_time") and has("nodes")) and
	(.[3].nodes | test("^gen4-[0-9]+:[0-9]+(;gen4-[0-9]+:[0-9]+)*$"))' "$tmp/jobs.json"
tap_check "-s FILE.json: each sample has its documented fields" jq -e '
	length > 0 and all(.[]; has("t") and has("account") and has("running_tasks") and
		has("pending_tasks") and has("running") and has("used") and has("aggregate") and
		has("dominant") and has("share_now") and has("beta") and
		has("progress_share") and has("task_share"))' "$tmp/series.json"

# --- a written trace reads back to the same run ---------------------------
"$SIM" -q -g justice --seed=7 --write-trace="$tmp/trace.json" --no-run
"$SIM" -q -g justice --seed=7 -a justice --json >"$tmp/a.json"
"$SIM" -q -a justice --json "$tmp/trace.json" >"$tmp/b.json"
# (Not vacuous: the generated run must have run jobs.)
tap_ok "--write-trace: the trace runs as the generated workload did" \
	"$(jq -e '.jobs.total > 0 and .tasks_started > 0' "$tmp/a.json" >/dev/null &&
	   jq -S 'del(.run)' "$tmp/a.json" >"$tmp/a.s" && jq -S 'del(.run)' "$tmp/b.json" >"$tmp/b.s" &&
	   cmp -s "$tmp/a.s" "$tmp/b.s"; echo $?)" "$(diff "$tmp/a.s" "$tmp/b.s" | head)"
"$SIM" -q -g justice --seed=7 --write-trace=- --no-run | "$SIM" -q --json -a justice - >"$tmp/c.json"
tap_ok "a trace on standard input ('-') runs the same" \
	"$([ -s "$tmp/a.s" ] && jq -S 'del(.run)' "$tmp/c.json" | cmp -s - "$tmp/a.s"; echo $?)"

# --- SWF ----------------------------------------------------------------------
"$SIM" --swf --json "$DATA/sample.swf" >"$tmp/swf.json" 2>"$tmp/swf.err"
tap_ok "an SWF log runs (jobs $(jq -r .jobs.total "$tmp/swf.json"), $(cat "$tmp/swf.err"))" \
	"$(jq -e '.jobs.total == .jobs.ended and .jobs.total > 0' "$tmp/swf.json" >/dev/null &&
	   grep -q 'skipped 2 jobs that never ran' "$tmp/swf.err"; echo $?)"

# --- --until, --plot ------------------------------------------------------------
"$SIM" -q -g eunomia-micro -p eunomia --until=10 --json >"$tmp/u.json"
tap_check "--until stops the clock: the jobs are unfinished at 10 s" \
	jq -e '.jobs.unfinished == 4 and .makespan <= 10' "$tmp/u.json"
if command -v gnuplot >/dev/null; then
	"$SIM" -q -g eunomia-micro -p eunomia --plot="$tmp/p.svg" -o /dev/null
	tap_ok "--plot writes an SVG of the progress shares" \
		"$(grep -q '<svg' "$tmp/p.svg" && grep -q 'progress_share' "$tmp/p.svg"; echo $?)"
	tap_ok "its title says which is the order and which the placement" \
		"$(grep -q 'order eunomia, placement' "$tmp/p.svg"; echo $?)"
	tap_ok "it has a line for the fair progress share" \
		"$(grep -q 'fair progress share' "$tmp/p.svg"; echo $?)"
	"$SIM" -q -g hmrf-table1 --plot="$tmp/a.svg" --plot-metric=aggregate -o /dev/null
	"$SIM" -q -g hmrf-table1 --plot="$tmp/b.svg" --plot-metric=beta -o /dev/null
	tap_ok "and the H-MRF plots one for the fair share, and beta = 1" \
		"$(grep -q 'fair: usage split by weight' "$tmp/a.svg" &&
		   grep -q 'no sharing loss (beta = 1)' "$tmp/b.svg"; echo $?)"
	"$SIM" -q -g hmrf-table1 --plot="$tmp/p.pdf" -o /dev/null
	tap_ok "--plot=FILE.pdf writes a PDF, not a PNG" \
		"$(head -c 5 "$tmp/p.pdf" | grep -q '%PDF-'; echo $?)"
else
	tap_ok "--plot (gnuplot missing: contribs/horae-deps installs it)" 1
fi

# --- refusals ---------------------------------------------------------------------
refuse "an unknown policy is named" "--policy: unknown policy 'wfq' (use fifo" -p wfq -g hmrf-table1
refuse "an unknown placement is named" "--placement: unknown placement 'worst-fit'" -P worst-fit -g hmrf-table1
refuse "an unknown admission is named" "--admission: unknown admission 'maybe'" -a maybe -g hmrf-table1
refuse "a bad window is named" "--window:" -w sliding:x -g hmrf-table1
refuse "a bad duration is named" "--sample:" --sample=-3 -g hmrf-table1
refuse "an unknown generator lists the known" "unknown generator 'nope' (use hmrf-table1" -g nope
refuse "a missing trace names the file" "$tmp/none.json" "$tmp/none.json"
refuse "TRACE and --generate together" "give a TRACE or --generate, not both" -g hmrf-table1 x.json
refuse "no trace at all" "give one TRACE" -q
printf '{"version":1,"nodes":[{"name":"n","tres":"cpu=4"}],"jobs":[{"account":"a","tasks":1,"task_tres":"cpu=1","work":1,"taks":2}]}\n' >"$tmp/bad.json"
refuse "an unknown member names the file and the job" "bad.json: jobs[0]: unknown member 'taks'" "$tmp/bad.json"
printf '{"version":1,"nodes":[{"name":"n","tres":"cpu=4"}],"jobs":[{"account":"a","tasks":1,"task_tres":"cpu=8","work":1}]}\n' >"$tmp/big.json"
refuse "a job whose task fits no node is named" "big.json: jobs[0]: job 1: a task (cpu=8) fits on no node" "$tmp/big.json"
printf '1 0 0 10 4 -1 -1 4 -1 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 0 10\n' >"$tmp/bad.swf"
refuse "a short SWF line names the file and line" "bad.swf" --swf --swf-nodes=4 "$tmp/bad.swf"
printf '; MaxNodes: 4\n; MaxProcs: 16\n1 0 0 -1 4 -1 -1 4 -1 -1 0 1 1 -1 -1 -1 -1 -1\n' >"$tmp/none.swf"
refuse "an SWF log where no job ran says so" "none.swf: no job that ran (1 skipped)" --swf "$tmp/none.swf"
refuse "--plot with a name gnuplot cannot write is refused" "--plot: 'x.jpg': the file name must end in .png, .svg or .pdf" --plot=x.jpg -g hmrf-table1
refuse "--seed=-1 is refused, not wrapped" "--seed: '-1' is not a whole number from 0 to" --seed=-1 -g hmrf-table1
refuse "-s - with the summary on stdout is refused" "--series - and the summary would both go to standard output" -s - -g hmrf-table1
refuse "a sample period too short for the run is refused, memory bounded" "a sample every 1e-300 s makes more than 1000000 samples" --sample=1e-300 -s /dev/null -g hmrf-table1
printf '{"version":1,"nodes":[{"name":"n","tres":"cpu=4"}],"accounts":[],"jobs":[]}\n' >"$tmp/noacc.json"
refuse "a trace without accounts names the file" "noacc.json: the trace has no accounts" "$tmp/noacc.json"
printf '{"version":1,"nodes":[{"name":"n","tres":"cpu=4"}],"jobs":[],}\n' >"$tmp/comma.json"
refuse "a trailing comma is refused with its line" "comma.json: line 1: a comma before '}' (trailing comma)" "$tmp/comma.json"
printf '{"version":1,\n"version":1,"nodes":[{"name":"n","tres":"cpu=4"}],"jobs":[]}\n' >"$tmp/dup.json"
refuse "a key given twice is refused, not the last taken" "dup.json: line 2: key \"version\" given twice in one object (first on line 1)" "$tmp/dup.json"
printf '; MaxNodes: 0\n1 0 0 10 4 -1 -1 4 -1 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/zero.swf"
refuse "an SWF header MaxNodes of 0 is named, not called missing" "zero.swf: line 1 has MaxNodes: 0, not a count" --swf "$tmp/zero.swf"
# A site's history: sacct's records and scontrol's nodes (test/data).
"$SIM" --sacct --sacct-nodes="$DATA/nodes.txt" --speed-map=gen1:1,gen4:3 \
	-p eunomia --json "$DATA/sacct.txt" >"$tmp/sacct.json" 2>"$tmp/sacct.err"
tap_ok "--sacct replays the records that started and ended" \
	"$(jq -e '.jobs.total == 3 and .jobs.ended == 3' "$tmp/sacct.json" >/dev/null; echo $?)" \
	"$(cat "$tmp/sacct.err")"
tap_ok "and says what it left out, why, and the first record of each" \
	"$(grep -q 'sacct.txt: 2 never started (first: line 4, job 103)' "$tmp/sacct.err" &&
	   grep -q 'sacct.txt: 3 of 8 records replayed' "$tmp/sacct.err"; echo $?)" \
	"$(cat "$tmp/sacct.err")"
refuse "--sacct without the nodes is refused" "--sacct needs --sacct-nodes=FILE" --sacct "$DATA/sacct.txt"
tap_check "--help exits 0 and lists the policies" sh -c "'$SIM' --help | grep -q 'tsf-cluster'"

tap_done
