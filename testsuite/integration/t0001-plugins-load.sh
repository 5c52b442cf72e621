#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0001: the three Horae plugins load in a real slurmctld on a 4-node
# cluster, and the cluster works through them: jobs from three accounts run
# to completion (one with a 2-node srun step), sinfo/squeue/sprio/scontrol
# answer, and job_submit/justice sees a job's --deadline.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0001
dir=$HC_TEST_DIR
cd "$dir" || exit 1
log=$dir/log/slurmctld.log

HC_HMRF_CONF="Period=1s" hc_start
tap_ok "4-node cluster with the Horae plugins comes up" $? \
	"$(tail -20 "$log" 2>/dev/null)" || tap_done

conf=$(scontrol show config)
for kv in "PriorityType *= priority/hmrf" "SelectType *= select/eunomia" \
	  "JobSubmitPlugins *= justice"; do
	echo "$conf" | grep -q "^$kv\$"
	tap_ok "slurmctld runs with $(echo "$kv" | tr -s ' *' ' ')" $?
done
grep -q "priority/hmrf: policy hmrf, window sliding:604800s" "$log"
tap_ok "priority/hmrf starts with its defaults and says which" $? \
	"$(grep hmrf "$log")"
grep -q "select/eunomia: placement is cons_tres's (no Placement in .*eunomia.conf); progress accounted every 30s" "$log"
tap_ok "select/eunomia without eunomia.conf says it places as cons_tres does" $? \
	"$(grep eunomia "$log")"
grep -q "job_submit/justice: policy justice, history of 1000 jobs, bootstrap 10 jobs" "$log"
tap_ok "job_submit/justice says at init how it judges deadline jobs" $? \
	"$(grep justice "$log")"
names=$(cat /proc/"$(cat "$HC_RUNDIR/pids/slurmctld.pid")"/task/*/comm 2>/dev/null)
for t in hmrf eunomia justice; do
	echo "$names" | grep -qx "$t"
	tap_ok "slurmctld has a thread named $t (top -H, gdb)" $? \
		"$(echo "$names" | sort | uniq -c | tr '\n' ' ')"
done

# sinfo and scontrol see the heterogeneous nodes.
tap_check "sinfo lists 4 idle nodes" \
	test "$(sinfo -h -N -t idle -o %N | sort | tr '\n' ' ')" = "n1 n2 n3 n4 "
tap_check "scontrol show node reports CPUs and features" \
	bash -c 'scontrol show node n4 | grep -q "CPUTot=8 " &&
		 scontrol show node n4 | grep -q "AvailableFeatures=gen4"'

# Jobs from three accounts, one of them with a 2-node srun step.
j1=$(sbatch --parsable -A physics -n 2 -o out.%j --wrap 'echo physics; sleep 1')
j2=$(sbatch --parsable -A chem -N 2 -o out.%j \
	--wrap 'srun -N2 -l printenv SLURMD_NODENAME')
j3=$(sbatch --parsable -A bio -n 1 --mem=500 -o out.%j --wrap 'echo bio')
tap_ok "sbatch accepts jobs of three accounts" \
	$([ -n "$j1" ] && [ -n "$j2" ] && [ -n "$j3" ]; echo $?)
hc_wait_jobs_done 60
tap_ok "all three jobs leave the queue within 60 s" $? "$(squeue)"
for j in $j1 $j2 $j3; do
	st=$(scontrol show job "$j" | grep -Eo '(JobState|ExitCode)=[^ ]*' |
		tr '\n' ' ')
	case "$st" in
	"JobState=COMPLETED ExitCode=0:0 ") rc=0 ;;
	*) rc=1 ;;
	esac
	tap_ok "job $j completed with exit code 0" $rc "$st"
done
acc=$(for j in $j1 $j2 $j3; do scontrol show job "$j" |
	grep -o 'Account=[a-z]*'; done | tr '\n' ' ')
tap_check "jobs keep their accounts" \
	test "$acc" = "Account=physics Account=chem Account=bio "
tap_check "the srun step ran one task on each of two nodes" \
	test "$(sort "out.$j2" | awk '{print $2}' | sort -u | wc -l)" = 2
tap_diag "srun step output: $(tr '\n' ' ' <"out.$j2")"

# Fill the cluster so that jobs pend; squeue and sprio show them.
big=$(sbatch --parsable -A physics -n 24 -o /dev/null --wrap 'sleep 30')
for _ in $(seq 50); do
	[ "$(squeue -h -j "$big" -o %T)" = RUNNING ] && break
	sleep 0.2
done
p1=$(sbatch --parsable -A chem -n 4 -o /dev/null --wrap 'true')
p2=$(sbatch --parsable -A bio -n 4 -o /dev/null --wrap 'true')
sleep 2 # one recalculation of priority/hmrf (Period=1s)
tap_check "squeue shows the pending jobs" \
	test "$(squeue -h -t PD -o %i | sort -n | tr '\n' ' ')" = "$p1 $p2 "
sp=$(sprio -h -o '%i %Y')
tap_ok "sprio lists both pending jobs with a priority" \
	$(echo "$sp" | awk -v a="$p1" -v b="$p2" '
		$1 == a && $2 > 0 { x++ } $1 == b && $2 > 0 { x++ }
		END { exit x != 2 }'; echo $?) "$sp"
fs=$(sprio -h -o '%i %F')
tap_ok "sprio's fair-share column carries the H-MRF factor of both" \
	$(echo "$fs" | awk -v a="$p1" -v b="$p2" '
		($1 == a || $1 == b) && $2 > 0 { x++ } END { exit x != 2 }'
	  echo $?) "$fs"
scancel "$big" "$p1" "$p2"

# job_submit/justice sees the deadline of a job that has one.
jd=$(sbatch --parsable -A bio --deadline=now+2hours -t 5 -o /dev/null \
	--wrap 'true')
grep -q "job_submit/justice: new job of uid 0: deadline .*, up to 1 CPUs: admitted while learning (0 of 10 jobs)" "$log"
tap_ok "job_submit/justice logs the deadline of job $jd" $? \
	"$(grep justice "$log" | tail -3)"
hc_wait_jobs_done 30

# Teardown leaves nothing behind.
hc_stop
left=$(_hc_holders; for f in "$dir"/pids/*.pid; do [ -e "$f" ] && cat "$f"; done)
tap_ok "teardown leaves no process of the cluster" \
	$([ -z "$left" ]; echo $?) "$(ps -o pid,args -p "${left:-1}" 2>&1)"
tap_done
