#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0021: Eunomia's micro-benchmark, scaled down, on a real cluster.
# Eight nodes of 4 CPUs, two each of speed 1.0, 1.5, 2.0 and 3.0 (features
# gen1..gen4).  Four accounts with the same amount of work: a1, a2 and a3
# submit 64 one-CPU jobs of 15 units each (a unit is a second at speed
# 1.0: a job sleeps WORK / speed on its node); a4 pins its jobs to gen4
# with --constraint and submits 32 jobs of 30 units (four rounds of its 8
# CPUs).  On gen4 an a4 job takes 10 s, about what the others' jobs take
# on the average node, so a scheduler fair in CPU time or in jobs gives a4
# more progress than the others for the same charge: what Eunomia corrects.
# Job length is a compromise: the last job of an account on a gen1 node
# (15 s) sets how evenly accounts can finish, and the gaps slurmctld leaves
# between short jobs (about a second each) blur the stock baseline.
#
# Three runs of the same queue, progress measured by the jobs themselves
# (node speed x run time, logged by each job), not taken from the plugins:
# - Eunomia: priority/hmrf's Eunomia factor and select/eunomia's
#   Placement=eunomia.  The four progress shares stay within 40% of each
#   other and the accounts' work completes within 40% of the same time.
#   Measured with bf_min_prio_reserve (NOBLOCK below) over 16 runs of
#   this test (8 per release, the two at once as in CI, 2026-12-07):
#   shares max/min 1.024-1.252, median 1.12; completion 1.054-1.261; and
#   6 more runs of the Eunomia part alone, shares 1.028-1.174.  The
#   spread is Eunomia's own under this queue: jobs that start together
#   end together (the jobs' 5, 7.5, 10 and 15 s all divide 30 s, so most
#   of the first round's CPUs come free at once, 30 s in), the CPUs they
#   free all go to the account furthest behind (each of its jobs charged
#   one Period of progress in the order, but making a whole job's), and
#   it overshoots by up to a round of the cluster's work (18 to 28 CPUs
#   to one account within 4 s in each of those 6 runs, a1 every time).
#   These lines bound that; what Eunomia evens against the baselines
#   below is asserted by a4's share over the others', a clear separation.
#   Without bf_min_prio_reserve (32 runs, 2026-11-26: 1.004-1.281) a CI
#   run came out at 1.427: a4's top job held the partition, CPUs stayed
#   idle 6 s, then backfill gave 22 of them to a1 at once on an order
#   30 s old (bf_interval) and a1 took 31 CPUs within 4 s.
# - Eunomia off: priority/hmrf with its H-MRF factor at its default weight
#   (fairness in CPU time, memory and nodes) over plain select/cons_tres,
#   no Eunomia factor.  a4's progress share over the others' exceeds what
#   it is with Eunomia by more than 0.1 (over the 16 runs above:
#   1.20x-1.38x against 0.90x-1.02x, never less than 0.2 apart in one
#   run): the evening above is Eunomia's.  How unevenly the accounts
#   finish is printed (completion max/min 1.294-1.437 over those runs:
#   a baseline's, not asserted).
# - Stock task-share fairness: select/cons_tres, priority/multifactor and
#   every account held to an equal quarter of the CPUs (sacctmgr
#   GrpTRES=cpu=8: the paper's TSF baseline, by stock means), with node
#   weights that fill the older generations first (Slurm's advice for
#   heterogeneous nodes).  a4's share over the others' is printed, and
#   must exceed Eunomia's by more than 0.3 (measured 1.58x-1.80x
#   against 0.90x-1.02x over the 16 runs).
# Measured by hand, not run here: on a queue where a4's jobs have the
# same work as the others' (so they are the short ones), plain FIFO and
# priority/hmrf alone both come out even in shares (a4 merely finishes
# first), which is why a4's jobs carry twice the work here.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

JOBS=${T0021_JOBS:-64}	# per account a1..a3; a4 submits half as many
WORK=${T0021_WORK:-15}	# units per job (15 s at speed 1.0); a4's twice that
NODES=$'g1a 4 4000 gen1\ng1b 4 4000 gen1\ng2a 4 4000 gen2\ng2b 4 4000 gen2
g3a 4 4000 gen3\ng3b 4 4000 gen3\ng4a 4 4000 gen4\ng4b 4 4000 gen4'
SPEEDS=gen1:1.0,gen2:1.5,gen3:2.0,gen4:3.0
# What horae-eunomia.conf(5), CONSTRAINTS, tells a site whose accounts pin
# jobs to node generations: a job that cannot start (a4's, when gen4 is
# full) no longer stops the main scheduler for the whole partition, so
# the other accounts' jobs start as CPUs free, in the order, instead of
# all at once by backfill every 30 s (bf_interval) on an order up to 30 s
# old.  200000 is above any priority here (PriorityWeightAssoc 100000 plus
# H-MRF's weight, 1 or 100000).  Both priority/hmrf runs use it, so what
# differs between them is Eunomia.
NOBLOCK=SchedulerParameters=batch_sched_delay=0,bf_min_prio_reserve=200000

dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# The job: sleep WORK / speed of its node, then log account, speed, start
# and end (seconds, with fractions).
job_script()
{
	cat <<EOF
#!/bin/bash
start=\$(date +%s.%N)
case \$SLURMD_NODENAME in
g1*) s=1.0 ;; g2*) s=1.5 ;; g3*) s=2.0 ;; g4*) s=3.0 ;; *) s=1.0 ;;
esac
w=$WORK; [ "\$SLURM_JOB_ACCOUNT" = a4 ] && w=$((2 * WORK))
sleep \$(awk -v w=\$w -v s=\$s 'BEGIN { printf "%.3f", w / s }')
echo "\$SLURM_JOB_ACCOUNT \$s \$start \$(date +%s.%N)" >>$1/work.log
EOF
}

# run NAME: run the backlog on the cluster started by the caller; prints
# per account "share completion" and the summary into $1/result.
run()
{
	local dir=$HC_RUNDIR i a t0
	job_script "$dir" >"$dir/job.sh"
	chmod +x "$dir/job.sh"
	: >"$dir/work.log"
	scontrol update nodename=ALL state=drain reason=filling-the-queue
	for ((i = 0; i < JOBS; i++)); do
		for a in a1 a2 a3; do
			sbatch -Q -A $a -n1 -t 5 -o /dev/null "$dir/job.sh"
		done
		((i % 2)) ||
		sbatch -Q -A a4 -n1 -t 5 -C gen4 -o /dev/null "$dir/job.sh"
	done
	sleep 3 # one recalculation: the factors of the queue
	sprio -h -o '%i %u %b %f' >"$dir/sprio" 2>&1
	t0=$(date +%s.%N)
	hc_undrain ALL
	hc_wait_jobs_done 900 || return 1
	# Shares while all four had work: up to the first account's last end.
	awk -v t0="$t0" -v n="$JOBS" -v name="$1" '
	{
		acct[$1] = 1; cnt[$1]++
		p[NR] = $1; sp[NR] = $2; st[NR] = $3; en[NR] = $4
		if ($4 > done[$1]) done[$1] = $4
	}
	END {
		cut = -1
		for (a in acct) if (cut < 0 || done[a] < cut) cut = done[a]
		for (i = 1; i <= NR; i++) {
			e = en[i] < cut ? en[i] : cut
			if (e > st[i]) x[p[i]] += sp[i] * (e - st[i])
			tot += (e > st[i]) ? sp[i] * (e - st[i]) : 0
		}
		for (a in acct) {
			printf "%s %s share %.3f done %.1f s (%d jobs)\n", name, a,
				x[a] / tot, done[a] - t0, cnt[a]
		}
	}' "$dir/work.log" | sort >"$dir/result"
	cat "$dir/result" >&2
}

share() { awk -v a="$2" '$2 == a { print $4 }' "$1"; }
done_at() { awk -v a="$2" '$2 == a { print $6 }' "$1"; }
# spread FILE FIELD: max / min over the accounts
spread() { awk -v f="$2" '{ v = $f; if (!n++ || v > mx) mx = v; if (n == 1 || v < mn) mn = v } END { printf "%.3f", (mn > 0 ? mx / mn : 999) }' "$1"; }

# --- Eunomia: priority/hmrf's Eunomia factor + Placement=eunomia ---------
dirs+=("$(tap_rundir t0021)")
hc_init "${dirs[-1]}" || exit 1
HC_NODES=$NODES HC_EUNOMIA_CONF="Placement=eunomia
SpeedMap=$SPEEDS
Window=none
Period=2s" HC_HMRF_CONF=$'Period=2s\nWindow=none\nPriorityWeight=1' \
HC_EXTRA_CONF="PriorityWeightAssoc=100000
$NOBLOCK
PartitionName=p Nodes=ALL Default=YES State=UP" hc_start
tap_ok "a cluster with priority/hmrf and select/eunomia (Placement=eunomia) started" $? || tap_done
run eunomia
tap_ok "the Eunomia run finished" $?
E=${dirs[-1]}/result
# Before the start nobody has progress: every account's first job gets a
# high factor; an account's later jobs lower ones (virtual charging).
nassoc=$(awk '{ print $3 }' "${dirs[-1]}/sprio" | sort -u | wc -l)
tap_ok "sprio shows the Eunomia factor in its ASSOC column ($nassoc values)" \
	$([ "$nassoc" -gt 4 ]; echo $?) "$(head -5 "${dirs[-1]}/sprio")"
grep -q "select/eunomia: placement eunomia over select/cons_tres" \
	"${dirs[-1]}/log/slurmctld.log"
tap_ok "select/eunomia says it places by eunomia" $?
ls "${dirs[-1]}/state/horae_eunomia.state" >/dev/null 2>&1
tap_ok "progress is saved in StateSaveLocation/horae_eunomia.state" $?
hc_stop

# --- stock, task-share fairness: cons_tres, multifactor, each account ----
# --- held to its equal quarter of the CPUs (GrpTRES=cpu=8), node weights --
# The baseline of the paper (TSF gives every job the same number of
# tasks), made with stock Slurm's own means.
dirs+=("$(tap_rundir t0021)")
hc_init "${dirs[-1]}" || exit 1
HC_NODES=$NODES HC_PROFILE=stock HC_ACCOUNTING=1 \
HC_ACCOUNTS="a1:1 a2:1 a3:1 a4:1" HC_EXTRA_CONF=$'AccountingStorageEnforce=associations,limits
PartitionName=p Nodes=ALL Default=YES State=UP' hc_start
tap_ok "a stock cluster (cons_tres, multifactor, slurmdbd) started" $? || tap_done
for a in a1 a2 a3 a4; do
	sacctmgr -i -Q modify account where name=$a cluster="$HC_CLUSTER" \
		set GrpTRES=cpu=8 >/dev/null || break
done
tap_ok "each account limited to 8 CPUs with sacctmgr" $?
# Slurm's advice: weigh nodes so that jobs fill the plainer ones first and
# the better ones stay free for the jobs that need them.
for g in 1 2 3 4; do
	scontrol update nodename=g${g}a,g${g}b weight=$g || break
done
tap_ok "node weights 1 to 4 by generation" $?
sleep 2
run tsf
tap_ok "the stock task-share run finished" $?
S=${dirs[-1]}/result
hc_stop

# --- Eunomia off: the same priority/hmrf over plain cons_tres -----------
dirs+=("$(tap_rundir t0021)")
hc_init "${dirs[-1]}" || exit 1
HC_NODES=$NODES HC_SELECT=select/cons_tres \
HC_HMRF_CONF=$'Period=2s\nWindow=none' \
HC_EXTRA_CONF="$NOBLOCK
PartitionName=p Nodes=ALL Default=YES State=UP" hc_start
tap_ok "a cluster with priority/hmrf over select/cons_tres (Eunomia off) started" $? || tap_done
run hmrf
tap_ok "the run with Eunomia off finished" $?
H=${dirs[-1]}/result
hc_stop

es=$(spread "$E" 4) ed=$(spread "$E" 6)
# ratio FILE: a4's share over the mean of the others'
ratio() { awk '$2 == "a4" { a = $4 } $2 != "a4" { s += $4; n++ } END { printf "%.2f", (s > 0 ? a / (s / n) : 0) }' "$1"; }
others() { awk '$2 != "a4" { s += $4; n++ } END { printf "%.3f", s / n }' "$1"; }
sr=$(ratio "$S") hr=$(ratio "$H") er=$(ratio "$E") hd=$(spread "$H" 6)
line() { awk '{ printf "%s %s done %ss; ", $2, $4, $6 }' "$1"; }
tap_diag "eunomia:   $(line "$E")"
tap_diag "eunomia off (priority/hmrf, cons_tres): $(line "$H")"
tap_diag "cons_tres, 8 CPUs per account: $(line "$S")"
echo "t0021: eunomia shares max/min $es, completion max/min $ed; a4 share / others': eunomia ${er}x, eunomia off ${hr}x (completion max/min $hd), cons_tres with 8 CPUs per account ${sr}x" >&2
# Measured 1.024-1.252 over 16 runs, 1.028-1.174 over 6 more (see the
# top): the line is about one overshoot's worth above the highest.
tap_ok "eunomia: the four progress shares are within 40% (max/min $es)" \
	$(awk -v x="$es" 'BEGIN { exit !(x + 0 > 0 && x <= 1.40) }'; echo $?)
# When an account finishes is when its last job ends, and a last job that
# lands on a gen1 node takes 15 s of the 62-81 s the accounts take (the
# 16 runs): up to about 1.24 apart by that alone, and the overshoot above
# adds to it.  Measured 1.054-1.261 over the same 16 runs (without
# bf_min_prio_reserve, 1.007-1.271 over 32 runs; the failed run's
# accounts took 71-95 s).
tap_ok "eunomia: the four accounts finish within 40% of each other (max/min $ed)" \
	$(awk -v x="$ed" 'BEGIN { exit !(x + 0 > 0 && x <= 1.40) }'; echo $?)
last() { sort -k6 -n "$1" | tail -1 | awk '{ print $6 }'; }
tap_diag "last job ended after $(last "$E") s with eunomia, $(last "$H") s with eunomia off, $(last "$S") s with stock task-share"
# How unevenly the accounts finish without Eunomia is the baseline's, and
# it sat close to the line (1.294 to 1.437 max/min over the 16 runs):
# printed, not asserted; the share check below separates them.
tap_diag "eunomia off: the accounts finish within max/min $hd of each other (eunomia: $ed)"
tap_ok "eunomia off: a4's share over the others' exceeds eunomia's by more than 0.1 (${hr}x vs ${er}x)" \
	$(awk -v h="$hr" -v e="$er" 'BEGIN { exit !(h - e > 0.1) }'; echo $?)
# The stock baseline is printed, and compared with Eunomia by a clear
# separation only: a4's share over the others' measured 1.58x-1.80x
# under stock task-share and 0.90x-1.02x under Eunomia (the 16 runs;
# earlier runs 1.49x-2x); 1.5x itself is the baseline's, not Horae's, to
# meet.
tap_diag "cons_tres, equal CPUs: a4's progress share $(share "$S" a4) vs the others' $(others "$S"): ${sr}x"
tap_ok "stock task-share gives a4 at least 0.3 more of the others' share than eunomia does (${sr}x vs ${er}x)" \
	$(awk -v s="$sr" -v e="$er" 'BEGIN { exit !(s - e > 0.3) }'; echo $?)
tap_done
