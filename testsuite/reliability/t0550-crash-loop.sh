#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0550: slurmctld with all three plugins, under a stream of submissions,
# killed with SIGKILL at random moments (every 4-10 s) and restarted each
# time.  Checked: every restart comes up; after every kill each plugin's
# state file reads back; slurmctld logs no crash; no node drains but for
# slurmctld's own stale job state; and
# priority/hmrf's accounted usage of each account equals the CPU time its
# jobs ran by slurmctld's records, within what one save period of the
# whole cluster per kill can lose (or, for jobs slurmctld itself forgot,
# add).
#
# What SIGKILL does to slurmctld itself, with or without our plugins, and
# how the test keeps it apart from what it tests: slurmctld writes its
# job state a moment after a change, so
# - a job accepted just before a kill can be forgotten; the test asserts
#   that every job missing from slurmctld's records was accepted within
#   the last few seconds before a kill, and shows how many;
# - forgotten ids are handed out again after the restart, and a node
#   still running the forgotten job then drains ("Duplicate jobid"): the
#   test raises FirstJobId past every id handed out before each restart;
# - a job that had started may be recovered as pending and started again
#   while its node still runs it: that node drains ("Duplicate jobid" too;
#   seen in 20-kill runs): the test shows and resumes such nodes, and
#   fails on a node drained for any other reason;
# - a job that had ended may be recovered as running, and one whose launch
#   a kill cut short is requeued and held: both stay until someone ends
#   them; the test shows them and cancels them before comparing.
#
# CI kills 3 times; the long version:
#   T0550_KILLS=20 make -C build/testsuite check TESTS=reliability/t0550-crash-loop.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

KILLS=${T0550_KILLS:-3}
PERIOD=2
CPUS=24 # the default test cluster: 4 + 4 + 8 + 8
LOSS=5	# s: a job accepted this close before a kill may be forgotten
hc_test_setup t0550
dir=$HC_TEST_DIR
cd "$dir" || exit 1
submitter=
trap '[ -n "$submitter" ] && kill "$submitter" 2>/dev/null; hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "$dir"' EXIT

HC_HMRF_CONF=$"Window=none"$'\n'"Period=${PERIOD}s" \
HC_EUNOMIA_CONF=$"SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3"$'\n'"Period=${PERIOD}s" \
HC_JUSTICE_CONF="Period=${PERIOD}s" HC_EXTRA_CONF="MinJobAge=3600" hc_start
tap_ok "a cluster with priority/hmrf, select/eunomia and job_submit/justice is up" $? ||
	tap_done

# The load: short jobs of three accounts, one every 0.3 s, some with a
# deadline.  "accepted-at id" per job; sbatch's failures while slurmctld
# is down are counted.
(
	i=0
	while :; do
		i=$((i + 1))
		acct=$(printf 'physics\nbio\nchem\n' | sed -n "$((i % 3 + 1))p")
		dl=
		[ $((i % 5)) = 0 ] && dl="--deadline=now+10minutes -t 2"
		# shellcheck disable=SC2086
		if id=$(sbatch --parsable -A "$acct" -n $((i % 4 + 1)) \
			-o /dev/null $dl --wrap "sleep $((i % 4 + 1))" 2>/dev/null); then
			echo "$(date +%s.%N) $id" >>"$dir/submitted"
		else
			echo x >>"$dir/failed"
		fi
		sleep 0.3
	done
) &
submitter=$!

bad_state=0 restarts=0
: >"$dir/kills"
for k in $(seq "$KILLS"); do
	sleep $((RANDOM % 7 + 4))
	hc_kill_ctld KILL || break
	date +%s.%N >>"$dir/kills"
	for f in horae_hmrf.state horae_eunomia.state horae_justice.state; do
		[ -e "$dir/state/$f" ] || continue
		case $f in
		horae_hmrf.state) "$SFAIR" -S "$dir/state/$f" >/dev/null 2>"$dir/read.err" ;;
		*) jq -e . "$dir/state/$f" >/dev/null 2>"$dir/read.err" ;;
		esac || {
			bad_state=$((bad_state + 1))
			tap_diag "kill $k: $f: $(cat "$dir/read.err")"
		}
	done
	# No id handed out before is handed out again (see the header).
	top=$(awk '{ print $2 }' "$dir/submitted" 2>/dev/null | sort -n | tail -1)
	sed -i '/^FirstJobId=/d' "$HC_CONF"
	echo "FirstJobId=$((${top:-0} + 100))" >>"$HC_CONF"
	hc_start_slurmctld
	hc_wait_ctld 30 && restarts=$((restarts + 1))
done
kill "$submitter" 2>/dev/null
wait "$submitter" 2>/dev/null
submitter=
tap_ok "slurmctld restarted after each of $KILLS SIGKILLs ($restarts)" \
	"$([ "$restarts" = "$KILLS" ]; echo $?)" "$(tail -20 "$dir/log/slurmctld.log")"
tap_ok "every plugin's state file read back after every kill" "$bad_state"

drained=$(sinfo -h -N -t drain -o '%N %E' | sort -u)
other=$(echo "$drained" | grep -v ' Duplicate jobid$' | grep .)
tap_ok "no node was drained but for slurmctld's stale job state" \
	$([ -z "$other" ]; echo $?) "$other"
if [ -n "$drained" ]; then
	tap_diag "drained by slurmctld: $(echo "$drained" | tr '\n' ';'); resumed"
	scontrol update nodename="$(echo "$drained" | awk '{ print $1 }' | paste -sd, -)" state=resume
fi
# Jobs slurmctld recovered from stale state (ended ones as running) or
# held after a launch a kill cut short stay until someone ends them, as
# with stock Slurm: the test ends what is left after a minute, and their
# records then say what priority/hmrf should have charged.
hc_wait_jobs_done 60
left=$(squeue -h -o '%i %T %r' 2>/dev/null)
tap_diag "left by slurmctld after a minute: $(echo "$left" | grep -c .) jobs: $(echo "$left" | awk '{ $1 = ""; print }' | sort | uniq -c | tr -s ' \n' ' ')"
[ -z "$left" ] || scancel $(echo "$left" | awk '{ print $1 }')
hc_wait_jobs_done 60
tap_ok "the queue drains" $? "$(squeue 2>&1 | head)"
sleep $((2 * PERIOD + 1))

# Jobs slurmctld forgot: each accepted within LOSS s before a kill.
scontrol show job -o 2>/dev/null >"$dir/jobs.txt"
grep -o '^JobId=[0-9]*' "$dir/jobs.txt" | cut -d= -f2 | sort >"$dir/known"
awk '{ print $2, $1 }' "$dir/submitted" | sort >"$dir/accepted"
join -v1 "$dir/accepted" "$dir/known" >"$dir/forgotten"
late=$(awk -v loss="$LOSS" 'NR == FNR { k[NR] = $1; n = NR; next }
	{ ok = 0; for (i = 1; i <= n; i++) if (k[i] >= $2 && k[i] - $2 <= loss) ok = 1
	  if (!ok) print $1 }' "$dir/kills" "$dir/forgotten")
tap_diag "$(wc -l <"$dir/submitted") jobs accepted, $(wc -l <"$dir/forgotten") forgotten by slurmctld, $(cat "$dir/failed" 2>/dev/null | wc -l) sbatch calls failed while it was down"
tap_ok "every job slurmctld forgot was accepted within $LOSS s before a kill" \
	$([ -z "$late" ]; echo $?) "forgotten earlier: $late"
unfinished=$(grep -vcE 'JobState=(COMPLETED|DEADLINE|CANCELLED|FAILED|NODE_FAIL|TIMEOUT)' "$dir/jobs.txt")
tap_ok "every job slurmctld knows has ended ($unfinished not)" \
	$([ "$unfinished" = 0 ]; echo $?)

# What each account's jobs ran, CPU-seconds, from their records.
ran()
{
	awk -v acct="$1" '
		function secs(s) { gsub(/[-T:]/, " ", s); return mktime(s) }
		{ a = ""; c = 0; st = ""; en = ""
		  for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "Account") a = kv[2]
			if (kv[1] == "NumCPUs") c = kv[2]
			if (kv[1] == "StartTime") st = kv[2]
			if (kv[1] == "EndTime") en = kv[2]
		  }
		  if (a == acct && st != "Unknown" && en != "Unknown" && st != "None")
			s += c * (secs(en) - secs(st)) }
		END { print s + 0 }' "$dir/jobs.txt"
}
tol=$((KILLS * PERIOD * CPUS))
for a in physics bio chem; do
	want=$(ran $a)
	got=$(hmrf_usage $a cpu)
	tap_ok "$a: priority/hmrf accounted $got CPU-s of the $want its jobs ran (within $tol)" \
		"$(awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN { d = w - g; print (w > 0 && d <= t && -d <= t) ? 0 : 1 }')"
done
tap_ok "slurmctld logged no crash (no fatal, no segfault)" \
	"$(grep -qE 'fatal|Segmentation|SIGSEGV|SIGABRT' "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null && echo 1 || echo 0)" \
	"$(grep -E 'fatal|Segmentation' "$dir/log/slurmctld.log" | head -5)"
tap_done
