#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0022: Slurm keeps working under select/eunomia with Placement=eunomia:
# sinfo, squeue and scontrol; a 2-node job with srun steps; jobs steered
# by progress (an account without progress gets the fastest free node, a
# --constraint is obeyed); progress charged and saved; a slurmctld killed
# with jobs running comes back with the jobs running where they were and
# the progress it had saved, and its progress shares are shares of the
# time since the books started, also after a restart.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

hc_test_setup t0022
dir=$HC_RUNDIR
HC_NODES=$'n1 4 4000 gen1\nn2 4 4000 gen2\nn3 4 4000 gen3\nn4 4 4000 gen4' \
HC_EUNOMIA_CONF=$'Placement=eunomia\nSpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3\nWindow=none\nPeriod=1s' \
HC_HMRF_CONF=$'Period=1s' HC_EXTRA_CONF='PriorityWeightAssoc=1000' hc_start
tap_ok "a 4-node cluster with Placement=eunomia started" $? || tap_done
log=$dir/log/slurmctld.log
cd "$dir" || exit 1

tap_check "sinfo lists 4 idle nodes" \
	test "$(sinfo -h -N -t idle -o %N | sort | tr '\n' ' ')" = "n1 n2 n3 n4 "
tap_check "scontrol show node reports the features" \
	bash -c 'scontrol show node n4 | grep -q "AvailableFeatures=gen4"'

# A 2-node job with srun steps.
j=$(sbatch --parsable -A chem -N 2 -n 2 -o out.%j \
	--wrap 'srun -N2 -l printenv SLURMD_NODENAME; srun -N1 -n1 hostname')
hc_wait_jobs_done 60
tap_ok "the 2-node job left the queue" $? "$(squeue)"
st=$(scontrol show job "$j" | grep -Eo '(JobState|ExitCode)=[^ ]*' | tr '\n' ' ')
tap_check "it completed with exit code 0 ($st)" \
	test "$st" = "JobState=COMPLETED ExitCode=0:0 "
tap_check "its first srun step ran one task on each of two nodes" \
	test "$(grep -c '^[01]: n' "out.$j")" = 2
tap_diag "steps: $(tr '\n' ' ' <"out.$j")"

# Steering by progress.  phys has no progress: the fastest node, n4.
# Then bio (none either) gets the fastest one left, n3; a job pinned to
# gen1 goes to n1 whatever its account's share.
p=$(sbatch --parsable -A phys -n 4 -o /dev/null --wrap 'sleep 60')
for _ in $(seq 50); do
	[ "$(squeue -h -j "$p" -o %T)" = RUNNING ] && break
	sleep 0.2
done
b=$(sbatch --parsable -A bio -n 2 -o /dev/null --wrap 'sleep 60')
g=$(sbatch --parsable -A phys -n 1 -C gen1 -o /dev/null --wrap 'sleep 60')
for _ in $(seq 50); do
	[ "$(squeue -h -t R -o %i | wc -l)" = 3 ] && break
	sleep 0.2
done
where() { squeue -h -j "$1" -o %N; }
tap_check "the first job of an account without progress runs on the fastest node (n4: $(where "$p"))" \
	test "$(where "$p")" = n4
tap_check "the next new account's job gets the fastest node left (n3: $(where "$b"))" \
	test "$(where "$b")" = n3
tap_check "a job constrained to gen1 runs on n1 ($(where "$g"))" \
	test "$(where "$g")" = n1
tap_check "squeue shows the three running jobs" \
	test "$(squeue -h -t R -o %i | wc -l)" = 3

# Progress is charged and saved every Period.
sleep 3
state=$dir/state/horae_eunomia.state
tap_check "the progress state file exists, mode 0600" \
	test "$(stat -c %a "$state" 2>/dev/null)" = 600
tap_check "it holds the accounts with progress" \
	bash -c "grep -q '\"phys\"' '$state' && grep -q '\"bio\"' '$state'"
# priority/hmrf publishes its view too: both accounts have jobs, so they
# split the contributions, and both have used some of the window.
# (Their dominant shares are of a 7-day window: tiny, so read from JSON.)
out=$("$HORAE_BINDIR/sfair" --json -A phys,bio 2>&1 |
	jq -r '.accounts[] | "\(.account) \(.shares.contribution) \(.shares.dominant_share)"' 2>&1)
tap_ok "sfair shows phys's and bio's contributions and dominant shares ($(echo $out))" \
	$(echo "$out" | awk 'NF == 3 && $2 > 0 && $3 > 0 { n++; c += $2 } END { exit !(n == 2 && c <= 1.0001) }'; echo $?) \
	"$out"
# The shares are published beside it, and sfair shows them.
out=$("$HORAE_BINDIR/sfair" -n -P -o Account,Progress,ProgressShare,FairProgressShare -A phys,bio 2>&1)
tap_ok "sfair shows phys's and bio's progress and progress shares ($(echo $out))" \
	$(echo "$out" | awk -F'|' 'NF == 4 && $2 > 0 && $3 > 0 && $4 > 0 { n++ } END { exit !(n == 2) }'; echo $?) \
	"$out"

# priority/hmrf found select/eunomia's table (horae_progress_ops_v1) and
# got progress shares from it at its recalculations (every second here).
tap_ok "priority/hmrf reads Eunomia's progress from select/eunomia (no 'gave no progress shares')" \
	$(! grep -q "gave no progress shares" "$log"; echo $?) \
	"$(grep -E 'hmrf.*(eunomia|Eunomia)' "$log" | tail -3)"

# slurmctld killed with jobs running: they keep running where they were.
# (slurmctld itself writes its job state up to 5 s late; a job started
# less than that before a SIGKILL comes back pending, with any plugin.)
sleep 6
before=$(squeue -h -t R -o '%i %N' | sort)
hc_kill_ctld KILL
sleep 2
hc_start_slurmctld
hc_wait_ctld 30
tap_ok "slurmctld restarts after SIGKILL" $?
after=$(squeue -h -t R -o '%i %N' | sort)
tap_check "the running jobs are still running on the same nodes" \
	test "$before" = "$after"
tap_diag "running before: $(echo "$before" | tr '\n' ';') after: $(echo "$after" | tr '\n' ';')"
tap_diag "queue after the restart: $(squeue -h -o '%i %T %N %r' | tr '\n' ';')"
grep -q "select/eunomia: loaded the progress of [0-9]* accounts" "$log"
tap_ok "select/eunomia loaded its saved progress" $? "$(grep eunomia "$log" | tail -3)"
scancel "$p" "$b" "$g"
hc_wait_jobs_done 30
tap_ok "the jobs end when cancelled" $? "$(squeue)"
tap_check "scontrol shows the cancelled job with its nodes" \
	bash -c "scontrol show job $p | grep -q 'NodeList=n4'"

# A restart on saved progress with nothing running: the shares of the
# loaded accounts are computed before any job names them again (this
# crashed slurmctld once), and published.
hc_kill_ctld TERM
hc_start_slurmctld
hc_wait_ctld 30
tap_ok "slurmctld restarts on saved progress with an empty queue" $?
sleep 4
hc_ctld_alive && sinfo -h >/dev/null 2>&1
tap_ok "and stays up through its periods (priority/hmrf asks for the shares)" $? \
	"$(tail -3 "$log")"
out=$("$HORAE_BINDIR/sfair" -n -P -o Account,ProgressShare -A phys 2>&1)
tap_ok "sfair still shows phys's progress share ($out)" \
	$(echo "$out" | awk -F'|' '$1 == "phys" && $2 > 0 { ok = 1 } END { exit !ok }'; echo $?)
# Window=none: the monopoly span runs from when the books started, which
# the state keeps; without it the span was 1 s after a restart and the
# share the whole cluster's progress over one second (4.5 measured).
tap_ok "and it is a share of the time since the books started: below 1 ($out)" \
	$(echo "$out" | awk -F'|' '$1 == "phys" && $2 > 0 && $2 < 1 { ok = 1 } END { exit !ok }'; echo $?)

# A clean stop saves the progress one last time.
hc_stop
tap_check "the state file survives the stop" test -s "$state"
tap_done
