#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0017: jobs shorter than priority/hmrf's Period are charged in full.
# Without AccountingStorageEnforce=limits slurmctld never calls the
# priority plugin's job_end, so the recalculation itself charges the jobs
# that ended since the last one; a job's usage then equals its CPUs times
# (EndTime - StartTime) as scontrol shows them.  (Before this was fixed
# each job lost the time from the last recalculation to its end: here
# about half of it.)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

hc_test_setup t0017
HC_NODES='n1 4 4000' HC_HMRF_CONF=$'Window=sliding:1h\nPeriod=10s' hc_start
tap_ok "a cluster with a 10 s Period started" $? || tap_done
cd "$HC_RUNDIR" || exit 1

ids=
for i in 1 2 3 4 5 6; do
	ids+=" $(sbatch --parsable -A short -n 2 -o /dev/null --wrap 'sleep 3')"
done
hc_wait_jobs_done 90
sleep 1
tap_check "the six jobs completed" \
	test "$(for j in $ids; do scontrol show job "$j" | grep -o 'JobState=COMPLETED'; done | wc -l)" = 6
# Their CPU-seconds from their records.
want=$(for j in $ids; do
	scontrol -o show job "$j" | grep -Eo '(StartTime|EndTime|NumCPUs)=[^ ]+' | tr '\n' ' '
	echo
done | while read -r s e c; do
	echo "$(( ($(date -d "${e#EndTime=}" +%s) - $(date -d "${s#StartTime=}" +%s)) * ${c#NumCPUs=} ))"
done | awk '{ t += $1 } END { print t }')
# The next recalculation (and save) after the last end.
sleep 11
got=$(hmrf_usage short cpu)
tap_diag "records: $want CPU-s; priority/hmrf charged $got"
tap_check "priority/hmrf charged what the records say ($got of $want CPU-s)" \
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g - w < 0.5 && w - g < 0.5) }'
tap_done
