#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0301: sfair's output formats against golden files, on a fixed state
# file (data/horae_hmrf.state: four accounts, a tumbling 1-day window,
# saved by priority/hmrf on a real cluster and given that window), at a
# fixed time and in UTC: the table, -l, -p, -P, -n, -o, -A, a time past
# the window, and --json, whose documented fields jq checks too; the same
# with priority/hmrf's published view (data/eunomia/horae_hmrf.shares, of
# the previous format, version 1, which sfair still reads:
# Contribution, DominantShare and AggregateShare join the default
# columns, FairShare and SharingLoss -l's) and select/eunomia's published
# progress shares beside it
# (data/eunomia/horae_eunomia.shares: ProgressShare and FairProgressShare
# join the default columns) and job_submit/justice's state
# (data/eunomia/horae_justice.state, the history of justice_test's steps:
# fraction 0.4, -D).  Bad options and files exit 2 (or warn, for
# the optional shares; a view of a format newer than sfair reads) and name
# what is wrong.  A file's age against the
# clock: a user's own view (PrivateData=usage) is stale only past ten
# Periods and two, the plugin's file past one and two, each checked on
# both sides with the data file saved again with its times moved.
#
# To regenerate a golden file after a deliberate change of format:
#   T0301_UPDATE=1 make -C build/testsuite check TESTS=cli/t0301-sfair-output.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
SFAIR=${HORAE_BINDIR:-}/sfair
[ -x "$SFAIR" ] || tap_skip_all "sfair not built (run through make check)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"

STATE=$HERE/cli/data/horae_hmrf.state
GOLDEN=$HERE/cli/golden
AT=1795326420	# 2026-11-22T05:47:00Z, when the file was saved
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# aged SRC DST AGE: SRC's state saved again to DST as if computed AGE
# seconds ago: every time in it moved by the same amount, its header made
# again (lib/horae_state.py).
aged()
{
	PYTHONPATH=$HERE/lib python3 - "$@" <<'PY'
import sys, time
import horae_state
src, dst, age = sys.argv[1], sys.argv[2], float(sys.argv[3])
head, doc = horae_state.read(src)
d = time.time() - age - doc["charged_until"]
doc["charged_until"] += d
doc["last_start"] = [t + d for t in doc["last_start"]]
for k in ("usage", "nonsharing"):
    doc[k]["now"] += d
horae_state.write(dst, head["format"], head["version"], doc)
PY
}

# golden NAME ARGS...: sfair's output against golden/NAME.out
golden()
{
	local name=$1 rc
	shift
	"$SFAIR" -S "$STATE" --at=$AT "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	if [ -n "${T0301_UPDATE:-}" ]; then
		cp "$tmp/$name.out" "$GOLDEN/$name.out"
	fi
	tap_ok "sfair ${*:-(no options)} matches golden/$name.out" \
		$([ $rc = 0 ] && [ ! -s "$tmp/$name.err" ] &&
		  diff -u "$GOLDEN/$name.out" "$tmp/$name.out" >"$tmp/diff" 2>&1; echo $?) \
		"exit $rc; $(cat "$tmp/$name.err" "$tmp/diff" 2>/dev/null | head -20)"
}
golden table
golden long -l
golden parsable -p
golden parsable2 -P
golden noheader -n -A a2,a4
golden format -o Account,Used:cpu,NonSharing:cpu,Beta
golden format-long -l -o account,laststart,windowstart,windowend
# A day later the tumbling window has moved on: nothing used in it.
AT=$((AT + 86400)) golden next-window -A a1
# With progress shares.
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden eunomia-table
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden eunomia-long -l -P
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden eunomia-format \
	-o Account,Progress,ProgressShare,FairProgressShare -A a4
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden hmrf-format \
	-o Account,Contribution,FairShare:cpu,Used:cpu,DominantShare,AggregateShare,SharingLoss
# Justice's learnt fraction and counts.
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden justice -D
STATE=$HERE/cli/data/eunomia/horae_hmrf.state golden justice-parsable -D -p

# --json: the document with the version and the files' paths taken out
# (they change with the release and the checkout) against its golden file.
json_golden()
{
	local name=$1 state=$2 rc
	"$SFAIR" -S "$state" --at=$AT --json >"$tmp/$name" 2>&1
	rc=$?
	jq 'del(.meta.version, .meta.state_file, .meta.shares_file, .meta.progress_file, .justice.file?)' \
		"$tmp/$name" >"$tmp/$name.cmp" 2>&1
	[ -n "${T0301_UPDATE:-}" ] && cp "$tmp/$name.cmp" "$GOLDEN/$name.out"
	tap_ok "sfair --json is JSON and matches golden/$name.out" \
		$([ $rc = 0 ] && diff -u "$GOLDEN/$name.out" "$tmp/$name.cmp" >"$tmp/diff"; echo $?) \
		"$(head -20 "$tmp/diff" "$tmp/$name")"
}
json_golden json "$STATE"
json_golden eunomia-json "$HERE/cli/data/eunomia/horae_hmrf.state"
jq -e --arg d "$HERE/cli/data/eunomia/" '.meta.progress_file == $d + "horae_eunomia.shares"
	and (.meta.progress_at | type == "number")
	and all(.accounts[]; .progress | (.progress | type == "number")
		and (.share | type == "number") and (.fair_share | type == "number"))' \
	"$tmp/eunomia-json" >/dev/null 2>&1
tap_ok "sfair --json with progress shares: progress_file, progress_at and each account's progress object" $?
jq -e --arg d "$HERE/cli/data/eunomia/" '.justice | .file == $d + "horae_justice.state"
	and .jobs_learnt == 3 and (.fraction - 0.4 | fabs) < 1e-9
	and .min_fraction == 0.2 and .max_fraction == 0.9
	and (.counts | keys_unsorted == ["admitted", "sized", "refused", "dropped", "killed", "learnt"])' \
	"$tmp/eunomia-json" >/dev/null 2>&1
tap_ok "sfair --json with Justice's state: file, jobs_learnt, fraction 0.4, min and max, counts" $?
jq -e --arg d "$HERE/cli/data/eunomia/" '.meta.shares_file == $d + "horae_hmrf.shares"
	and (.meta.shares_at | type == "number")
	and (.tres as $t | all(.accounts[]; .shares | (.contribution | type == "number")
		and (.fair_share | keys_unsorted == $t)
		and (.dominant_share | type == "number")
		and (.aggregate_share | type == "number")))
	and ([.accounts[].shares.contribution] == [0.5, 0.25, 0.25, 0])' \
	"$tmp/eunomia-json" >/dev/null 2>&1
tap_ok "sfair --json with priority/hmrf's view: shares_file, shares_at, contributions 0.5/0.25/0.25/0 and each account's shares" $?
# The view of a format newer than this sfair reads (the plugin upgraded
# before the login nodes): a warning that names the versions, the rest
# shown.
mkdir "$tmp/v3" && cp "$HERE"/cli/data/eunomia/* "$tmp/v3/" &&
	sed -i '1s/"version":[0-9]*/"version":3/' "$tmp/v3/horae_hmrf.shares"
out=$("$SFAIR" -S "$tmp/v3/horae_hmrf.state" --at=$AT --json 2>"$tmp/v3.err")
rc=$?
tap_ok "a view of format version 3: exit 0, the versions named ($(cat "$tmp/v3.err")), no shares, the rest shown" \
	$([ $rc = 0 ] && grep -q "horae_hmrf.shares: format version 3, this build reads 1 to 2;.*contributions and shares not shown" "$tmp/v3.err" &&
	  jq -e '.meta.shares_file == null and (.accounts | length) == 4
		and all(.accounts[]; .shares == null)' <<<"$out" >/dev/null; echo $?)
out=$("$SFAIR" -S "$STATE" --at=$AT -D 2>&1)
tap_ok "sfair -D without Justice's state: exit 2 and why ($out)" \
	$([ $? = 2 ] && [ "$out" = "sfair: no Justice state beside $STATE: is job_submit/justice enabled?" ]; echo $?)
# The fields sfair(1) documents, with their types.
jq -e --arg s "$STATE" '
	(.meta | .command == "sfair" and (.version | type == "string")
		and (.saved | type == "number") and (.stale | type == "boolean")
		and (.own_view == false)
		and .state_file == $s and (.at | type == "number")
		and (.window | type == "string")
		and (.window_start | type == "number" or . == null)
		and (.window_end | type == "number")
		and (.shares_file == null) and (.shares_at == null)
		and (.progress_file == null) and (.progress_at == null))
	and (.tres | type == "array" and length > 0)
	and (.tres as $t | .accounts | length > 0 and all(
		(.account | type == "string")
		and (.used | keys_unsorted == $t)
		and (.non_sharing | keys_unsorted == $t)
		and (.beta | type == "number" or . == null)
		and (.last_start | type == "number" or . == null)
		and (.sharing_loss | type == "boolean")
		and (.shares == null) and (.progress == null)))
	and (.justice == null)' \
	"$tmp/json" >/dev/null 2>&1
tap_ok "sfair --json has every documented field with its type" $?
n=$(jq '.accounts | length' "$tmp/json")
tap_ok "sfair --json lists the four accounts ($n)" $([ "$n" = 4 ]; echo $?)

# Without --at the file is judged against the clock: this one was written
# long ago, so sfair warns (and still shows it); --json says so too.
err=$(SLURM_CONF=$tmp/slurm.conf "$SFAIR" -S "$STATE" -n -A a1 2>&1 >/dev/null)
rc=$?
tap_ok "a state file not written for three periods: a warning with its age, exit 0" \
	$([ $rc = 0 ] && [[ "$err" == "sfair: warning: $STATE was last written "*" s ago, but priority/hmrf writes it every 30 s: is slurmctld running with PriorityType=priority/hmrf?" ]]; echo $?) \
	"got ($rc): $err"
stale=$(SLURM_CONF=$tmp/slurm.conf "$SFAIR" -S "$STATE" --json 2>/dev/null | jq .meta.stale)
tap_ok "and --json says stale: true ($stale)" $([ "$stale" = true ]; echo $?)

# bad NAME WANT ARGS...: exit 2, WANT on stderr, nothing on stdout
bad()
{
	local name=$1 want=$2 out err rc
	shift 2
	out=$("$SFAIR" -S "$STATE" "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	tap_ok "$name: exit 2, '$want'" \
		$([ $rc = 2 ] && [ -z "$out" ] && [ "$err" = "$want" ]; echo $?) \
		"got ($rc): $err / $out"
}
bad "an unknown field" \
	"sfair: --format: unknown field 'Colour' (Account, Contribution, Used[:TRES], NonSharing[:TRES], FairShare[:TRES], Beta, SharingLoss, DominantShare, AggregateShare, LastStart, WindowStart, WindowEnd, Progress, ProgressShare, FairProgressShare)" \
	-o Account,Colour
bad "a TRES the state does not have" \
	"sfair: --format: Used:gpu: no TRES 'gpu' in the state file" -o Used:gpu
bad "a field that takes no TRES" \
	"sfair: --format: field 'Beta' takes no ':TRES'" -o Beta:cpu
bad "a width that is no number" \
	"sfair: --format: Beta%x: a width is a number from 1 to 200" -o 'Account,Beta%x'
out=$("$SFAIR" -S "$STATE" --at=$AT -o 'Account%1,Beta%6,Used:cpu%5' 2>&1 | head -2 | tr '\n' '/')
tap_ok "widths as sshare's (Field%N): columns of N, longer values cut" \
	$([ "$out" = "A   Beta Used:/a 3.0595   514/" ]; echo $?) "$out"
out=$("$SFAIR" -S "$STATE" --at=$AT 2>&1 | awk '{ if (length($0) > m) m = length($0) } END { print m }')
tap_ok "the default table fits 100 columns ($out)" $([ "$out" -le 100 ]; echo $?)
# --at takes Slurm's time formats too (TZ=UTC): the same table.
"$SFAIR" -S "$STATE" --at=$AT -n -P >"$tmp/at.epoch" 2>&1
"$SFAIR" -S "$STATE" --at=2026-11-22T05:47:00 -n -P >"$tmp/at.slurm" 2>&1
tap_ok "--at=2026-11-22T05:47:00 reads as --at=$AT" \
	$(cmp -s "$tmp/at.epoch" "$tmp/at.slurm"; echo $?) \
	"$(diff "$tmp/at.epoch" "$tmp/at.slurm" | head -4)"
# now: as the clock's seconds (again if a second turned in between).
for _ in 1 2 3; do
	t=$(date +%s)
	"$SFAIR" -S "$STATE" --at=now --json 2>&1 | jq -c .meta >"$tmp/at.now"
	"$SFAIR" -S "$STATE" --at="$t" --json 2>&1 | jq -c .meta >"$tmp/at.clock"
	[ "$(date +%s)" = "$t" ] && break
done
tap_ok "--at=now reads as the clock's time ($t: $(jq .at "$tmp/at.now"))" \
	$(cmp -s "$tmp/at.now" "$tmp/at.clock"; echo $?) \
	"$(diff "$tmp/at.now" "$tmp/at.clock" | head -4)"
out=$("$SFAIR" -S "$STATE" --at=yesterday-ish 2>&1)
tap_ok "--at with no time in it: exit 2, what it takes said" \
	$([ $? = 2 ] && [[ "$out" == *"--at=yesterday-ish: not a time"* ]]; echo $?) "$out"
bad "an unknown option: one line and a hint, not the whole help" \
	"sfair: unrecognized option '--colour'
Try 'sfair --help' for the options." --colour
bad "a state file that does not exist" \
	"sfair: $tmp/none does not exist: priority/hmrf has not saved any usage yet" \
	-S "$tmp/none"
printf 'garbage\n' >"$tmp/garbage.state"
out=$("$SFAIR" -S "$tmp/garbage.state" 2>&1)
tap_ok "a damaged state file: exit 2 and the file named ($out)" \
	$([ $? = 2 ] && [[ "$out" == *"$tmp/garbage.state"* ]]; echo $?)
# Damaged progress shares: a warning naming the file, the rest shown.
mkdir "$tmp/d"
cp "$HERE/cli/data/eunomia/horae_hmrf.state" "$tmp/d/"
printf 'garbage\n' >"$tmp/d/horae_eunomia.shares"
"$SFAIR" -S "$tmp/d/horae_hmrf.state" --at=$AT -n -o Account,ProgressShare -A a1 >"$tmp/out" 2>"$tmp/err"
rc=$?
tap_ok "damaged progress shares: exit 0, a warning naming the file, '-' in their column" \
	$([ $rc = 0 ] && grep -q "sfair: warning: .*$tmp/d/horae_eunomia.shares.*progress shares not shown" "$tmp/err" &&
	  [ "$(tr -s ' ' <"$tmp/out")" = "a1 -" ]; echo $?) "got ($rc): $(cat "$tmp/err" "$tmp/out")"
# Files another user may not read (PrivateData=usage): sfair says why.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 0755 "$tmp"
	mkdir -m 0755 "$tmp/open" && mkdir -m 0700 "$tmp/closed"
	cp "$STATE" "$tmp/open/" && cp "$STATE" "$tmp/closed/"
	chmod 0600 "$tmp/open/horae_hmrf.state"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SFAIR" -S "$tmp/open/horae_hmrf.state" 2>&1)
	rc=$?
	tap_ok "a user who may not read the usage and has no view: exit 2 and why" \
		$([ $rc = 2 ] && grep -q "no view for you (uid 65534) in $tmp/open/horae_view/" <<<"$out"; echo $?) "$out"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SFAIR" -S "$tmp/closed/horae_hmrf.state" 2>&1)
	rc=$?
	tap_ok "a StateSaveLocation closed to users: exit 2 and why" \
		$([ $rc = 2 ] && grep -q "closed to users" <<<"$out"; echo $?) "$out"
	# A user's own view is refreshed every ten Periods (view_clock.h):
	# sfair calls it stale only past ten Periods and two more, plus 5 s
	# (Period=30: 365 s); the plugin's own file past one Period and two
	# more (95 s).  Each file is the data file saved again with its
	# times moved so that it was computed AGE seconds ago.
	mkdir -m 0711 "$tmp/open/horae_view"
	view=$tmp/open/horae_view/65534.horae_hmrf.state
	# own_view AGE: what sfair, run as nobody, prints on stderr, with
	# its view made AGE seconds old just before.
	own_view()
	{
		aged "$STATE" "$view" "$1" && chmod 0644 "$view"
		SLURM_CONF=$tmp/slurm.conf setpriv --reuid=65534 \
			--regid=65534 --clear-groups "$SFAIR" \
			-S "$tmp/open/horae_hmrf.state" -n -A a1 2>&1 >/dev/null
	}
	out=$(own_view 330)
	tap_ok "a user's own view computed eleven Periods ago: no warning" \
		$([ -z "$out" ]; echo $?) "$out"
	out=$(own_view 400)
	tap_ok "a user's own view computed 400 s ago (past 365 s): a warning that it is written every 300 s" \
		$([[ "$out" == "sfair: warning: $view was last written "*" s ago, but priority/hmrf writes it every 300 s: is slurmctld running"* ]]; echo $?) "$out"
	# root reads the plugin's file: stale past 95 s.
	aged "$STATE" "$tmp/open/horae_hmrf.state" 80
	out=$(SLURM_CONF=$tmp/slurm.conf "$SFAIR" -S "$tmp/open/horae_hmrf.state" -n -A a1 2>&1 >/dev/null)
	tap_ok "the plugin's file computed 80 s ago: no warning" \
		$([ -z "$out" ]; echo $?) "$out"
	aged "$STATE" "$tmp/open/horae_hmrf.state" 110
	out=$(SLURM_CONF=$tmp/slurm.conf "$SFAIR" -S "$tmp/open/horae_hmrf.state" -n -A a1 2>&1 >/dev/null)
	tap_ok "the plugin's file computed 110 s ago (past 95 s): a warning that it is written every 30 s" \
		$([[ "$out" == *"was last written "*" s ago, but priority/hmrf writes it every 30 s"* ]]; echo $?) "$out"
fi
tap_done
