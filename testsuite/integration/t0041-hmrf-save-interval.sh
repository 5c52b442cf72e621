#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0041: priority/hmrf saves its whole state every SaveInterval (bounded
# by MinJobAge), not every Period, and nothing it accounted is lost or
# hidden for that:
#   - with Period=1s, SaveInterval=1h and MinJobAge=20 the state file is
#     written once at the first recalculation and not again within 12 s,
#     while the view of the shares (horae_hmrf.shares) is written every
#     Period;
#   - sfair's figures follow the view: a running job's usage grows by its
#     CPUs x seconds (within two Periods) while the state stands still,
#     and sfair gives no staleness warning;
#   - MinJobAge bounds the interval: the state is written again about 20 s
#     after the first save (between 18 and 26 s);
#   - slurmctld killed with SIGKILL between saves and restarted: the usage
#     since the last save comes back from the job records (the running
#     job from the last save on, a job that ended after it in full);
#   - a save that fails (its temporary file's name taken) is logged and
#     done at the next recalculation once it can, not an interval later;
#   - slurmctld stopped with SIGTERM saves the state: its charged_until is
#     within two Periods of the stop.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

hc_test_setup t0041
dir=$HC_TEST_DIR
cd "$dir" || exit 1
STATE=$dir/state/horae_hmrf.state
VIEW=$dir/state/horae_hmrf.shares

# charged_until of the state file, in whole seconds
charged() {
	PYTHONPATH=$HERE/lib python3 -c '
import sys, horae_state
print(int(horae_state.read(sys.argv[1])[1]["charged_until"]))' "$STATE"
}
# the file's modification time, in seconds with nanoseconds
mtime() { stat -c %.Y "$1"; }
# near U E TOL: 0 if |U - E| <= TOL, else 1
near() {
	awk -v u="$1" -v e="$2" -v t="$3" \
		'BEGIN { d = u - e; if (d < 0) d = -d; exit !(d <= t) }'
	echo $?
}

HC_EXTRA_CONF="MinJobAge=20" \
	HC_HMRF_CONF=$'Window=none\nPeriod=1s\nSaveInterval=1h' hc_start
tap_ok "cluster up" $? || tap_done
sbatch -Q -A physics -w n3 -n 8 -o /dev/null --wrap 'sleep 600'
for _ in $(seq 100); do
	[ -s "$STATE" ] && [ -s "$VIEW" ] &&
		[ "$(squeue -h -t R -o %i | wc -l)" = 1 ] && break
	sleep 0.2
done
sleep 2
s0=$(mtime "$STATE")
c0=$(charged)
v0=$(mtime "$VIEW")
t1=$(date +%s)
u1=$(hmrf_usage physics cpu)
sleep 6
t2=$(date +%s)
u2=$(hmrf_usage physics cpu)
err=$("$SFAIR" 2>&1 >/dev/null)
s1=$(mtime "$STATE")
v1=$(mtime "$VIEW")
tap_diag "state written at $s0 (charged_until $c0), then $s1; view at $v0, then $v1"
tap_ok "the state is not written again within the interval" \
	$([ "$s0" = "$s1" ]; echo $?)
tap_ok "the view of the shares is written every Period meanwhile" \
	$(awk -v a="$v0" -v b="$v1" 'BEGIN { exit !(b - a >= 4) }'; echo $?)
expect=$((${u1%.*} + 8 * (t2 - t1)))
# +-3 s: whole seconds from date at each end, and a view up to a Period
# (1 s, more on a loaded machine) old at each.
tap_diag "physics: $u1 CPU-s at $t1, $u2 at $t2; 8 CPUs predict $expect (+-24)"
tap_ok "sfair's usage follows the running job between saves" \
	"$(near "$u2" "$expect" 24)"
tap_ok "and sfair gives no staleness warning" $([ -z "$err" ]; echo $?) "$err"

# MinJobAge=20 bounds SaveInterval=1h: the next save about 20 s after the
# first (the recalculation that comes half a Period early counts).
for _ in $(seq 300); do
	[ "$(mtime "$STATE")" != "$s0" ] && break
	sleep 0.1
done
c1=$(charged)
tap_diag "charged_until of the first save $c0, of the second $c1"
tap_ok "MinJobAge bounds the interval: saved again 18-26 s later ($((c1 - c0)) s)" \
	$([ $((c1 - c0)) -ge 18 ] && [ $((c1 - c0)) -le 26 ]; echo $?)

# Between saves: a short job, then SIGKILL before the next save.
bio=$(sbatch --parsable -A bio -w n1 -n 2 -o /dev/null --wrap 'sleep 3')
sleep 6
ub0=$(hmrf_usage bio cpu)
# What slurmctld recorded the job to have run (launching it takes a
# second or two more than the sleep on a loaded machine): MinJobAge=20
# keeps the ended job's record until after the restart.
bio_run=$(SLURM_TIME_FORMAT=%s squeue -h -t all -j "$bio" -o "%S %e" |
	awk '$2 ~ /^[0-9]+$/ { print $2 - $1 }')
t3=$(date +%s)
u3=$(hmrf_usage physics cpu)
tap_ok "before the kill the state is older than the usage sfair shows" \
	$([ "$(charged)" -lt "$((t3 - 4))" ]; echo $?) "charged_until $(charged), now $t3"
hc_kill_ctld KILL
tap_ok "slurmctld killed with SIGKILL between saves" \
	$(hc_ctld_alive && echo 1 || echo 0)
hc_start_slurmctld
hc_wait_ctld 30
tap_ok "slurmctld restarts on the older state" $? \
	"$(tail -5 "$dir/log/slurmctld.log")"
sleep 4
t4=$(date +%s)
u4=$(hmrf_usage physics cpu)
ub=$(hmrf_usage bio cpu)
expect=$((${u3%.*} + 8 * (t4 - t3)))
# +-4 s: as above, and the first recalculation after the restart; lost
# usage since the last save would be 56 CPU-s and more.
tap_diag "physics: $u3 CPU-s at $t3, $u4 at $t4; 8 CPUs predict $expect (+-32); bio $ub0 before, $ub after; its job ran ${bio_run:-?} s"
tap_ok "physics' usage since the last save is back from its record" \
	"$(near "$u4" "$expect" 32)"
# In full: 2 CPUs times its recorded run, +-1 CPU-s for the view's
# rounding; and the run at least the 3 s it slept.
tap_ok "bio's job that ended after the last save is charged in full (2 CPUs x ${bio_run:-?} s, $ub CPU-s)" \
	$(awk -v u="$ub" -v r="${bio_run:-0}" \
		'BEGIN { exit !(r >= 3 && u >= 2 * r - 1 && u <= 2 * r + 1) }'; echo $?)

# A save that fails is tried again at the next recalculation, not an
# interval later: its temporary file's name taken by a directory (root
# is not stopped by modes) until the log says the save failed.
mkdir -p "$STATE.new/in-the-way"
for _ in $(seq 400); do
	grep -q "priority/hmrf: cannot save state" "$dir/log/slurmctld.log" &&
		break
	sleep 0.1
done
tap_ok "a save that cannot write is logged" \
	$(grep -q "priority/hmrf: cannot save state" "$dir/log/slurmctld.log"; echo $?)
s6=$(mtime "$STATE")
rm -rf "$STATE.new"
for _ in $(seq 50); do
	[ "$(mtime "$STATE")" != "$s6" ] && break
	sleep 0.1
done
tap_ok "and done at the next recalculation once it can (within 5 s)" \
	$([ "$(mtime "$STATE")" != "$s6" ]; echo $?)

# A clean stop saves.
t5=$(date +%s)
hc_kill_ctld TERM
c5=$(charged)
tap_ok "slurmctld stopped with SIGTERM saves the state (charged_until $c5, stopped at $t5)" \
	$([ $((t5 - c5)) -le 2 ] && [ $((c5 - t5)) -le 2 ]; echo $?)
tap_done
