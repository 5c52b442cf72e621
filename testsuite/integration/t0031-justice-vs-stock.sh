#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0031: job_submit/justice against stock Slurm's own --deadline handling,
# on the same streams of deadline jobs, in the same run: for each stream
# (T0031_SEEDS, default "7 11", run at the same time) two clusters of 16
# CPUs (4 nodes of 4) side by side, every job submitted to both at the
# same moment.  A stream (seeded, reproducible): a job every GAP s; half
# rigid (2 or 4 CPUs for R s), half elastic (-N 1-2, 2 CPUs a node, W = 4
# x R CPU-s of perfectly parallel work: R s on 4 CPUs, 2R on 2); R
# uniform in [20, 40] s; deadline at an Aria-style multiple of R, uniform
# in [1.5, 3]; time limits as a careful user gives them (rigid: R rounded
# up to minutes; elastic: the time at 2 CPUs, with --time-min the time at
# 4), which stock Slurm checks the deadline against.  About 2.5 times
# what the 16 CPUs can do while the stream lasts: a constrained cluster.
#
# Cluster J orders the admitted deadline jobs by Justice's urgency: its
# UrgencyWeight (1000000) is above the H-MRF factor's weight, as
# horae-justice.conf(5) advises for a cluster of deadline jobs.  Cluster S
# is stock Slurm, which itself refuses a job whose --time-min cannot fit
# before its deadline, cancels a queued one whose limit no longer can
# (Justice refuses those at submission, "Slurm would cancel it"), and
# caps a starting job's limit at the whole minutes left.
#
# Cluster J first learns from a training stream of its own (T0031_TRAIN
# jobs, default 30, seed + 1000, fed to J alone and drained), as a Justice
# in service has a history: with Bootstrap=5 and 40 jobs, an untrained J
# admitted some 30 of the 40 while still learning, so the comparison
# measured hardly any of Justice's estimates (the learning fixes of
# 2026-11-24 left an untrained run's figures unchanged to the CPU-second).
#
# Printed for each stream and for all: SDR (jobs that completed by their
# deadline / all submitted) and WTR (CPU time of jobs that ran and missed
# / CPU time of all that ran), from the job records, what J had learnt
# (sfair -D) and each job's fate on both.  Asserted, over all streams, as
# the issue asks: Justice meets more deadlines than stock and wastes a
# smaller part of its CPU time on jobs that miss.
#
# Measured (2026-11-24; J vs S, SDR / WTR), this form: seeds 7 and 11,
# 0.400 / 0.000 vs 0.300 / 0.166 and 0.325 / 0.000 vs 0.250 / 0.238 (29
# vs 22 of 80 met); seeds 13 and 17 (T0031_SEEDS="13 17"), 0.375 / 0.000
# vs 0.275 / 0.360 and 0.425 / 0.073 vs 0.325 / 0.367 (32 vs 24).  What
# made the difference, job by job: stock's waste is elastic jobs started
# on the one node free (2R s) that slurmctld's whole-minute cut ends at
# 60 s; Justice sizes a node range to no fewer nodes than its own time
# limit claims in the time it has (the limit holds at the range's
# bottom), so those wait for two nodes or are dropped unrun.  Before that
# rule, with the paper's one fraction for all jobs (near 0.5, while these
# jobs need R / 60, 0.33-0.67), Justice sized about half of them to one
# node and lost seed 11 on both counts (0.225 / 0.389 vs 0.250 / 0.238).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

JOBS=${T0031_JOBS:-40}
TRAIN=${T0031_TRAIN:-30}
GAP=${T0031_GAP:-2}
read -ra SEEDS <<<"${T0031_SEEDS:-${T0031_SEED:-7 11}}"
NODES=$'n1 4 4000\nn2 4 4000\nn3 4 4000\nn4 4 4000'

# stream SEED N: N jobs, "id kind cpus R m" per line.
stream()
{
	awk -v n="$2" -v seed="$1" 'BEGIN {
		srand(seed)
		for (i = 1; i <= n; i++) {
			kind = rand() < 0.5 ? "rigid" : "elastic"
			c = rand() < 0.5 ? 2 : 4
			R = 20 + int(rand() * 21)
			m = 1.5 + rand() * 1.5
			printf "%d %s %d %d %.2f\n", i, kind, (kind == "rigid" ? c : 4), R, m
		}
	}'
}

# Stream k (seed SEEDS[k]): cluster J at HC_GROUP[2k], S at HC_GROUP[2k+1].
names=()
for seed in "${SEEDS[@]}"; do
	names+=("t0031j$seed" "t0031s$seed")
done
hc_group_setup "${names[@]}"
CONF=()
for ((k = 0; k < ${#SEEDS[@]}; k++)); do
	dj=${HC_GROUP[2 * k]} ds=${HC_GROUP[2 * k + 1]} seed=${SEEDS[k]}
	hc_init "$dj" || exit 1
	HC_NODES=$NODES \
	HC_JUSTICE_CONF=$'Bootstrap=5\nPeriod=2s\nKillAbove=2\nUrgencyWeight=1000000' \
	HC_HMRF_CONF=$'Period=2s' hc_start
	tap_ok "stream $seed, cluster J: priority/hmrf, select/eunomia, job_submit/justice" $? || tap_done
	CONF[2*k]=$HC_CONF
	hc_init "$ds" || exit 1
	HC_NODES=$NODES HC_PROFILE=stock hc_start
	tap_ok "stream $seed, cluster S: stock multifactor, cons_tres, no job_submit plugin" $? || tap_done
	CONF[2*k+1]=$HC_CONF

	stream "$seed" "$JOBS" >"$dj/stream"
	stream $((seed + 1000)) "$TRAIN" >"$dj/train"
	# $1: CPU-seconds of work; runs on the CPUs it was given.
	printf '%s\n' '#!/bin/bash' 'cpus=${SLURM_NTASKS:-1}' \
		'sleep $(awk -v w="$1" -v c="$cpus" '\''BEGIN { printf "%.2f", w / c }'\'')' \
		>"$dj/job.sh"
	chmod +x "$dj/job.sh"
	cp "$dj/job.sh" "$ds/job.sh"
done

# submit DIR CONF ARGS...: the job id, or "-" when refused.
submit()
{
	local dir=$1 conf=$2 id
	shift 2
	id=$(cd "$dir" && SLURM_CONF=$conf sbatch --parsable -o /dev/null "$@" 2>>"$dir/refused")
	echo "${id:--}"
}

# feed K [train]: stream K to its clusters J and S, each job to both at
# once; with "train", K's training stream to J alone.
feed()
{
	local dj=${HC_GROUP[2 * $1]} ds=${HC_GROUP[2 * $1 + 1]}
	local cj=${CONF[2 * $1]} cs=${CONF[2 * $1 + 1]}
	local i kind cpus R m dl lim tmin now args in=stream
	[ "${2:-}" = train ] && in=train
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
		if [ "$in" = train ]; then
			submit "$dj" "$cj" "${args[@]}" >/dev/null
		else
			echo "$i $kind $cpus $R $((now + dl)) $(submit "$dj" "$cj" "${args[@]}")" >>"$dj/jobs"
			echo "$i $kind $cpus $R $((now + dl)) $(submit "$ds" "$cs" "${args[@]}")" >>"$ds/jobs"
		fi
		sleep "$GAP"
	done <"$dj/$in"
}

# drained CONF...: wait (up to 10 min) until every queue is empty.
drained()
{
	local c busy
	for _ in $(seq 600); do
		busy=
		for c in "$@"; do
			[ -n "$(SLURM_CONF=$c squeue -h -o %i 2>/dev/null)" ] && { busy=1; break; }
		done
		[ -z "$busy" ] && return 0
		sleep 1
	done
	return 1
}

# learnt CONF: what Justice has learnt, as sfair -D says it.
learnt() { SLURM_CONF=$1 "$HORAE_BINDIR/sfair" -D -P -n 2>&1 | tr '\n' ' '; }

# Training: each J learns from its own stream first, as a Justice in
# service has, and is then judged with what it learnt.
if [ "$TRAIN" -gt 0 ]; then
	t0=$(date +%s)
	pids=()
	for ((k = 0; k < ${#SEEDS[@]}; k++)); do
		feed "$k" train &
		pids+=($!)
	done
	wait "${pids[@]}"
	jconf=()
	for ((k = 0; k < ${#SEEDS[@]}; k++)); do
		jconf+=("${CONF[2 * k]}")
	done
	drained "${jconf[@]}"
	tap_ok "each J trained on a stream of $TRAIN jobs of its own ($(( $(date +%s) - t0 )) s)" $?
	for ((k = 0; k < ${#SEEDS[@]}; k++)); do
		tap_diag "stream ${SEEDS[k]}, J after training: $(learnt "${CONF[2 * k]}")"
	done
fi

t0=$(date +%s)
pids=()
for ((k = 0; k < ${#SEEDS[@]}; k++)); do
	feed "$k" &
	pids+=($!)
done
wait "${pids[@]}"
fed=0
for d in "${HC_GROUP[@]}"; do
	[ "$(wc -l <"$d/jobs" 2>/dev/null)" = "$JOBS" ] && fed=$((fed + 1))
done
tap_ok "${#SEEDS[@]} streams of $JOBS jobs (seeds ${SEEDS[*]}), each job to its J and S at once ($(( $(date +%s) - t0 )) s)" \
	"$([ "$fed" = "${#HC_GROUP[@]}" ]; echo $?)" "$fed of ${#HC_GROUP[@]} clusters got the whole stream"

drained "${CONF[@]}"
tap_ok "every queue drained" $?

# outcome DIR CONF: "i state CPUs start end deadline" per job, from the
# job records.
outcome()
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
}

# tally OUTCOME...: "met jobs bad all": jobs that completed by their
# deadline, of all submitted; CPU-s of the jobs that ran and missed, of
# all that ran.
tally()
{
	awk '
	{
		n++
		run = ($4 > 0 && $5 > $4) ? ($5 - $4) * $3 : 0
		if ($2 == "COMPLETED" && $5 <= $6) met++; else bad += run
		all += run
	}
	END { printf "%d %d %d %d\n", met, n, bad, all }' "$@"
}
# ratios: "met jobs bad all" in, SDR and WTR out.
ratios()
{
	awk '{ printf "SDR %.3f (%d of %d), WTR %.3f (%d of %d CPU-s)",
	       $1 / $2, $1, $2, ($4 ? $3 / $4 : 0), $3, $4 }'
}
states() { awk '{ c[$2]++ } END { for (s in c) printf "%s %d, ", s, c[s] }' "$@"; }

# Job by job, for whoever reads why: "i state CPUs left run" (s left to
# the deadline when it started, s it ran; "-" when it did not start).
side()
{
	awk '{ if ($2 == "refused") print $1, "refused - - -";
	       else printf "%s %s %s %s %s\n", $1, $2, $3,
		    ($4 > 0 ? $6 - $4 : "-"), ($4 > 0 && $5 > $4 ? $5 - $4 : "-") }' "$1"
}

oj=() os=()
for ((k = 0; k < ${#SEEDS[@]}; k++)); do
	dj=${HC_GROUP[2 * k]} ds=${HC_GROUP[2 * k + 1]}
	outcome "$dj" "${CONF[2 * k]}"
	outcome "$ds" "${CONF[2 * k + 1]}"
	oj+=("$dj/outcome") os+=("$ds/outcome")
	tap_diag "stream ${SEEDS[k]}, job by job: i kind CPUs R window: state CPUs left run, on J then S"
	while read -r i kind cpus R m; do
		w=$(awk -v r="$R" -v m="$m" 'BEGIN { printf "%d", r * m }')
		j=$(side "$dj/outcome" | awk -v i="$i" '$1 == i { $1 = ""; print }')
		s=$(side "$ds/outcome" | awk -v i="$i" '$1 == i { $1 = ""; print }')
		tap_diag "$(printf '%2d %-7s %d R %2d window %3d: J%-28s S%s' "$i" "$kind" "$cpus" "$R" "$w" "$j" "$s")"
	done <"$dj/stream"
	tap_diag "stream ${SEEDS[k]}, J at the end: $(learnt "${CONF[2 * k]}")"
	tap_diag "stream ${SEEDS[k]}: justice $(tally "$dj/outcome" | ratios); $(states "$dj/outcome")"
	tap_diag "stream ${SEEDS[k]}: stock   $(tally "$ds/outcome" | ratios); $(states "$ds/outcome")"
	echo "t0031: seed ${SEEDS[k]}: justice $(tally "$dj/outcome" | ratios); stock $(tally "$ds/outcome" | ratios)" >&2
done
read -r met_j n_j bad_j all_j < <(tally "${oj[@]}")
read -r met_s n_s bad_s all_s < <(tally "${os[@]}")
sum_j=$(echo "$met_j $n_j $bad_j $all_j" | ratios)
sum_s=$(echo "$met_s $n_s $bad_s $all_s" | ratios)
tap_diag "all streams: justice $sum_j"
tap_diag "all streams: stock   $sum_s"
echo "t0031: seeds ${SEEDS[*]}: justice $sum_j; stock $sum_s" >&2
tap_ok "justice meets more deadlines than stock ($met_j vs $met_s of $n_j)" \
	"$([ "$met_j" -gt "$met_s" ]; echo $?)" "justice $sum_j; stock $sum_s"
tap_ok "and wastes a smaller part of its CPU time on jobs that miss (WTR $bad_j/$all_j vs $bad_s/$all_s)" \
	"$(awk -v bj="$bad_j" -v aj="$all_j" -v bs="$bad_s" -v as="$all_s" \
		'BEGIN { exit !((aj ? bj / aj : 0) < (as ? bs / as : 0)) }'; echo $?)" \
	"justice $sum_j; stock $sum_s"
tap_done
