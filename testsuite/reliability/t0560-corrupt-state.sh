#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0560: damaged state files against a real slurmctld.  For each plugin's
# state file (priority/hmrf's usage, select/eunomia's progress,
# job_submit/justice's history) and each damage (truncated, zeroed, one
# bit flipped, a wrong version, foreign JSON): slurmctld, restarted on
# it, comes up from the previous snapshot (.old), says so naming the
# file, and the plugin's state is back.  With both the file and .old
# damaged, slurmctld refuses to start, naming the file and what to do;
# with -i it starts with that plugin's state empty.  Never a crash.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0560
dir=$HC_RUNDIR
state=$dir/state
log=$dir/log/slurmctld.log
HC_EUNOMIA_CONF=$'SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3\nPeriod=1s' \
HC_JUSTICE_CONF=$'Bootstrap=2\nPeriod=1s' \
	HC_HMRF_CONF=$'Period=1s\nSaveInterval=0' hc_start
tap_ok "a cluster with the three plugins started" $? || tap_done
cd "$dir" || exit 1

# Something in every state: usage, progress, a learnt history.  (hmrf
# saves its whole state each Period here, SaveInterval=0, so that .old
# holds usage too; t0041 covers the interval.)
for a in physics bio; do
	sbatch -Q -A $a -n2 -o /dev/null --wrap 'sleep 2'
done
# (A time limit that fits the deadline: Slurm 24.11 refuses -t UNLIMITED
# with --deadline.)
sbatch -Q -n1 -t 1 --deadline=now+180 -o /dev/null --wrap 'sleep 1'
hc_wait_jobs_done 30
sleep 3 # two periods: everything saved twice, so .old holds it too
for f in horae_hmrf.state horae_eunomia.state horae_justice.state; do
	cp "$state/$f" "$dir/$f.good"
	cp "$state/$f.old" "$dir/$f.old.good"
done

# damage KIND FILE
damage()
{
	local size
	size=$(stat -c %s "$2")
	case $1 in
	truncated) truncate -s $((size / 2)) "$2" ;;
	zeroed) dd if=/dev/zero of="$2" bs="$size" count=1 conv=notrunc 2>/dev/null ;;
	bitflip) python3 -c '
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) - 10] ^= 0x04
open(p, "wb").write(b)' "$2" ;;
	version) sed -i '1s/"version":[0-9]*/"version":99/' "$2" ;;
	foreign) echo '{"generation": 7, "nodes": []}' >"$2" ;;
	esac
}

# stop_and_restore: stop slurmctld (SIGTERM, SIGKILL if it is still
# there 10 s later, so that nothing writes the state behind us), put
# every good state back and empty the log, for the caller to damage a
# file and start again.  A .new that a save stopped midway left is
# removed: the loader rightly prefers a whole .new to .old (it is the
# newer snapshot), and these checks are of the fall-back to .old.
stop_and_restore()
{
	local f
	hc_kill_ctld TERM || hc_kill_ctld KILL
	for f in horae_hmrf.state horae_eunomia.state horae_justice.state; do
		cp "$dir/$f.good" "$state/$f"
		cp "$dir/$f.old.good" "$state/$f.old"
		rm -f "$state/$f.new"
	done
	: >"$log"
}

loaded()
{
	case $1 in
	horae_hmrf.state) grep -q "priority/hmrf: loaded usage of [1-9]" "$log" ;;
	horae_eunomia.state) grep -q "select/eunomia: loaded the progress of [1-9]" "$log" ;;
	horae_justice.state) grep -q "job_submit/justice: loaded a history of [1-9]" "$log" ;;
	esac
}

for f in horae_hmrf.state horae_eunomia.state horae_justice.state; do
	for kind in truncated zeroed bitflip version foreign; do
		stop_and_restore
		damage $kind "$state/$f"
		hc_start_slurmctld
		hc_wait_ctld 30
		up=$?
		tap_ok "$f $kind: slurmctld comes up" $up \
			"$(tail -5 "$log")"
		grep -q "$state/$f.*\.old\|\.old.*$state/$f\|$f.*\.old" "$log"
		tap_ok "$f $kind: it says it fell back to .old, naming the file" $? \
			"$(grep -iE 'old|state' "$log" | head -3)"
		loaded $f
		tap_ok "$f $kind: and the state is back" $? \
			"$(grep -E 'loaded|no saved' "$log" | head -3)"
	done
	# Both damaged: a clean refusal; -i starts empty.
	stop_and_restore
	damage zeroed "$state/$f"
	damage foreign "$state/$f.old"
	hc_start_slurmctld
	hc_wait_ctld 15
	rc=$?
	for _ in $(seq 50); do hc_ctld_alive || break; sleep 0.2; done
	tap_ok "$f and .old damaged: slurmctld refuses to start" \
		$([ $rc != 0 ] && ! hc_ctld_alive; echo $?) "$(tail -3 "$log")"
	grep -q "refusing to start without .*; fix or remove $state/$f (and .old), or start slurmctld with -i" "$log"
	tap_ok "$f and .old damaged: the log names the file and what to do" $? \
		"$(grep -E 'refusing|fatal' "$log" | head -3)"
	! grep -qE 'Segmentation|SIGSEGV|SIGABRT|Aborted' "$log" "$dir/log/slurmctld.out"
	tap_ok "$f and .old damaged: no crash" $?
	: >"$log"
	hc_start_slurmctld -i
	hc_wait_ctld 30
	tap_ok "$f and .old damaged: with -i slurmctld starts" $? "$(tail -3 "$log")"
done
tap_done
