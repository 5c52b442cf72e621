#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0038: a site's own history through horae-sim (issue 23).  Jobs of two
# accounts run on a cluster with slurmdbd; what sacct recorded (with
# Eligible and NodeList) and what scontrol says of the nodes are replayed
# by horae-sim --sacct with the cluster's own settings where horae-sim
# models them (its hmrf.conf, Justice admission, eunomia.conf's placement
# and speeds if it sets them; see below), and set beside what the cluster
# did:
#  - every recorded job is replayed, none left out;
#  - each account's CPU-seconds in the replay are the records' exactly
#    (both sides count whole seconds: sacct's times, the replay's work);
#  - within each account the jobs start in the order they started on the
#    cluster (ties broken by job id on both sides).  Across accounts each
#    job's start in the replay is set beside its start on the cluster
#    (both from the first submission) and printed.
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
# every Period=1s), job_submit/justice (-a justice: these jobs have no
# deadline, so Justice judges none, on the cluster or in the replay) and
# select/eunomia's Placement and SpeedMap when eunomia.conf sets them.
# Without eunomia.conf (as here) select/eunomia places as
# select/cons_tres, which horae-sim does not model: it places first-fit,
# the nearest (cons_tres takes nodes in order when their weights are
# equal, as here).  Not modelled either: the scheduling passes themselves
# (Slurm's main scheduler runs when a job is submitted or ends, and every
# sched_interval=60s by default; backfill every bf_interval=30s), and the
# time between a job's end and its CPUs being free again.
conf_key() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/Ip" "$dir/eunomia.conf" 2>/dev/null | tail -1; }
replay=(--hmrf-conf="$dir/hmrf.conf" -a justice)
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
# the cluster, both from the first submission.
shifts=$(awk 'NR == FNR { if ($1 == "start") rec[$2] = $3; next }
	{ printf "%d:%+g ", $2, $1 - rec[$2] }' recorded.txt replayed.txt)
worst=$(awk 'NR == FNR { if ($1 == "start") rec[$2] = $3; next }
	{ d = $1 - rec[$2]; d = d < 0 ? -d : d; if (d > m) m = d }
	END { print m + 0 }' recorded.txt replayed.txt)
tap_diag "start in the replay minus on the cluster (s), by job: $shifts; worst $worst s"
tap_done
