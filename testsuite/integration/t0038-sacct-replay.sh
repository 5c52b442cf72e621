#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0038: a site's own history through horae-sim (issue 23).  Jobs of two
# accounts run on a cluster with slurmdbd; what sacct recorded and what
# scontrol says of the nodes are replayed by horae-sim --sacct under the
# policy the cluster ran (H-MRF), and set beside what the cluster did:
#  - every recorded job is replayed, none left out;
#  - each account's CPU-seconds in the replay are the records' exactly
#    (both sides count whole seconds: sacct's times, the replay's work);
#  - within each account the jobs start in the order they started on the
#    cluster (ties broken by job id on both sides).  Across accounts the
#    replay's order may differ from Slurm's by a scheduling pass, so it
#    is printed, not asserted.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
SIM=${HORAE_BUILDDIR:-}/../contribs/sim/horae-sim
[ -x "$SIM" ] || tap_skip_all "horae-sim not built (run through make check)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"
hc_test_setup t0038
dir=$HC_RUNDIR
HC_ACCOUNTING=1 HC_ACCOUNTS="physics:1 chem:1" \
HC_NODES=$'n1 2 2000 gen1\nn2 2 2000 gen4' HC_HMRF_CONF=$'Period=1s' hc_start
tap_ok "a cluster with slurmdbd started" $? || tap_done
cd "$dir" || exit 1
since=$(date +%Y-%m-%dT%H:%M:%S)

for i in 1 2 3; do
	sbatch -Q -A physics -n2 -o /dev/null --wrap 'sleep 4'
	sbatch -Q -A chem -n1 -o /dev/null --wrap 'sleep 3'
done
sbatch -Q -A chem -n1 -C gen4 -o /dev/null --wrap 'sleep 2'
hc_wait_jobs_done 90
tap_ok "the 7 jobs ran and left the queue" $? "$(squeue)"

# slurmdbd hears of a job's end a moment after slurmctld.
fmt=JobIDRaw,Account,Submit,Start,End,State,AllocTRES,Constraints
ended() { awk -F'|' 'NR > 1 && $5 != "Unknown" && $5 != ""' sacct.txt | wc -l; }
for ((i = 0; i < 30; i++)); do
	sacct -a -X -P -S "$since" --format=$fmt >sacct.txt 2>sacct.err
	[ "$(ended)" -ge 7 ] && break
	sleep 1
done
scontrol -o show node >nodes.txt
tap_ok "sacct recorded the 7 jobs, started and ended" \
	"$([ "$(ended)" = 7 ]; echo $?)" "$(cat sacct.txt sacct.err)"

"$SIM" -q --sacct --sacct-nodes=nodes.txt -p hmrf --json -j jobs.json \
	sacct.txt >sum.json 2>sim.err
tap_ok "horae-sim --sacct replays all 7, leaving none out" \
	"$(jq -e '.jobs.total == 7 and .jobs.ended == 7' sum.json >/dev/null &&
	   ! grep -q . sim.err; echo $?)" "$(cat sim.err sum.json)"

# What the records say: each account's CPU-seconds (AllocTRES cpu x
# (End - Start)), and the jobs by start (ties by id), all and each
# account's.
python3 - sacct.txt >recorded.txt <<'PY'
import sys, time
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
col = {n: i for i, n in enumerate(head)}
t = lambda s: time.mktime(time.strptime(s, "%Y-%m-%dT%H:%M:%S"))
use, order = {}, []
for r in rows:
    tres = dict(kv.split("=") for kv in r[col["AllocTRES"]].split(","))
    start, end = t(r[col["Start"]]), t(r[col["End"]])
    a = r[col["Account"]]
    use[a] = use.get(a, 0) + int(tres["cpu"]) * (end - start)
    order.append((start, int(r[col["JobIDRaw"]]), a))
order.sort()
print("use", " ".join(f"{a}={int(u)}" for a, u in sorted(use.items())))
print("order", " ".join(str(j) for _, j, _ in order))
for a in sorted(use):
    print("order." + a, " ".join(str(j) for _, j, b in order if b == a))
PY
jq -r '.[] | "\(.start) \(.id) \(.account) \(.cpu_time)"' jobs.json |
	sort -g -k1,1 -k2,2n >replayed.txt
rec_use=$(sed -n 's/^use //p' recorded.txt)
sim_use=$(awk '{ u[$3] += $4 } END { for (a in u) printf "%s=%d\n", a, u[a] }' \
	replayed.txt | sort | tr '\n' ' ' | sed 's/ $//')
tap_diag "CPU-seconds, recorded: $rec_use; replayed: $sim_use"
tap_ok "each account's CPU-seconds in the replay are the records'" \
	"$([ -n "$rec_use" ] && [ "$rec_use" = "$sim_use" ]; echo $?)"
for a in chem physics; do
	r=$(sed -n "s/^order\.$a //p" recorded.txt)
	s=$(awk -v a="$a" '$3 == a { print $2 }' replayed.txt | tr '\n' ' ' |
		sed 's/ $//')
	tap_ok "$a's jobs start in the replay in the order they started on the cluster ($r)" \
		"$([ -n "$r" ] && [ "$r" = "$s" ]; echo $?)" "replay: $s"
done
tap_diag "all starts, cluster: $(sed -n 's/^order //p' recorded.txt)"
tap_diag "all starts, replay:  $(awk '{ print $2 }' replayed.txt | tr '\n' ' ')"
tap_done
