#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0540: valgrind's memcheck on slurmctld with all three plugins over a
# workload, and on sfair: no memory error and no lost block in our code.
# slurmctld runs under valgrind from its first start (on empty state) and
# again after a restart (on the state it saved); meanwhile jobs of three
# accounts run, deadline jobs are admitted, refused, sized, sized again
# and dropped, sprio lists the waiting jobs, a waiting deadline job is
# changed with scontrol update in ways Justice refuses and accepts
# (job_modify), slurmctld reconfigures, and sfair runs in its forms (also
# under valgrind).  A record counts as ours when a frame of its stack is
# in one of our plugins or in sfair, unless slurm-22.05.supp names it as
# Slurm's own leak (with the reason).  Slurm's other records are counted
# and printed, not judged.
#
# About 2 minutes.  Alone:
#   make -C build/testsuite check TESTS=reliability/t0540-valgrind.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

command -v valgrind >/dev/null || tap_skip_all "valgrind not installed (contribs/horae-deps installs it)"
hc_test_setup t0540
dir=$HC_RUNDIR
log=$dir/log/slurmctld.log
top=$(cd "$HERE/.." && pwd)
# A frame of ours: a source file of this tree (full paths, below), or one
# of our objects when it has no line information.
ours="$top/src/|priority_hmrf\.so|select_eunomia\.so|job_submit_justice\.so|bin/sfair"
VG=(valgrind --error-limit=no --leak-check=full --fullpath-after=
	--suppressions="$HERE/reliability/slurm-22.05.supp"
	--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite
	--num-callers=30)

HC_EUNOMIA_CONF=$'SpeedMap=gen1:1,gen2:1.5,gen3:2,gen4:3\nPeriod=1s' \
HC_JUSTICE_CONF=$'Bootstrap=2\nPeriod=1s\nKillAbove=2' \
HC_HMRF_CONF=$'Period=1s' hc_start
tap_ok "a cluster with the three plugins started" $? || tap_done
cd "$dir" || exit 1

# ctld_valgrind N: (re)start slurmctld under valgrind, log to vg.N.
ctld_valgrind()
{
	hc_kill_ctld TERM
	_hc_daemon slurmctld "${VG[@]}" --log-file="$dir/vg.$1" \
		"$HC_SBIN/slurmctld" -D -f "$HC_CONF"
	hc_wait_ctld 180
}
# ctld_stop: SIGTERM and wait for valgrind's report (up to 3 minutes).
ctld_stop()
{
	local pid
	pid=$(cat "$dir/pids/slurmctld.pid")
	kill -TERM "$pid"
	for _ in $(seq 1800); do
		[ -d "/proc/$pid" ] || return 0
		sleep 0.1
	done
	return 1
}

hc_kill_ctld TERM
rm -rf "$dir/state"/horae_*
ctld_valgrind 1
tap_ok "slurmctld runs under valgrind" $?
for ((i = 0; i < 4; i++)); do
	for a in a1 a2 a3; do
		sbatch -Q -A $a -n $((1 + i % 3)) -o /dev/null --wrap 'sleep 3'
	done
done
# sprio with jobs waiting (one until an hour from now): priority/hmrf
# builds the list slurmctld sends and frees, so what each object owns must
# go with it.
later=$(sbatch --parsable -A a1 -n1 --begin=now+3600 -o /dev/null --wrap true)
listed=$(sprio -h 2>/dev/null | wc -l)
for args in "-l" "-w" "-u root"; do
	# shellcheck disable=SC2086
	sprio $args >/dev/null 2>&1
done
scancel "$later"
tap_ok "sprio lists the waiting jobs ($listed) from the slurmctld under valgrind" \
	$([ "$listed" -gt 0 ]; echo $?)
# Justice: two bootstrap jobs, a refused one, a sized one, one dropped.
for _ in 1 2; do
	sbatch -Q -n2 -t UNLIMITED --deadline=now+60 -o /dev/null --wrap 'sleep 6'
done
sleep 20
sbatch -Q -n1 --deadline=2020-01-01T00:00:00 -o /dev/null --wrap true 2>/dev/null
sbatch -Q -N 1-4 --ntasks-per-node=2 -t UNLIMITED --deadline=now+120 \
	-o /dev/null --wrap 'sleep 2'
sbatch -Q -N4 -n24 -o /dev/null --wrap 'sleep 20'
sbatch -Q -n2 -t UNLIMITED --deadline=now+15 -o /dev/null --wrap true
sbatch -Q -N 1-4 --ntasks-per-node=2 -t UNLIMITED --deadline=now+40 \
	-o /dev/null --wrap true
scontrol reconfigure
sleep 25
sfair=$HORAE_BINDIR/sfair
for args in "" "-l" "--json" "-D" "-P -n"; do
	# shellcheck disable=SC2086
	"${VG[@]}" --log-file="$dir/vg.sfair.${args// /_}" "$sfair" $args \
		>/dev/null 2>&1
done
j=$(sbatch --parsable -n1 -t 1 --deadline=now+3600 -o /dev/null --wrap 'sleep 30')
# job_modify under valgrind: a waiting deadline job changed in a way
# Justice refuses (a time limit past its deadline) and in ways it accepts
# (a later deadline, a node range it sizes).
m=$(sbatch --parsable -H -N 1-2 --ntasks-per-node=2 -t 5 \
	--deadline=now+1800 -o /dev/null --wrap true)
scontrol update jobid="$m" timelimit=60 >/dev/null 2>&1
modify_refused=$?
scontrol update jobid="$m" deadline=now+3600 >/dev/null 2>&1
modify_deadline=$?
scontrol update jobid="$m" numnodes=1-3 >/dev/null 2>&1
modify_nodes=$?
scancel "$m"
sleep 3
"${VG[@]}" --log-file="$dir/vg.sfair.explain" "$sfair" --explain "$j" >/dev/null 2>&1
hc_wait_jobs_done 60
tap_ok "scontrol update: Justice refuses a time limit past the deadline" \
	$([ "$modify_refused" != 0 ]; echo $?)
tap_ok "and accepts a later deadline and a new node range" \
	$([ "$modify_deadline" = 0 ] && [ "$modify_nodes" = 0 ]; echo $?)
ctld_stop
tap_ok "slurmctld stopped on SIGTERM and valgrind reported" $?

# Again on the saved state, with a job to charge.
ctld_valgrind 2
tap_ok "slurmctld restarts under valgrind on its saved state" $?
grep -q "priority/hmrf: loaded usage" "$log"
tap_ok "and priority/hmrf loaded its usage" $?
sbatch -Q -A a1 -n 2 -o /dev/null --wrap 'sleep 5'
sbatch -Q -n2 -t UNLIMITED --deadline=now+120 -o /dev/null --wrap 'sleep 2'
sleep 12
ctld_stop
tap_ok "and stopped again" $?

# records FILE: each error or leak record as one line.
records()
{
	awk '/^==[0-9]+== *$/ { if (r != "") print r; r = ""; next }
	     { sub(/^==[0-9]+== */, ""); r = r " | " $0 }
	     END { if (r != "") print r }' "$1"
}
n_ours=0 n_slurm=0 report=
for f in "$dir"/vg.*; do
	[ -s "$f" ] || continue
	records "$f" | grep -E 'are (definitely|indirectly) lost in loss record|Invalid (read|write|free)|uninitialised|Mismatched free|overlap' >"$f.records"
	o=$(grep -cE "$ours" "$f.records")
	s=$(($(wc -l <"$f.records") - o))
	n_ours=$((n_ours + o))
	n_slurm=$((n_slurm + s))
	report+="${f##*/}: ours $o, Slurm's $s; "
	tap_diag "${f##*/}: $(grep -E 'ERROR SUMMARY|definitely lost:' "$f" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')"
done
tap_ok "valgrind reported on slurmctld twice and on sfair" \
	$([ -s "$dir/vg.1" ] && [ -s "$dir/vg.2" ] && [ -s "$dir/vg.sfair.explain" ]; echo $?)
tap_diag "$report"
tap_diag "$(cat "$dir"/vg.*.records 2>/dev/null | grep -vE "$ours" | cut -c1-300)"
tap_ok "no memory error and no lost block in our code ($n_ours; Slurm's own: $n_slurm)" \
	$([ "$n_ours" = 0 ]; echo $?) \
	"$(cat "$dir"/vg.*.records 2>/dev/null | grep -E "$ours" | head -5 | cut -c1-600)"
tap_done
