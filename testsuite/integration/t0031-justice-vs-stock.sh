#!/usr/bin/env bash
# t0031: job_submit/justice against stock Slurm's own --deadline handling,
# on the same stream of deadline jobs, in the same run: two clusters of
# 16 CPUs (4 nodes of 4) side by side, every job submitted to both at the
# same moment.  The stream (seeded, reproducible): a job every GAP s;
# half rigid (2 or 4 CPUs for R s), half elastic (-N 1-2, 2 CPUs a node,
# W = 4 x R CPU-s of perfectly parallel work: R s on 4 CPUs, 2R on 2); R
# uniform in [20, 40] s; deadline at an Aria-style multiple of R, uniform
# in [1.5, 3]; time limits as a careful user gives them (rigid: R rounded
# up to minutes; elastic: the time at 2 CPUs, with --time-min the time at
# 4), which stock Slurm checks the deadline against.  About 2.5 times
# what the 16 CPUs can do while the stream lasts: a constrained cluster.
#
# Cluster J orders the admitted deadline jobs by Justice's urgency: its
# UrgencyWeight (1000000) is above the H-MRF factor's weight, as
# horae-justice.conf(5) advises for a cluster of deadline jobs.  Cluster S
# is stock Slurm, which itself refuses a job whose time limit (or
# --time-min) cannot fit before its deadline, cancels a queued one once
# it no longer can, and caps a starting job's limit at its deadline.
#
# Printed for both: SDR (jobs that completed by their deadline / all
# submitted) and WTR (CPU time of jobs that ran and missed / CPU time of
# all that ran), from the job records.  The issue expects Justice to meet
# more deadlines and waste less than stock.  Measured so far: seed 7,
# Justice ahead on both (SDR 0.375 vs 0.300, WTR 0.084 vs 0.167); seed
# 11, even on SDR (0.250) and behind on WTR (0.307 vs 0.238); a job every
# 3 s (1.7 times the capacity), even.  Two causes, seen in the job
# records: slurmctld caps a starting deadline job's limit at the whole
# minutes left before its deadline, which kills an elastic job Justice
# sized down when its run time at that size falls in the cut-off part of
# a minute; and Justice's order (few CPUs, much time left first) leaves
# near-deadline jobs queued until slurmctld cancels them.  Justice now
# plans against the whole-minute cap (run_cap); measured after that: seed
# 7 0.350 / 0.086 vs 0.300 / 0.167, seed 11 0.225 / 0.384 vs 0.250 /
# 0.238 (elastic jobs started on one node when only one was free still
# time out, with and without Justice).  With Order=deadline (shortest
# time to deadline first) instead: seed 7 even (0.300 / 0.167 both),
# seed 11 ahead (0.275 / 0.163 vs 0.250 / 0.238).  Neither order is ahead
# on both streams.  Later (2026-11-23), the default order: seed 11 ahead
# on both (0.275 / 0.251 vs 0.250 / 0.294); with waiting elastic jobs
# sized again every period (as the paper recomputes queued jobs'
# allocations): seed 7 ahead (0.400 / 0.073 vs 0.375 / 0.134), seed 13
# behind (0.275 / 0.414 vs 0.300 / 0.347; Justice refused 16 jobs at
# submission, stock 6: after misses its fraction nears 1, and against
# the whole-minute cap a job with a deadline 60-119 s away then needs
# more CPUs than it may use).  So the two comparisons are reported as
# TODO, not asserted.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

JOBS=${T0031_JOBS:-40}
GAP=${T0031_GAP:-2}
SEED=${T0031_SEED:-7}
NODES=$'n1 4 4000\nn2 4 4000\nn3 4 4000\nn4 4 4000'

hc_pair_setup t0031j t0031s
dj=$HC_PAIR_A
ds=$HC_PAIR_B

hc_init "$dj" || exit 1
HC_NODES=$NODES \
HC_JUSTICE_CONF=$'Bootstrap=5\nPeriod=2s\nKillAbove=2\nUrgencyWeight=1000000' \
HC_HMRF_CONF=$'Period=2s' hc_start
tap_ok "cluster J: priority/hmrf, select/eunomia, job_submit/justice" $? || tap_done
CJ=$HC_CONF
hc_init "$ds" || exit 1
HC_NODES=$NODES HC_PROFILE=stock hc_start
tap_ok "cluster S: stock multifactor, cons_tres, no job_submit plugin" $? || tap_done
CS=$HC_CONF

# The stream: "id kind cpus R m" per line.
awk -v n="$JOBS" -v seed="$SEED" 'BEGIN {
	srand(seed)
	for (i = 1; i <= n; i++) {
		kind = rand() < 0.5 ? "rigid" : "elastic"
		c = rand() < 0.5 ? 2 : 4
		R = 20 + int(rand() * 21)
		m = 1.5 + rand() * 1.5
		printf "%d %s %d %d %.2f\n", i, kind, (kind == "rigid" ? c : 4), R, m
	}
}' >"$dj/stream"
cp "$dj/stream" "$ds/stream"

cat >"$dj/job.sh" <<'EOF'
#!/bin/bash
# $1: CPU-seconds of work; runs on the CPUs it was given.
cpus=${SLURM_NTASKS:-1}
sleep $(awk -v w="$1" -v c="$cpus" 'BEGIN { printf "%.2f", w / c }')
EOF
chmod +x "$dj/job.sh"
cp "$dj/job.sh" "$ds/job.sh"

# submit DIR CONF ARGS...: the job id, or "-" when refused.
submit()
{
	local dir=$1 conf=$2 id
	shift 2
	id=$(cd "$dir" && SLURM_CONF=$conf sbatch --parsable -o /dev/null "$@" 2>>"$dir/refused")
	echo "${id:--}"
}

t0=$(date +%s)
while read -r i kind cpus R m; do
	dl=$(awk -v r="$R" -v m="$m" 'BEGIN { printf "%d", r * m }')
	if [ "$kind" = rigid ]; then
		lim=$(( (R + 59) / 60 ))
		args=(-n "$cpus" -t "$lim" "--deadline=now+$dl" ./job.sh $((cpus * R)))
	else
		lim=$(( (2 * R + 59) / 60 ))
		tmin=$(( (R + 59) / 60 ))
		args=(-N 1-2 --ntasks-per-node=2 -t "$lim" --time-min="$tmin"
		      "--deadline=now+$dl" ./job.sh $((4 * R)))
	fi
	now=$(date +%s)
	echo "$i $kind $cpus $R $((now + dl)) $(submit "$dj" "$CJ" "${args[@]}")" >>"$dj/jobs"
	echo "$i $kind $cpus $R $((now + dl)) $(submit "$ds" "$CS" "${args[@]}")" >>"$ds/jobs"
	sleep "$GAP"
done <"$dj/stream"
tap_ok "the stream of $JOBS jobs was submitted to both ($(( $(date +%s) - t0 )) s)" 0

# Wait until both queues are empty.
for _ in $(seq 600); do
	[ -z "$(SLURM_CONF=$CJ squeue -h -o %i 2>/dev/null)" ] &&
		[ -z "$(SLURM_CONF=$CS squeue -h -o %i 2>/dev/null)" ] && break
	sleep 1
done
tap_ok "both queues drained" $?

# measure DIR CONF: "SDR WTR met jobs" from the job records.
measure()
{
	local dir=$1 conf=$2 i kind cpus R dl id
	while read -r i kind cpus R dl id; do
		if [ "$id" = - ]; then
			echo "$i refused 0 0 0 $dl"
			continue
		fi
		SLURM_CONF=$conf scontrol -o show job "$id" | awk -v i="$i" -v dl="$dl" '
		{
			for (f = 1; f <= NF; f++) {
				split($f, kv, "=")
				v[kv[1]] = substr($f, length(kv[1]) + 2)
			}
			cmd = "date -d " v["StartTime"] " +%s"; cmd | getline s; close(cmd)
			cmd = "date -d " v["EndTime"] " +%s"; cmd | getline e; close(cmd)
			print i, v["JobState"], v["NumCPUs"], s, e, dl
		}'
	done <"$dir/jobs" >"$dir/outcome"
	awk '
	{
		n++
		run = ($4 > 0 && $5 > $4) ? ($5 - $4) * $3 : 0
		ok = ($2 == "COMPLETED" && $5 <= $6)
		if (ok) { met++; good += run } else bad += run
	}
	END { printf "%.3f %.3f %d %d\n", met / n, (good + bad > 0 ? bad / (good + bad) : 0), met, n }' "$dir/outcome"
}
read -r sdr_j wtr_j met_j n_j < <(measure "$dj" "$CJ")
read -r sdr_s wtr_s met_s n_s < <(measure "$ds" "$CS")
states() { awk '{ c[$2]++ } END { for (s in c) printf "%s %d, ", s, c[s] }' "$1/outcome"; }
tap_diag "justice: SDR $sdr_j ($met_j of $n_j), WTR $wtr_j; $(states "$dj")"
tap_diag "stock:   SDR $sdr_s ($met_s of $n_s), WTR $wtr_s; $(states "$ds")"
echo "t0031: justice SDR $sdr_j WTR $wtr_j; stock SDR $sdr_s WTR $wtr_s" >&2
why="not shown on every stream yet: see the header"
tap_expect "justice meets more deadlines than stock (SDR $sdr_j vs $sdr_s)" \
	$(awk -v a="$sdr_j" -v b="$sdr_s" 'BEGIN { exit !(a > b) }'; echo $?) \
	"$why"
tap_expect "and wastes less CPU time on jobs that miss (WTR $wtr_j vs $wtr_s)" \
	$(awk -v a="$wtr_j" -v b="$wtr_s" 'BEGIN { exit !(a < b) }'; echo $?) \
	"$why"
tap_done
