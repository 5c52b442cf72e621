#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0520: a submission storm against a real slurmctld with all three
# plugins (priority/hmrf, select/eunomia, job_submit/justice):
# T0520_SUBMITTERS (default 4) submitters call sbatch as fast as it
# returns for T0520_SECONDS (default 60) s, cycling through five kinds of
# job:
#   plain     no deadline                          -> accepted, no note
#   far       deadline in an hour                  -> admitted, noted
#   elastic   deadline in an hour, -N 1-2          -> admitted, 1-2 nodes
#   past      deadline in 2020                     -> refused by Justice
#   close     10-min limit, deadline in 2 min      -> refused by Justice
# Then: slurmctld stayed up and answered throughout; every decision is the
# one its kind calls for (a submission slurmctld itself turned away as
# busy is counted and shown, never taken for a decision); every job id
# sbatch returned is known to slurmctld and runs to COMPLETED; a restart
# on the saved state brings every plugin's state back.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

SECS=${T0520_SECONDS:-60}
NSUB=${T0520_SUBMITTERS:-4}
hc_test_setup t0520
dir=$HC_RUNDIR
HC_EUNOMIA_CONF=$'SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3\nPeriod=1s' \
HC_JUSTICE_CONF=$'Bootstrap=5\nPeriod=1s' HC_HMRF_CONF=$'Period=1s' \
HC_EXTRA_CONF=$'MinJobAge=3600\nMaxJobCount=50000' hc_start
tap_ok "a cluster with the three plugins started" $? || tap_done
cd "$dir" || exit 1
log=$dir/log/slurmctld.log

# submitter N: sbatch until the storm ends; "kind rc output" per call.
submitter()
{
	local n=$1 end=$((SECONDS + SECS)) i=0 kind out rc
	local kinds=(plain far elastic past close)
	local -a args
	while [ $SECONDS -lt $end ]; do
		kind=${kinds[$(((i + n) % 5))]}
		case $kind in
		plain) args=(-n1 -t 1) ;;
		far) args=(-n1 -t 1 --deadline=now+3600) ;;
		elastic) args=(-N 1-2 --ntasks-per-node=1 -t 1 --deadline=now+3600) ;;
		past) args=(-n1 -t 1 --deadline=2020-01-01T00:00:00) ;;
		close) args=(-n1 -t 10 --deadline=now+120) ;;
		esac
		out=$(sbatch --parsable -o /dev/null "${args[@]}" --wrap true 2>&1)
		rc=$?
		echo "$kind $rc ${out//$'\n'/ }"
		i=$((i + 1))
	done >"$dir/storm.$n"
}

t0=$SECONDS
subs=()
for ((k = 0; k < NSUB; k++)); do
	submitter $k &
	subs+=($!)
done
# slurmctld must answer all along.
down=0 pings=0
while kill -0 "${subs[@]}" 2>/dev/null; do
	pings=$((pings + 1))
	scontrol ping 2>/dev/null | grep -q 'is UP' || down=$((down + 1))
	sleep 2
done
wait "${subs[@]}"
took=$((SECONDS - t0))
cat "$dir"/storm.* >"$dir/storm"
n=$(wc -l <"$dir/storm")
tap_diag "$n submissions in $took s ($(awk -v n="$n" -v t="$took" 'BEGIN { printf "%.1f", n / t }') per s)"
tap_ok "slurmctld stayed up through the storm" \
	$(hc_ctld_alive; echo $?)
tap_ok "and answered every ping ($pings, $down unanswered)" \
	$([ "$down" = 0 ]; echo $?)

# Decisions.  Busy: slurmctld's own "try again" (sbatch gives up after its
# retries), not a decision of ours.
busy='Resource temporarily unavailable|Socket timed out|Unable to contact'
awk -v busy="$busy" '
	$2 != 0 && $0 ~ busy { b[$1]++; next }
	{ t[$1]++ }
	$1 ~ /^(plain|far|elastic)$/ && !($2 == 0 && $3 ~ /^[0-9]+$/) { bad[$1]++ }
	$1 == "past" && !($2 != 0 && /job_submit\/justice: the deadline 2020-01-01T00:00:00 is not in the future/) { bad[$1]++ }
	$1 == "close" && !($2 != 0 && /job_submit\/justice: the deadline .* is less than the job.s time limit \(10 min\) away/) { bad[$1]++ }
	END {
		for (k in t) printf "%s %d %d %d\n", k, t[k], b[k] + 0, bad[k] + 0
		for (k in b) if (!(k in t)) printf "%s 0 %d 0\n", k, b[k]
	}' "$dir/storm" | sort >"$dir/decisions"
tap_diag "kind, decided, busy, wrong: $(tr '\n' ';' <"$dir/decisions")"
tap_ok "every kind was submitted and decided" \
	$([ "$(awk '$2 > 0' "$dir/decisions" | wc -l)" = 5 ]; echo $?)
tap_ok "every decision is the right one for its kind" \
	$(awk '$4 > 0 { exit 1 }' "$dir/decisions"; echo $?) \
	"$(awk '$1 ~ /^(plain|far|elastic)$/ && !($2 == 0 && $3 ~ /^[0-9]+$/)' "$dir/storm" | head -3)"
tap_diag "slurmctld too busy for: $(awk '{ b += $3 } END { print b + 0 }' "$dir/decisions") submissions"

# Every id sbatch returned, by kind.
awk '$2 == 0 && $3 ~ /^[0-9]+$/ { print $3, $1 }' "$dir/storm" | sort -n >"$dir/ids"
scontrol -o show job >"$dir/jobs" 2>/dev/null
awk '{
	for (f = 1; f <= NF; f++) {
		split($f, kv, "=")
		v[kv[1]] = substr($f, length(kv[1]) + 2)
	}
	print v["JobId"], v["JobState"], v["NumNodes"], (/AdminComment=justice: up to/ ? "noted" : "-")
	delete v
}' "$dir/jobs" | sort -n >"$dir/known"
lost=$(join -v1 "$dir/ids" "$dir/known" | wc -l)
tap_ok "slurmctld knows every job sbatch returned ($(wc -l <"$dir/ids"), $lost lost)" \
	$([ "$lost" = 0 ]; echo $?) "$(join -v1 "$dir/ids" "$dir/known" | head -3)"
join "$dir/ids" "$dir/known" >"$dir/joined"
tap_ok "deadline jobs carry Justice's note, plain ones none" \
	$(awk '($2 == "plain") != ($5 == "-") { exit 1 }' "$dir/joined"; echo $?) \
	"$(awk '($2 == "plain") != ($5 == "-")' "$dir/joined" | head -3)"
tap_ok "elastic jobs stay within 1-2 nodes" \
	$(awk '$2 == "elastic" && $4 !~ /^[12](-[12])?$/ { exit 1 }' "$dir/joined"; echo $?) \
	"$(awk '$2 == "elastic" && $4 !~ /^[12](-[12])?$/' "$dir/joined" | head -3)"

# The queue drains: every job runs to COMPLETED.
for _ in $(seq 300); do
	[ -z "$(squeue -h -t PD,R,CG -o %i 2>/dev/null | head -1)" ] && break
	sleep 1
done
scontrol -o show job 2>/dev/null | grep -o 'JobId=[0-9]* .*JobState=[A-Z_]*' |
	awk '{ s = $0; sub(/.*JobState=/, "", s); print s }' | sort | uniq -c >"$dir/states"
tap_diag "states: $(tr -s ' \n' ' ' <"$dir/states")"
tap_ok "the queue drained, every job COMPLETED" \
	$([ "$(awk '$2 != "COMPLETED" { n += $1 } END { print n + 0 }' "$dir/states")" = 0 ] &&
	  [ "$(awk '$2 == "COMPLETED" { print $1 }' "$dir/states")" = "$(wc -l <"$dir/ids")" ]; echo $?)

# A restart on the saved state.
sleep 2
hc_kill_ctld TERM
hc_start_slurmctld
hc_wait_ctld 60
tap_ok "slurmctld restarts on the state saved after the storm" $?
for p in priority/hmrf select/eunomia job_submit/justice; do
	grep -Eq "$p: (loaded|restored|recovered)" "$log"
	tap_ok "$p loaded its saved state" $? \
		"$(grep "$p" "$log" | tail -3)"
done
tap_done
