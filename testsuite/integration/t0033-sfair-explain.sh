#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0033: sfair --explain JOBID on a real cluster: a pending job's factors
# as sprio shows them, its account's figures, the accounts ranked above
# it (H-MRF puts accounts without usage first); a deadline job's Justice
# note and estimate; a running job; a job that does not exist.  The text
# of a pending and of a deadline job is compared with golden files, with
# job ids, times, shares and the pending reason (which depend on timing)
# blanked:
#   T0033_UPDATE=1 make -C build/testsuite check TESTS=integration/t0033-sfair-explain.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0033
dir=$HC_RUNDIR
sfair=$HORAE_BINDIR/sfair
HC_NODES='n1 2 4000' HC_HMRF_CONF=$'Period=1s' \
HC_JUSTICE_CONF=$'Period=1s' HC_EXTRA_CONF='PriorityWeightFairshare=10000' \
	hc_start
tap_ok "a 2-CPU cluster started" $? || tap_done
cd "$dir" || exit 1

# a1 fills the node and is charged; then one job each of a1, a2, a3 and
# a deadline job of a2 wait.
r=$(sbatch --parsable -A a1 -n 2 -o /dev/null --wrap 'sleep 300')
for _ in $(seq 50); do
	[ "$(squeue -h -j "$r" -o %T)" = RUNNING ] && break
	sleep 0.2
done
sleep 2
j1=$(sbatch --parsable -A a1 -n 1 -o /dev/null --wrap 'sleep 10')
j2=$(sbatch --parsable -A a2 -n 1 -o /dev/null --wrap 'sleep 10')
j3=$(sbatch --parsable -A a3 -n 1 -o /dev/null --wrap 'sleep 10')
d=$(sbatch --parsable -A a2 -n 1 -t 1 --deadline=now+10minutes \
	-o /dev/null --wrap 'sleep 10')
tap_check "four jobs wait ($j1 $j2 $j3 $d)" \
	test "$(squeue -h -t PD | wc -l)" = 4
sleep 3 # priorities recalculated, shares published
tap_diag "$(sprio -o '%.6i %8a %.10Y %.10F %.8S' 2>&1)"

out=$("$sfair" --explain="$j1" 2>&1)
tap_diag "$out"
tap_check "the text names the job, its user, account and state" \
	grep -q "^Job $j1 of root, account a1, partition batch: PENDING" <<<"$out"
tap_check "it shows the FAIRSHARE factor with what sets it" \
	grep -q "FAIRSHARE .*priority/hmrf" <<<"$out"
tap_check "and the account's figures" grep -q "^Account a1: .*beta" <<<"$out"
tap_check "and the pending jobs ranked above it: a2's and a3's" \
	grep -q "^Ranked above it in partition batch: 2 pending jobs of 2 accounts" <<<"$out"

# The text, with what varies from run to run blanked, against golden/.
golden() {
	local name=$1 got
	got=$(sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}/TIME/g' \
		-e 's/[0-9]+\.[0-9]+/F/g' -e 's/^Job [0-9]+ /Job J /' \
		-e 's/\([+-][0-9]+ s from now\)/(S s from now)/' \
		-e 's/PENDING \([A-Za-z]+\)/PENDING (REASON)/' \
		-e 's/\((in|not in) sharing loss[^)]*\)/(LOSS)/' <<<"$2")
	[ -n "${T0033_UPDATE:-}" ] && printf '%s\n' "$got" >"$HERE/integration/golden/$name"
	tap_check "the text matches golden/$name" \
		diff -u "$HERE/integration/golden/$name" - <<<"$got"
}
golden t0033-pending.out "$out"

# JSON on stdout; what sfair says on stderr (a warning on a loaded
# machine, say) is shown, not parsed.
x1=$("$sfair" --json --explain="$j1" 2>"$dir/json.err")
x2=$("$sfair" --json --explain="$j2" 2>>"$dir/json.err")
tap_check "--json: the job's account and state" \
	jq -e '.job.account == "a1" and .job.state == "PENDING" and .meta.command == "sfair --explain"' <<<"$x1"
tap_check "--json: a2 and a3, without usage, are ranked above a1's job ($(jq -c '[.ahead.accounts[].account]' <<<"$x1" 2>&1))" \
	jq -e '[.ahead.accounts[].account] | index("a2") != null and index("a3") != null and index("a1") == null' <<<"$x1"
tap_check "--json: a2's job has the larger H-MRF factor ($(jq .factors.fairshare.value <<<"$x2" 2>&1) > $(jq .factors.fairshare.value <<<"$x1" 2>&1))" \
	test "$(jq --argjson b "$(jq .factors.fairshare.value <<<"$x1")" '.factors.fairshare.value > $b' <<<"$x2")" = true
tap_check "--json: the factors sum to the priority, as sprio's do" \
	jq -e '(.factors | [.age, .assoc, .fairshare, .jobsize, .partition, .qos, .site] | map(.value) | add) - .factors.nice.value - .job.priority | fabs < 2' <<<"$x1"
tap_check "--json: a1's figures: charged usage and a sharing degree" \
	jq -e '.account.account == "a1" and .account.used.cpu > 0 and (.account.beta | type == "number") and (.account.shares.dominant_share > 0)' <<<"$x1"
tap_check "--json: no deadline" jq -e '.deadline == null' <<<"$x1"

xd=$("$sfair" --json --explain="$d" 2>>"$dir/json.err")
[ -s "$dir/json.err" ] && tap_diag "sfair --json said: $(cat "$dir/json.err")"
out=$("$sfair" --explain="$d" 2>&1)
tap_diag "$out"
golden t0033-deadline.out "$out"
tap_check "a deadline job: Justice's note at submission ($(jq -r .deadline.note <<<"$xd" 2>&1))" \
	jq -e '.deadline.note | startswith("justice: up to 1 CPUs; admitted while learning")' <<<"$xd"
tap_check "and its estimate now: still learning, 0 of 10 jobs, 2 CPUs in the cluster" \
	jq -e '.deadline.estimate | .verdict == "bootstrap" and .learnt == 0 and .bootstrap == 10 and .capacity == 2' <<<"$xd"
tap_check "and how long is left" \
	jq -e '.deadline.left > 500 and .deadline.left <= 600' <<<"$xd"

out=$("$sfair" --explain="$r" 2>&1)
tap_check "a running job: where and since when ($out)" \
	grep -q "^Job $r of root, account a1, partition batch: RUNNING on n1 since" <<<"$out"
tap_check "--json: no factors and nothing ahead" \
	jq -e '.factors == null and .ahead == null and .job.nodes == "n1"' \
	<<<"$("$sfair" --json --explain="$r" 2>>"$dir/json.err")"

out=$("$sfair" --explain=999999 2>&1)
rc=$?
tap_check "a job that does not exist: exit 2 and why (rc $rc: $out)" \
	bash -c '[ '"$rc"' = 2 ] && [ "$1" = "sfair: job 999999: no such job" ]' _ "$out"
out=$("$sfair" --explain=12x 2>&1)
rc=$?
tap_check "a job id that is none: exit 2 and why (rc $rc: $out)" \
	bash -c '[ '"$rc"' = 2 ] && [ "$1" = "sfair: --explain=12x: not a job id" ]' _ "$out"

scancel -u root
tap_done
