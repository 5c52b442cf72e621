#!/usr/bin/env bash
# t0018: resources, not job counts, on a shared node.  Three accounts with
# different job shapes share one node of 16 CPUs and 32 GB
# (CR_Core_Memory) under priority/hmrf's default TRES, with contributions
# 3:2:1, all backlogged: phys's jobs are CPU-heavy (2 CPUs, 0.5 GB), bio's
# memory-heavy (1 CPU, 6 GB), chem's balanced (1 CPU, 2 GB).  After two
# minutes of work:
#  - every account has had at least 95% of what it would have had on its
#    own share of the node (sharing degree beta >= 0.95, H-MRF's sharing
#    incentive);
#  - the accounts above that (beta > 1) have weighted aggregate usage (CPU
#    share + memory share, over the contribution) within 10% of each other
#    (H-MRF's resource-as-you-contributed fairness).
# Every account's usage, non-sharing allocation, beta and aggregate is
# printed.  Before the default left Slurm's node TRES out, a 1-CPU job
# weighed as much as a job filling the node and usage split by job count
# (issue 19: 2.9 : 1.9 : 1 with two accounts below their static share).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
. "$HERE/lib/hmrf.sh"

RUN=120
CPUS=16 MEM=32000
hc_test_setup t0018
dir=$HC_TEST_DIR

HC_NODES="big $CPUS $MEM" \
HC_EXTRA_CONF=$'PartitionName=pp Nodes=ALL State=UP\nPartitionName=pb Nodes=ALL State=UP\nPartitionName=pc Nodes=ALL State=UP' \
HC_HMRF_CONF=$'Window=none\nPeriod=1s\nChargeHorizon=4s\nAccount=phys Share=3\nAccount=bio Share=2\nAccount=chem Share=1' \
	hc_start
tap_ok "cluster up" $? || tap_done
scontrol update nodename=big state=drain reason=filling-the-queue
# At most 8 of phys's, 5 of bio's, 16 of chem's at once, 30 rounds of 4 s:
# these keep all three waiting.
hmrf_submit 250 phys pp 2 500 4 && hmrf_submit 160 bio pb 1 6000 4 &&
	hmrf_submit 200 chem pc 1 2000 4
tap_ok "610 jobs queued" $?
scontrol update nodename=big state=resume
sleep "$RUN"
table=$("$SFAIR" -P -o Account,Contribution,Used:cpu,Used:mem,NonSharing:cpu,NonSharing:mem,Beta 2>&1)
waiting=$(squeue -h -t PD -o %a | sort | uniq -c | tr '\n' ' ')
tap_diag "$table"
tap_diag "waiting: $waiting"
for a in phys bio chem; do
	echo "$waiting" | grep -qw "$a"
	tap_ok "$a still has jobs waiting" $? "$waiting"
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
ok=$(echo "$rows" | awk 'NF == 3 && $2 != "-" && $2 + 0 >= 0.95 { n++ } END { print n + 0 }')
tap_ok "every account has beta >= 0.95 ($(echo "$rows" | awk '{ printf "%s %s; ", $1, $2 }'))" \
	$([ "$ok" = 3 ]; echo $?) "$rows"
spread=$(echo "$rows" | awk '$2 + 0 > 1 { n++; if (!min || $3 < min) min = $3; if ($3 > max) max = $3 }
	END { if (n < 2) print "n/a"; else printf "%.3f", max / min }')
tap_diag "accounts above their non-sharing allocation: weighted aggregates max/min $spread"
tap_ok "those above their non-sharing allocation are within 10% of each other ($spread)" \
	$(awk -v s="$spread" 'BEGIN { exit !(s != "n/a" && s + 0 <= 1.10) }'; echo $?)
tap_done
