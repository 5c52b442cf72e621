#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0018: resources, not job counts, on a shared node.  Three accounts with
# different job shapes share one node of 16 CPUs and 32 GB
# (CR_Core_Memory) under priority/hmrf's default TRES, with contributions
# 3:2:1, all backlogged: phys's jobs are CPU-heavy (2 CPUs, 0.5 GB), bio's
# memory-heavy (1 CPU, 6 GB), chem's balanced (1 CPU, 2 GB), all of 10 s.
# After two and a half minutes of work:
#  - every account has had at least 90% of what it would have had on its
#    own share of the node (sharing degree beta >= 0.90, H-MRF's sharing
#    incentive, less what a real cluster takes from the account held at
#    its floor: a job's worth, 10 of its 400 CPU-s, and the wait for the
#    scheduler at each of its 40 or so job ends, half a second each on a
#    loaded machine, another 20);
#  - the account ahead in weighted aggregate usage (CPU share + memory
#    share, over the contribution) is held at its non-sharing allocation
#    (beta < 1.05), and the other two, which share what is left, have
#    weighted aggregates within 10% of each other (H-MRF's
#    resource-as-you-contributed fairness).
# The books must also have charged each account what slurmctld's own job
# records say it ran (within 2%).
# Measured: with 4-s jobs, betas 1.11 / 1.00 / 1.00 and aggregates 150.5 /
# 161.3 (7%); with the 10-s jobs used here, over three runs, betas 1.20-1.21
# / 1.03-1.04 / 1.00-1.01 and the two aggregates 0.8%, 0.9% and 2.3% apart,
# chem ahead at 300-600; the books matched the records to the CPU-second.
# In a clean-clone CI (2026-12-01, both suites at once) chem, held at its
# floor, had 0.945, which the earlier line of 0.95 failed.  On Slurm each
# job waits a moment for the scheduler on a free node, entitlement
# without allocation, which pulls every beta towards 1 (horae-sim,
# without that wait, gives 1.4 / 1.2 / 1.0 on the same workload); longer
# jobs wait relatively less.
# Every account's usage, non-sharing allocation, beta and aggregate is
# printed.  Before the default left Slurm's node TRES out, a 1-CPU job
# weighed as much as a job filling the node and usage split by job count
# (issue 19: 2.9 : 1.9 : 1 with two accounts below their static share).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

RUN=150
JOB=10
CPUS=16 MEM=32000
hc_test_setup t0018
dir=$HC_TEST_DIR

HC_NODES="big $CPUS $MEM" \
HC_EXTRA_CONF=$'PartitionName=pp Nodes=ALL State=UP\nPartitionName=pb Nodes=ALL State=UP\nPartitionName=pc Nodes=ALL State=UP' \
HC_HMRF_CONF=$'Window=none\nPeriod=1s\n'"ChargeHorizon=${JOB}s"$'\nAccount=phys Share=3\nAccount=bio Share=2\nAccount=chem Share=1' \
	hc_start
tap_ok "cluster up" $? || tap_done
scontrol update nodename=big state=drain reason=filling-the-queue
# At most 8 of phys's, 5 of bio's, 16 of chem's at once, 15 rounds of
# 10 s: these keep all three waiting.
hmrf_submit 300 phys pp 2 500 "$JOB" && hmrf_submit 150 bio pb 1 6000 "$JOB" &&
	hmrf_submit 200 chem pc 1 2000 "$JOB"
tap_ok "650 jobs queued" $?
hc_undrain big
sleep "$RUN"
table=$("$SFAIR" -P -o Account,Contribution,Used:cpu,Used:mem,NonSharing:cpu,NonSharing:mem,Beta 2>&1)
waiting=$(squeue -h -t PD -o %a | sort | uniq -c | tr '\n' ' ')
tap_diag "$table"
tap_diag "waiting: $waiting"
# What slurmctld's own job records say each account used, to the second
# (running jobs to now; every other job that started, completing ones
# too, to its end, as the books count them): the books must agree.
now=$(date +%s)
jobs=$(scontrol show job -o 2>/dev/null)
records=$(echo "$jobs" | awk -v now="$now" '
	{ a = st = s = e = c = ""
	  for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "Account") a = kv[2]
		else if (kv[1] == "JobState") st = kv[2]
		else if (kv[1] == "StartTime") s = substr($i, 11)
		else if (kv[1] == "EndTime") e = substr($i, 9)
		else if (kv[1] == "NumCPUs") c = kv[2]
	  }
	  if (st == "PENDING" || s !~ /^[0-9]/) next
	  t0 = t1 = ""
	  cmd = "date -d " s " +%s"; cmd | getline t0; close(cmd)
	  if (st == "RUNNING") t1 = now
	  else { cmd = "date -d " e " +%s"; cmd | getline t1; close(cmd) }
	  if (t0 == "" || t1 == "") { print "unread " $1; next }
	  used[a] += (t1 - t0) * c }
	END { for (a in used) printf "%s %d\n", a, used[a] }')
tap_diag "CPU-s by slurmctld's job records: $(echo "$records" | tr '\n' ' ')"
# Each account's jobs by state: a job in a state the sum above reads
# wrongly would show here.
tap_diag "jobs by account and state: $(echo "$jobs" | awk '
	{ a = st = ""
	  for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "Account") a = kv[2]
		else if (kv[1] == "JobState") st = kv[2]
	  }
	  n[a " " st]++ }
	END { for (k in n) printf "%s %d; ", k, n[k] }')"
for a in phys bio chem; do
	echo "$waiting" | grep -qw "$a"
	tap_ok "$a still has jobs waiting" $? "$waiting"
done
for a in phys bio chem; do
	rec=$(echo "$records" | awk -v a="$a" '$1 == a { print $2 }')
	got=$(echo "$table" | awk -F'|' -v a="$a" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "Used:cpu") c = i; next } $1 == a { print $c }')
	# Within 2%: the books charged running jobs up to their last
	# recalculation, a second or so before the records are read.
	tap_ok "$a: the books charged what its job records say ($got of ${rec:-?} CPU-s)" \
		$(awk -v g="$got" -v r="$rec" 'BEGIN { exit !(r > 0 && g / r > 0.98 && g / r < 1.02) }'; echo $?)
done
# per account: name beta weighted-aggregate (CPU share + memory share of
# the node, over the contribution), from sfair's columns.
rows=$(echo "$table" | awk -F'|' -v c="$CPUS" -v m="$MEM" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 ~ /^(phys|bio|chem)$/ {
		w = $col["Contribution"]
		agg = ($col["Used:cpu"] / c + $col["Used:mem"] / m) / w
		printf "%s %s %.1f\n", $1, $col["Beta"], agg
	}')
tap_diag "account beta weighted-aggregate:" "$rows"
ok=$(echo "$rows" | awk 'NF == 3 && $2 != "-" && $2 + 0 >= 0.90 { n++ } END { print n + 0 }')
tap_ok "every account has beta >= 0.90 ($(echo "$rows" | awk '{ printf "%s %s; ", $1, $2 }'))" \
	$([ "$ok" = 3 ]; echo $?) "$rows"
# H-MRF holds the account ahead in weighted aggregate at its non-sharing
# allocation (the sharing-incentive floor, beta about 1) and evens out the
# others' weighted aggregates with what is left.
sorted=$(echo "$rows" | sort -k3,3n)
top=$(echo "$sorted" | tail -1)
spread=$(echo "$sorted" | head -2 | awk '{ v[NR] = $3 } END { printf "%.3f", v[2] / v[1] }')
tap_diag "the two behind in weighted aggregate: max/min $spread; ahead: $top"
tap_ok "the account ahead in weighted aggregate is held at its non-sharing allocation ($top)" \
	$(echo "$top" | awk '{ exit !($2 + 0 < 1.05) }'; echo $?)
tap_ok "the other two have weighted aggregates within 10% of each other ($spread)" \
	$(awk -v s="$spread" 'BEGIN { exit !(s + 0 >= 1 && s + 0 <= 1.10) }'; echo $?)
tap_done
