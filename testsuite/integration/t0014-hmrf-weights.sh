#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0014: contributions 2:1, both accounts always backlogged: after a minute
# of work, account a has used twice what b has, within 5%.  Same-shaped
# jobs (1 CPU, 4 s) on one 16-CPU node; a partition per account so that
# one account's waiting job never blocks the other's.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

RUN=90
hc_test_setup t0014
dir=$HC_TEST_DIR

HC_NODES="big 16 16000" \
HC_EXTRA_CONF=$'PartitionName=pa Nodes=ALL State=UP\nPartitionName=pb Nodes=ALL State=UP' \
HC_HMRF_CONF=$'Window=none\nPeriod=1s\nChargeHorizon=4s\nAccount=a Share=2\nAccount=b Share=1' \
	hc_start
tap_ok "cluster up" $? || tap_done
scontrol update nodename=big state=drain reason=filling-the-queue
# 16 CPUs x 90 s / 4 s = 360 jobs could run: 300 each keeps both waiting.
hmrf_submit 300 a pa 1 500 4 && hmrf_submit 300 b pb 1 500 4
tap_ok "600 jobs queued" $?
hc_undrain big
sleep "$RUN"
ua=$(hmrf_usage a cpu)
ub=$(hmrf_usage b cpu)
pa=$(squeue -h -t PD -A a -o %i | wc -l)
pb=$(squeue -h -t PD -A b -o %i | wc -l)
tap_ok "both accounts still have jobs waiting ($pa and $pb)" \
	$([ "$pa" -gt 0 ] && [ "$pb" -gt 0 ]; echo $?)
ratio=$(awk -v a="$ua" -v b="$ub" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
tap_diag "after ${RUN}s: a used $ua CPU-s, b $ub CPU-s: ratio $ratio (contributions 2:1)"
echo "t0014: a $ua CPU-s, b $ub CPU-s, ratio $ratio" >&2
tap_ok "a's usage is twice b's within 5% (ratio $ratio)" \
	$(awk -v r="$ratio" 'BEGIN { exit !(r >= 1.9 && r <= 2.1) }'; echo $?)
tap_done
