#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0034: scontrol reconfigure rereads hmrf.conf, eunomia.conf and
# justice.conf.  A good change is taken and logged; a bad file is refused
# with file:line in the log, the settings in force stay, and slurmctld
# keeps running and admitting.  slurmctld runs detached, as a site's does.
# How a reconfigure happens differs by release:
# - 22.05 tells the priority and select plugins (reconfig calls) and
#   tells a job_submit plugin nothing, so Justice notices slurmctld's
#   configuration time move on at its next period; that time is in whole
#   seconds, so a second reconfigure within the same second goes unseen.
# - From 23.11 a reconfigure starts a new slurmctld, whose plugins read
#   their files at start; when it cannot start (a bad file) the old one
#   resumes, and loads its priority plugin again: priority/hmrf must then
#   keep the settings in force instead of stopping it.
# One bad file per reconfigure: a new slurmctld stops at the first.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
hc_test_setup t0034
dir=$HC_RUNDIR
HC_NODES=$'n1 2 2000 gen1\nn2 2 2000 gen4' \
HC_JUSTICE_CONF=$'Bootstrap=2\nPeriod=1s' \
HC_EUNOMIA_CONF=$'Placement=eunomia\nSpeedMap=gen1:1,gen4:3\nPeriod=1s' \
HC_HMRF_CONF=$'Period=1s' HC_CTLD_DETACHED=1 hc_start
tap_ok "a cluster with the three plugins started" $? || tap_done
log=$dir/log/slurmctld.log

# logged PATTERN SECONDS: PATTERN appears in the log within SECONDS.
logged()
{
	local i
	for ((i = 0; i < $2 * 4; i++)); do
		grep -Eq -- "$1" "$log" && return 0
		sleep 0.25
	done
	return 1
}
# slurmctld's configuration time is in whole seconds: a reconfigure in
# the second slurmctld started (or last reconfigured) does not move it,
# and Justice cannot tell it happened.
reconfigure() { sleep 1.1; scontrol reconfigure >/dev/null 2>&1; }

# Good changes, one per file.
printf 'Bootstrap = 7\nPeriod = 00:01\n' >"$dir/justice.conf"
printf 'Policy = lt-af\nPeriod=1s\n' >"$dir/hmrf.conf"
printf 'Placement=best-fit\nSpeedMap=gen1:1,gen4:3\nPeriod=1s\n' >"$dir/eunomia.conf"
reconfigure
logged "job_submit/justice: policy justice, history of 1000 jobs, bootstrap 7 jobs, period 1s" 10
tap_ok "justice: a good justice.conf is read again at reconfigure" $? \
	"$(grep -E 'justice' "$log" | tail -3)"
# 22.05 rereads in place; a new slurmctld reads it at start.
logged "priority/hmrf: (reread $dir/hmrf.conf|policy lt-af, )" 10
tap_ok "hmrf: a good hmrf.conf is read again" $? "$(grep hmrf "$log" | tail -3)"
logged "select/eunomia: placement best-fit over select/cons_tres" 10
tap_ok "eunomia: a good eunomia.conf is read again" $? "$(grep eunomia "$log" | tail -3)"

# still_up WHAT: slurmctld answers after a refused file.
still_up()
{
	sleep 2
	hc_ctld_alive && sinfo -h >/dev/null 2>&1
	tap_ok "slurmctld keeps running after the bad $1" $? \
		"$(tail -5 "$log")"
}

# Bad files, one at a time: refused with file:line, the settings in
# force stay.
printf 'Bootstrap=3\nKillAbove=-3\n' >"$dir/justice.conf"
reconfigure
logged "job_submit/justice: (reconfigure: )?$dir/justice.conf:2: KillAbove=-3: must be at least 0" 10
tap_ok "justice: a bad justice.conf is refused with file:line" $? \
	"$(grep -E 'justice' "$log" | tail -3)"
still_up justice.conf
printf 'Bootstrap = 7\nPeriod = 00:01\n' >"$dir/justice.conf"

printf 'Policy=hmrf\nColour=blue\n' >"$dir/hmrf.conf"
reconfigure
logged "priority/hmrf: $dir/hmrf.conf:2: unknown key 'Colour'" 10
tap_ok "hmrf: a bad hmrf.conf is refused with file:line" $? "$(grep hmrf "$log" | tail -3)"
still_up hmrf.conf
# 22.05 keeps it in place; from 23.11 the resumed slurmctld loads
# priority/hmrf again, which keeps lt-af rather than stop.
logged "priority/hmrf: (keeping the previous configuration: $dir/hmrf.conf is invalid|slurmctld resumes after a failed reconfigure: $dir/hmrf.conf is invalid, the settings in force stay)" 5
tap_ok "hmrf: the settings in force stay" $? "$(grep hmrf "$log" | tail -3)"
if grep -q "slurmctld resumes after a failed reconfigure" "$log"; then
	grep "priority/hmrf: policy" "$log" | tail -1 | grep -q "policy lt-af, "
	tap_ok "and they are lt-af's" $? "$(grep 'priority/hmrf: policy' "$log" | tail -1)"
fi
printf 'Policy = lt-af\nPeriod=1s\n' >"$dir/hmrf.conf"

printf 'Placement=eunomia\nSpeedMap=gen1:1,gen1:2\n' >"$dir/eunomia.conf"
before=$(wc -l <"$log")
reconfigure
logged "select/eunomia: $dir/eunomia.conf:2: SpeedMap=gen1:1,gen1:2" 10
tap_ok "eunomia: a bad eunomia.conf is refused with file:line" $? "$(grep eunomia "$log" | tail -3)"
still_up eunomia.conf
# The refused file asks for Placement=eunomia: best-fit must stay.  22.05
# says so in place; from 23.11 the old slurmctld resumes with its select
# plugin as it was.  Either way no placement other than best-fit may be
# taken after the refusal.
after=$(tail -n +$((before + 1)) "$log")
! grep -Eq "select/eunomia: placement (eunomia|affinity|rpsdsf|first-fit|cons_tres)" <<<"$after" &&
	{ grep -q "select/eunomia: .*keeping the previous configuration" <<<"$after" ||
	  grep -q "Resuming operation, reconfigure failed" <<<"$after"; }
tap_ok "eunomia: the settings in force stay (best-fit)" $? \
	"$(grep -E 'eunomia|Resuming' <<<"$after" | tail -4)"
if grep -q "Resuming operation, reconfigure failed" "$log"; then
	tap_diag "this Slurm resumed the old slurmctld $(grep -c "Resuming operation, reconfigure failed" "$log") times"
fi

# Bootstrap 7 is still in force: a deadline job is admitted while
# Justice learns (it would have been with 3 too; the log says which).
grep -q "bootstrap 3 jobs" "$log"
tap_ok "justice: the refused file's Bootstrap=3 was not taken" $((!$?))
j=$(sbatch --parsable -n1 -t 1 --deadline=now+1hour -o /dev/null --wrap true 2>&1)
tap_ok "a deadline job is still admitted ($j)" $([[ "$j" =~ ^[0-9]+$ ]]; echo $?)
tap_done
