#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0032: sfair under PrivateData=usage on a real cluster.  Users who are
# not operators see only the accounts they have jobs in (their own view,
# published by priority/hmrf and select/eunomia, readable by them alone,
# refreshed every ten periods, and made again when removed; a job that
# waits counts as one that runs);
# root sees every account; a user without jobs is told why there is
# nothing; nobody can read another user's view.  Without PrivateData the
# plugins' files are readable by all and the views go away.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0032
dir=$HC_RUNDIR
state=$dir/state
sfair=$HORAE_BINDIR/sfair
# Users: root, and (hc_as) two that exist on every Debian system: nobody
# and daemon (uid 1).
HC_NODES=$'n1 4 4000 gen1\nn2 4 4000 gen2' \
HC_EUNOMIA_CONF=$'SpeedMap=gen1:1,gen2:2\nWindow=none\nPeriod=1s' \
HC_HMRF_CONF=$'Period=1s' HC_EXTRA_CONF='PrivateData=usage' hc_start
tap_ok "a cluster with PrivateData=usage started" $? || tap_done
cd "$dir" || exit 1

# One running job in an account of its own for root, nobody and daemon.
sbatch -A ops -n 1 -o /dev/null --wrap 'sleep 120' >/dev/null
nj=$(hc_as 65534 sbatch --parsable -A nobodys -n 1 -D /tmp -o /dev/null \
	--wrap 'sleep 120')
hc_as 1 sbatch -A daemons -n 1 -D /tmp -o /dev/null --wrap 'sleep 120' \
	>/dev/null
for _ in $(seq 100); do
	[ "$(squeue -h -t R | wc -l)" = 3 ] && break
	sleep 0.2
done
tap_check "three jobs of three users run" test "$(squeue -h -t R | wc -l)" = 3
# views UID NAME...: wait up to ten seconds for the view UID.NAME of
# each NAME; 0 when all are there.
views()
{
	local uid=$1 f
	shift
	for _ in $(seq 50); do
		missing=0
		for f in "$@"; do
			[ -f "$state/horae_view/$uid.$f" ] || missing=1
		done
		[ $missing = 0 ] && return 0
		sleep 0.2
	done
	return 1
}
# Views follow each period; wait for both plugins' views of both users.
views 65534 horae_hmrf.state horae_eunomia.shares &&
	views 1 horae_hmrf.state horae_hmrf.shares
tap_ok "each user got a view of usage, shares and progress" $? \
	"$(ls -l "$state/horae_view" 2>&1)"
# A view is refreshed every ten periods (Period=1s), not each period: it
# is written again within ten periods (the first time maybe sooner: views
# made together are spread), and after that refresh not for three periods.
v=$state/horae_view/65534.horae_hmrf.state
computed() { sed -n 2p "$v" 2>/dev/null | jq -r .charged_until 2>/dev/null; }
first=$(computed)
for _ in $(seq 60); do
	[ "$(computed)" != "$first" ] && break
	sleep 0.5
done
second=$(computed)
tap_check "a view is written again within ten periods ($first, then $second)" \
	test -n "$first" -a "$second" != "$first"
sleep 3
tap_check "and not in the three periods after ($second, then $(computed))" \
	test "$(computed)" = "$second"
# A view that goes (removed by hand) is made again at the next period,
# due or not: each publication reads the view directory.  hmrf's was
# refreshed at $second, so a refresh that was due would carry $second + 9
# or later; one made because the file went carries an earlier time, a
# slow machine's late periods notwithstanding.
ev=$state/horae_view/65534.horae_eunomia.shares
rm -f "$v" "$ev"
for _ in $(seq 75); do
	[ -f "$v" ] && [ -f "$ev" ] && break
	sleep 0.2
done
back=$(computed)
tap_check "views removed by hand are back ($(ls "$state/horae_view" | tr '\n' ' '))" \
	test -f "$v" -a -f "$ev"
tap_check "hmrf's before its refresh was due (refreshed at $second, back at $back)" \
	test -n "$back" -a "${back:-0}" -lt $((second + 9))

mode() { stat -c %a "$1" 2>&1; }
tap_check "the plugins' own files are private ($(mode "$state/horae_hmrf.state") $(mode "$state/horae_hmrf.shares") $(mode "$state/horae_eunomia.shares"))" \
	test "$(mode "$state/horae_hmrf.state")$(mode "$state/horae_hmrf.shares")$(mode "$state/horae_eunomia.shares")" = 600600600
tap_check "Justice's state, the cluster's and no account's, is readable by all ($(mode "$state/horae_justice.state"))" \
	test "$(mode "$state/horae_justice.state")" = 644
tap_check "the view directory can be passed through but not listed ($(mode "$state/horae_view"))" \
	test "$(mode "$state/horae_view")" = 711
tap_check "root and SlurmUser get no view: they read the plugins' files" \
	test -z "$(ls "$state/horae_view" | grep '^0\.')"

accounts() { jq -r '[.accounts[].account] | sort | join(",")'; }
out=$(hc_as 65534 "$sfair" --json 2>&1)
tap_check "nobody sees only its own account in sfair ($(accounts <<<"$out" 2>&1))" \
	test "$(accounts <<<"$out")" = nobodys
tap_check "sfair says it shows nobody's own view" \
	test "$(jq -r .meta.own_view <<<"$out")" = true
# The view refreshed above may have been made as nobody's job started,
# with no usage yet: the one after it (ten periods on at most) has some.
shows_usage() { jq -e '.accounts[0] | (.used.cpu > 0) and (.shares.contribution > 0) and (.progress.share >= 0)' <<<"$out" >/dev/null 2>&1; }
for _ in $(seq 60); do
	shows_usage && break
	sleep 0.5
	out=$(hc_as 65534 "$sfair" --json 2>&1)
done
shows_usage
tap_ok "within ten periods nobody's view shows its account's usage, a contribution and a progress share" $? \
	"$(jq -c '.meta, .accounts' <<<"$out" 2>&1 || echo "$out"); views: $(ls -l --time-style=+%T "$state/horae_view" 2>&1)"
out=$(hc_as 1 "$sfair" -n -P -o Account,Used:cpu,ProgressShare 2>&1)
tap_check "daemon sees only its own account ($(echo $out))" \
	test "$(cut -d'|' -f1 <<<"$out")" = daemons
out=$(hc_as 1 "$sfair" -A nobodys,ops -n -P -o Account 2>&1)
tap_check "asking for other accounts shows none of them ('$out')" \
	test -z "$out"
out=$("$sfair" --json 2>&1)
tap_check "root sees all three accounts ($(accounts <<<"$out" 2>&1))" \
	test "$(accounts <<<"$out")" = daemons,nobodys,ops
tap_check "and reads the plugins' own files" \
	test "$(jq -r .meta.own_view <<<"$out")" = false
out=$(hc_as 65534 "$sfair" --json --explain="$nj" 2>&1)
tap_check "nobody's --explain of its job shows its account from its view" \
	jq -e '.job.account == "nobodys" and .account.account == "nobodys" and .meta.own_view' <<<"$out"
out=$(hc_as 2 "$sfair" 2>&1)
rc=$?
tap_check "a user without jobs is refused (rc $rc) with the reason: $out" \
	bash -c '[ '"$rc"' = 2 ] && grep -q "no view for you (uid 2)" <<<"$1"' _ "$out"
tap_check "nobody cannot read daemon's view" \
	bash -c '! setpriv --reuid=65534 --regid=65534 --clear-groups cat "$1" >/dev/null 2>&1' _ "$state/horae_view/1.horae_hmrf.state"
tap_check "nor the plugins' own usage" \
	bash -c '! setpriv --reuid=65534 --regid=65534 --clear-groups cat "$1" >/dev/null 2>&1' _ "$state/horae_hmrf.state"
out=$(hc_as 65534 "$sfair" -D -n -P 2>&1)
rc=$?
tap_check "sfair -D works for nobody too (rc $rc: $out)" test "$rc" = 0

# A user whose only job waits (held) reads its account too: each
# plugin lists the readers in the walk of the jobs it makes anyway, every
# job whatever its state.  sys (uid 3) in daemon's account.
hc_as 3 sbatch -H -A daemons -n 1 -D /tmp -o /dev/null --wrap 'sleep 1' \
	>/dev/null
views 3 horae_hmrf.state horae_hmrf.shares horae_eunomia.shares
tap_ok "a user with only a held job gets a view from both plugins" $? \
	"$(ls -l "$state/horae_view" 2>&1)"
out=$(hc_as 3 "$sfair" -n -P -o Account 2>&1)
tap_check "and sees only that job's account ($(echo $out))" \
	test "$out" = daemons
scancel -u sys

# PrivateData off: everything readable, no view left behind.
sed -i '/^PrivateData=/d' "$SLURM_CONF"
scontrol reconfigure
for _ in $(seq 50); do
	[ "$(mode "$state/horae_hmrf.state")" = 644 ] &&
		[ -z "$(ls -A "$state/horae_view")" ] && break
	sleep 0.2
done
tap_check "without PrivateData the usage file is readable by all ($(mode "$state/horae_hmrf.state"))" \
	test "$(mode "$state/horae_hmrf.state")" = 644
tap_check "and no view is left ($(ls -A "$state/horae_view" | tr '\n' ' '))" \
	test -z "$(ls -A "$state/horae_view")"
out=$(hc_as 65534 "$sfair" --json 2>"$dir/sfair.err")
tap_check "sfair warns of nothing ($(cat "$dir/sfair.err"))" \
	test ! -s "$dir/sfair.err"
tap_check "nobody now sees every account ($(accounts <<<"$out" 2>&1))" \
	test "$(accounts <<<"$out")" = daemons,nobodys,ops
tap_check "from the plugins' own files" \
	test "$(jq -r .meta.own_view <<<"$out")" = false

scancel -u root
scancel -u nobody
scancel -u daemon
tap_done
