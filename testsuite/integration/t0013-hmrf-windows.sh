#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0013: windows on a real cluster, short enough to watch.  A tumbling
# window forgets everything at its boundary; a sliding window forgets a
# finished job gradually, as the window slides past it.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# sleep_until T: wait until epoch second T.
sleep_until() { while [ "$(date +%s)" -lt "$1" ]; do sleep 0.1; done; }

# --- tumbling:20s -----------------------------------------------------------
dirs+=("$(tap_rundir t0013-tumbling)")
hc_init "${dirs[-1]}" || exit 1
HC_HMRF_CONF=$'Window=tumbling:20s\nPeriod=1s' hc_start
tap_ok "cluster with a 20 s tumbling window up" $? || tap_done
# Start the job early in a window so it has time to accumulate.
now=$(date +%s)
[ $((now % 20)) -gt 8 ] && sleep_until $(((now / 20 + 1) * 20 + 1))
sbatch -Q -A physics -w n3 -n 8 -o /dev/null --wrap 'sleep 60'
boundary=$((($(date +%s) / 20 + 1) * 20))
sleep_until $((boundary - 2))
before=$(hmrf_usage physics cpu)
sleep_until $((boundary + 1))
after=$(hmrf_usage physics cpu)
tap_diag "tumbling: $before CPU-s 2 s before the boundary, $after CPU-s 1 s after"
tap_ok "the tumbling window has accumulated usage before its boundary" \
	$(awk -v b="$before" 'BEGIN { exit !(b >= 8 * 5) }'; echo $?)
tap_ok "and forgets it at the boundary" \
	$(awk -v a="$after" -v b="$before" 'BEGIN { exit !(a <= 8 * 2 && a < b / 3) }'
	  echo $?)
hc_stop

# --- sliding:20s in 1 s buckets -------------------------------------------
dirs+=("$(tap_rundir t0013-sliding)")
hc_init "${dirs[-1]}" || exit 1
HC_HMRF_CONF=$'Window=sliding:20s\nWindowBucket=1s\nPeriod=1s' hc_start
tap_ok "cluster with a 20 s sliding window up" $? || tap_done
j=$(sbatch --parsable -A physics -w n3 -n 8 -o /dev/null --wrap 'sleep 8')
hc_wait_jobs_done 30
sleep 2 # the last charge is saved
start=$(date -d "$(scontrol show job "$j" | grep -o 'StartTime=[^ ]*' | cut -d= -f2)" +%s)
end=$(date -d "$(scontrol show job "$j" | grep -o 'EndTime=[^ ]*' | cut -d= -f2)" +%s)
ran=$((end - start))
samples=
ok=0
# Expected at time t: 8 CPUs times the part of [start, end] in [t-20, t].
for t in $((end + 4)) $((end + 8)) $((start + 20 + ran / 2)) $((end + 21)); do
	sleep_until "$t"
	u=$(hmrf_usage physics cpu)
	lo=$((t - 20 > start ? t - 20 : start))
	want=$((lo < end ? 8 * (end - lo) : 0))
	samples+="t=+$((t - end))s: $u (expect $want); "
	awk -v u="$u" -v w="$want" 'BEGIN { d = u - w; if (d < 0) d = -d; exit !(d <= 8 * 2) }' ||
		ok=1
done
tap_diag "sliding: the job ran $ran s; after its end: $samples"
tap_ok "the sliding window forgets the job gradually, as expected at each sample" $ok
tap_done
