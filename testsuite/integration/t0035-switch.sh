#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0035: a site switches a running cluster from Slurm's stock plugins
# (priority/multifactor, select/cons_tres, no job_submit plugin) to Horae's
# (priority/hmrf, select/eunomia, job_submit/justice) and back, as the
# README says: change slurm.conf, restart slurmctld (slurmd keeps
# running).  Running jobs keep running on their nodes, pending jobs keep
# waiting and then run, under each plugin set; Horae's state files stay
# when the site goes back, and a second switch to Horae continues from
# them.  With slurmdbd, Slurm's own association usage (sshare's RawUsage,
# what multifactor's fair-share and GrpTRESMins limits read) carries on
# through every switch: it grows under each plugin set and never goes
# down, so going back to multifactor loses no usage history.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
hc_test_setup t0035
dir=$HC_RUNDIR
HC_PROFILE=stock HC_NODES=$'n1 2 2000 gen1\nn2 2 2000 gen4' \
HC_ACCOUNTING=1 HC_ACCOUNTS="phys:1" \
HC_HMRF_CONF=$'Period=1s' HC_EUNOMIA_CONF=$'Placement=eunomia\nSpeedMap=gen1:1,gen4:3\nPeriod=1s' \
HC_JUSTICE_CONF=$'Period=1s' hc_start
tap_ok "a cluster on Slurm's stock plugins started" $? || tap_done
conf=$HC_CONF
log=$dir/log/slurmctld.log

# switch PRIORITY SELECT JOBSUBMIT: rewrite those lines and restart the
# daemons as a service restart does (SIGTERM: slurmctld saves its state;
# the jobs' slurmstepd keep running while slurmd restarts).  slurmd must
# restart too: it reads the select plugin's data in slurmctld's messages,
# and a slurmd still on cons_tres cannot read select/eunomia's (seen: a
# job cancelled on Horae stayed completing, "unknown select plugin id:
# 150"), as with any change of SelectType.
switch()
{
	sed -i -e "s|^PriorityType=.*|PriorityType=$1|" \
		-e "s|^SelectType=.*|SelectType=$2|" \
		-e '/^JobSubmitPlugins=/d' "$conf"
	[ "$3" = none ] || echo "JobSubmitPlugins=$3" >>"$conf"
	hc_stop_slurmd
	hc_kill_ctld TERM || return 1
	hc_start_slurmctld
	hc_wait_ctld 30 || return 1
	hc_start_slurmd
	responding 30
}
# responding SECONDS: every node registered again (none unknown, down or
# not responding).
responding()
{
	local i
	for ((i = 0; i < $1 * 2; i++)); do
		! sinfo -h -N -o '%T' 2>/dev/null | grep -qiE '\*|unk|down|^$' &&
			[ -n "$(sinfo -h -N -o '%T' 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	return 1
}
# states JOBS...: "JOB=STATE ..." as squeue shows them now.
states()
{
	local j out=
	for j in "$@"; do
		out+="$j=$(squeue -h -j "$j" -o %T 2>/dev/null) "
	done
	echo "${out% }"
}
# raw: phys's RawUsage as sshare shows it (CPU-seconds).
raw()
{
	sshare -h -n -P -A phys -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /phys/ { print $2; exit }'
}
run_ids()
{
	squeue -h -t R -o %i | sort -n | tr '\n' ' '
}

# Two running jobs fill the cluster; three wait.
r1=$(sbatch --parsable -A phys -n 2 -w n1 -o /dev/null --wrap "sleep 600")
r2=$(sbatch --parsable -A phys -n 2 -w n2 -o /dev/null --wrap "sleep 600")
# Until both run (a loaded machine's stock 24.11 had started neither
# after a fixed 3 s, in a run of both suites at once).
for _ in $(seq 120); do
	[ "$(states "$r1" "$r2")" = "$r1=RUNNING $r2=RUNNING" ] && break
	sleep 0.5
done
p=()
for i in 1 2 3; do
	p+=("$(sbatch --parsable -A phys -n 1 -t 1 -o /dev/null --wrap 'sleep 2')")
done
before=$(states "$r1" "$r2" "${p[@]}")
tap_diag "on stock: $before"
[ "$before" = "$r1=RUNNING $r2=RUNNING ${p[0]}=PENDING ${p[1]}=PENDING ${p[2]}=PENDING" ]
tap_ok "on stock: two jobs run, three wait" $?

u0=$(raw)
switch priority/hmrf select/eunomia justice
tap_ok "slurmctld restarts on Horae's plugins" $? "$(tail -5 "$log")"
grep -q "priority/hmrf: policy" "$log" && grep -q "select/eunomia: placement eunomia" "$log" &&
	grep -q "job_submit/justice: policy" "$log"
tap_ok "the log says each of Horae's plugins started" $?
sleep 3
after=$(states "$r1" "$r2" "${p[@]}")
tap_diag "on Horae: $after"
[ "$after" = "$before" ]
tap_ok "on Horae: the same two run on, the same three wait" $? "$after"
[ "$(squeue -h -j "$r1" -o %N)" = n1 ] && [ "$(squeue -h -j "$r2" -o %N)" = n2 ]
tap_ok "the running jobs kept their nodes" $?
sprio -h -j "${p[0]}" -o "%i %Y" >/dev/null 2>&1 && [ -s "$dir/state/horae_hmrf.state" ]
tap_ok "priority/hmrf ranks the waiting jobs and saves its state" $? "$(sprio 2>&1 | head -3)"
# (Stock charges every PriorityCalcPeriod, 5 min by default: what it
# had after these seconds may still be 0.)
u1=$(raw)
awk -v a="${u0:-0}" -v b="${u1:-0}" 'BEGIN { exit !(b > a) }'
tap_ok "sshare's RawUsage carries on under priority/hmrf (stock ${u0:-?}, Horae ${u1:-?} CPU-s)" $?
scancel "$r1"
for _ in $(seq 60); do
	[ -z "$(squeue -h -j "${p[0]}" -t PD)" ] && break
	sleep 0.5
done
[ -z "$(squeue -h -j "${p[0]}" -t PD)" ]
tap_ok "on Horae a waiting job starts when nodes free up" $? "$(states "${p[@]}")"

# And back to stock: Horae's files stay.
switch priority/multifactor select/cons_tres none
tap_ok "slurmctld restarts on the stock plugins again" $? "$(tail -5 "$log")"
sleep 3
back=$(states "$r2")
[ "$back" = "$r2=RUNNING" ] && [ "$(squeue -h -j "$r2" -o %N)" = n2 ]
tap_ok "back on stock: the job still running is, on its node" $? "$back"
ls "$dir/state/horae_hmrf.state" "$dir/state/horae_eunomia.state" \
	"$dir/state/horae_justice.state" >/dev/null 2>&1
tap_ok "Horae's state files stay in StateSaveLocation" $? "$(ls "$dir/state")"
scancel "$r2"
for _ in $(seq 60); do
	[ -z "$(squeue -h -t PD)" ] && break
	sleep 0.5
done
tap_ok "on stock again the rest of the waiting jobs start" \
	$([ -z "$(squeue -h -t PD)" ]; echo $?) "$(squeue 2>&1)"
# multifactor charges each at its end, onto the usage it found.
hc_wait_jobs_done 30
u2=$(raw)
awk -v a="${u1:-0}" -v b="${u2:-0}" 'BEGIN { exit !(a > 0 && b > a) }'
tap_ok "back on multifactor sshare's RawUsage carries on from Horae's ($u1, then $u2 CPU-s)" $?

# A second switch to Horae continues from its saved state.
saved=$(grep -c . "$dir/state/horae_hmrf.state")
switch priority/hmrf select/eunomia justice
tap_ok "slurmctld restarts on Horae's plugins a second time" $?
grep -q "priority/hmrf: loaded usage of" "$log"
tap_ok "the second time priority/hmrf loads its saved state" $? \
	"$(grep 'priority/hmrf' "$log" | tail -4)"
tap_done
