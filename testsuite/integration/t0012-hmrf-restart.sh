#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0012: slurmctld killed with SIGKILL mid-workload and restarted keeps the
# usage priority/hmrf had accounted: after the restart the ledger matches
# what the running jobs accumulated, within one recalculation period; a
# job that ended while slurmctld was down is charged from its record; and
# sprio shows the H-MRF factor right after the restart.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

PERIOD=2
hc_test_setup t0012
dir=$HC_TEST_DIR
cd "$dir" || exit 1

HC_HMRF_CONF=$"Window=none"$'\n'"Period=${PERIOD}s" hc_start
tap_ok "cluster up" $? || tap_done
sbatch -Q -A physics -w n3 -n 8 -o /dev/null --wrap 'sleep 300'
sbatch -Q -A bio -w n1 -n 2 -o /dev/null --wrap 'sleep 8'
for _ in $(seq 50); do
	[ "$(squeue -h -t R -o %i | wc -l)" = 2 ] && break
	sleep 0.2
done
sleep 4
t1=$(date +%s)
u1=$(hmrf_usage physics cpu)
tap_ok "physics is being charged before the kill ($u1 CPU-s)" \
	$([ "${u1%.*}" -gt 0 ]; echo $?)

hc_kill_ctld KILL
tap_ok "slurmctld killed with SIGKILL" $(hc_ctld_alive && echo 1 || echo 0)
sleep 10 # bio's job ends meanwhile
hc_start_slurmctld
hc_wait_ctld 30
tap_ok "slurmctld restarts on the saved state" $? \
	"$(tail -5 "$dir/log/slurmctld.log")"
grep -q "priority/hmrf: loaded usage of [0-9]* accounts" "$dir/log/slurmctld.log"
tap_ok "priority/hmrf loads its saved usage" $? \
	"$(grep hmrf "$dir/log/slurmctld.log" | tail -3)"
sleep $((PERIOD + 2))
t2=$(date +%s)
u2=$(hmrf_usage physics cpu)
expect=$((${u1%.*} + 8 * (t2 - t1)))
tol=$((8 * (PERIOD + 2)))
tap_diag "physics: $u1 CPU-s at $t1, $u2 at $t2; running 8 CPUs predicts $expect (+-$tol)"
tap_ok "physics' usage after the restart matches, within one period" \
	$(awk -v u="$u2" -v e="$expect" -v t="$tol" \
		'BEGIN { d = u - e; if (d < 0) d = -d; exit !(d <= t) }'; echo $?)
ub=$(hmrf_usage bio cpu)
tap_ok "bio's job that ended while slurmctld was down is charged ($ub CPU-s for 2 CPUs x 8 s)" \
	$(awk -v u="$ub" 'BEGIN { exit !(u >= 2 * 8 * 0.9) }'; echo $?)

# Right after the restart, sprio shows the factors of a pending job.
jp=$(sbatch --parsable -A chem -n 24 -o /dev/null --wrap 'true')
sleep $((PERIOD + 1))
fs=$(sprio -h -j "$jp" -o '%i %F' 2>&1)
tap_ok "sprio shows the H-MRF factor after the restart" \
	$(echo "$fs" | awk -v j="$jp" '$1 == j && $2 > 0 { ok = 1 } END { exit !ok }'
	  echo $?) "$fs"
mode=$(stat -c %a "$dir/state/horae_hmrf.state")
# Without PrivateData=usage everyone may read usage, as with sshare;
# only SlurmUser writes it (t0032 covers PrivateData=usage).
tap_ok "the state file is written by SlurmUser alone, read by all (mode $mode)" $([ "$mode" = 644 ]; echo $?)
tap_done
