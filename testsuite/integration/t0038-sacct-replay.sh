#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0038: a site's own history through horae-sim (issue 23).  Jobs of two
# accounts run on a cluster with slurmdbd; what sacct recorded (with
# Eligible and NodeList) and what scontrol says of the nodes are replayed
# by horae-sim --sacct with the cluster's own settings where horae-sim
# models them (its hmrf.conf, eunomia.conf's placement and speeds if it
# sets them; see below), and set beside what the cluster did:
#  - every recorded job is replayed, none left out;
#  - each account's CPU-seconds in the replay are the records' exactly
#    (both sides count whole seconds: sacct's times, the replay's work);
#  - within each account the jobs start in the order they started on the
#    cluster (ties broken by job id on both sides).  Across accounts each
#    job's start in the replay is set beside its start on the cluster
#    (both from the first submission) and printed, not asserted (why:
#    at the end).
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
fmt=JobIDRaw,Account,Submit,Eligible,Start,End,State,AllocTRES,Constraints,NodeList
ended() { awk -F'|' 'NR > 1 && $6 != "Unknown" && $6 != ""' sacct.txt | wc -l; }
for ((i = 0; i < 30; i++)); do
	sacct -a -X -P -S "$since" --format=$fmt >sacct.txt 2>sacct.err
	[ "$(ended)" -ge 7 ] && break
	sleep 1
done
scontrol -o show node >nodes.txt
tap_ok "sacct recorded the 7 jobs, started and ended" \
	"$([ "$(ended)" = 7 ]; echo $?)" "$(cat sacct.txt sacct.err)"

# The replay runs with what the cluster ran, where horae-sim models it:
# priority/hmrf with the same hmrf.conf (its Policy, window and shares;
# horae-sim ranks the queue at every event where the plugin ranks it
# every Period=1s), and select/eunomia's Placement and SpeedMap when
# eunomia.conf sets them.  Not job_submit/justice: these jobs have no
# deadline, so on the cluster it judges none and priority/hmrf orders
# them all, while horae-sim's -a justice ranks the whole queue by
# Justice's own order, deadline-less jobs last in the order they came
# (sim_engine.c _rank): with it the replay started physics's 1 and 3
# first, where without it, as on the cluster, 1, 2 and 4.  Without
# eunomia.conf (as here) select/eunomia places as select/cons_tres,
# which horae-sim does not model: it places first-fit.  Not modelled
# either: the scheduling passes themselves (Slurm's main scheduler runs
# when a job is submitted or ends, and every sched_interval=60s by
# default; backfill every bf_interval=30s), and the time between a job's
# end and its CPUs being free again.
conf_key() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/Ip" "$dir/eunomia.conf" 2>/dev/null | tail -1; }
replay=(--hmrf-conf="$dir/hmrf.conf")
placement=$(conf_key Placement)
[ -n "$placement" ] && [ "$placement" != cons_tres ] && replay+=(-P "$placement")
speeds=$(conf_key SpeedMap)
[ -n "$speeds" ] && replay+=(--speed-map="$speeds")
tap_diag "replayed with: ${replay[*]}"
"$SIM" -q --sacct --sacct-nodes=nodes.txt "${replay[@]}" --json -j jobs.json \
	sacct.txt >sum.json 2>sim.err
tap_ok "horae-sim --sacct replays all 7 under hmrf, leaving none out" \
	"$(jq -e '.jobs.total == 7 and .jobs.ended == 7 and .run.policy == "hmrf"' sum.json >/dev/null &&
	   ! grep -q . sim.err; echo $?)" "$(cat sim.err sum.json)"

# What the records say: each account's CPU-seconds (AllocTRES cpu x
# (End - Start)), the jobs by start (ties by id), all and each account's,
# and each job's start in seconds from the first submission (Submit, or
# Eligible when later, as horae-sim reads it: the replay's time 0).
python3 - sacct.txt >recorded.txt <<'PY'
import sys, time
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
col = {n: i for i, n in enumerate(head)}
t = lambda s: time.mktime(time.strptime(s, "%Y-%m-%dT%H:%M:%S"))
use, order, submits = {}, [], []
for r in rows:
    tres = dict(kv.split("=") for kv in r[col["AllocTRES"]].split(","))
    start, end = t(r[col["Start"]]), t(r[col["End"]])
    submit = t(r[col["Submit"]])
    if r[col["Eligible"]] not in ("", "Unknown", "None"):
        submit = max(submit, min(t(r[col["Eligible"]]), start))
    submits.append(submit)
    a = r[col["Account"]]
    use[a] = use.get(a, 0) + int(tres["cpu"]) * (end - start)
    order.append((start, int(r[col["JobIDRaw"]]), a))
order.sort()
print("use", " ".join(f"{a}={int(u)}" for a, u in sorted(use.items())))
print("order", " ".join(str(j) for _, j, _ in order))
for a in sorted(use):
    print("order." + a, " ".join(str(j) for _, j, b in order if b == a))
for s, j, _ in order:
    print("start", j, int(s - min(submits)))
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
# Across accounts: each job's start in the replay against its start on
# the cluster, both from the first submission, and how far each job moved
# in the order of starts.  Printed, not asserted.  Over 5 runs (2026-11-25,
# 2 cores) the replay started every job earlier: jobs 1, 2, 3, 4 and 6
# by 2 to 4 s (the cluster's first pass came 2-3 s after the submissions,
# later ones about 1 s after a job's end: hmrf's Period=1s), physics's
# job 5, behind three others, by 6 to 8 s (the lags add up), and chem's
# gen4 job 7 by 8 to 10 s: select/cons_tres put physics's jobs 1 and 3
# wholly on the gen4 node, where the replay's first-fit split job 1 over
# both nodes and put chem's job 4 on the gen4 one; jobs moved 1 or 2
# places of 7.  The worst shift is a whole run time set by placement,
# which horae-sim does not model here, not a pass period: a K that held
# would be this workload's, a second or two above what was measured.
shifts=$(awk 'NR == FNR { if ($1 == "start") rec[$2] = $3; next }
	{ printf "%d:%+g ", $2, $1 - rec[$2] }' recorded.txt replayed.txt)
worst=$(awk 'NR == FNR { if ($1 == "start") rec[$2] = $3; next }
	{ d = $1 - rec[$2]; d = d < 0 ? -d : d; if (d > m) m = d }
	END { print m + 0 }' recorded.txt replayed.txt)
moved=$(awk 'NR == FNR { if ($1 == "order") for (k = 2; k <= NF; k++) at[$k] = k - 1; next }
	{ d = FNR - at[$2]; d = d < 0 ? -d : d; if (d > m) m = d }
	END { print m + 0 }' recorded.txt replayed.txt)
tap_diag "start in the replay minus on the cluster (s), by job: $shifts; worst $worst s; worst move $moved places"
tap_done
