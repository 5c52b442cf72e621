#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0016: H-MRF against stock multifactor with Fair Tree, both over slurmdbd
# with the same associations (mem and cpu, fairshare 1 each), the same
# queue, in one run on two clusters side by side.  Fair Tree's usage decays
# with a half-life matched to H-MRF's sliding window (the same mean age of
# usage: W ln2 / 2, 9 min -> 3 min); both recalculate every minute at the
# least (PriorityCalcPeriod=1, stock's smallest).
#
# The queue: account mem's jobs take 1 CPU and 3000 MB, cpu's 1 CPU and
# 200 MB, on one node of 16 CPUs and 16000 MB, both always backlogged.
# Fair Tree bills CPUs (no TRESBillingWeights), so it evens out CPU-time,
# which mem cannot reach, and keeps giving mem the memory; H-MRF evens out
# dominant shares (4 mem + 12 cpu jobs: 0.75 each).  H-MRF charges cpu and
# mem here (TRES=cpu,mem): on one shared node the node TRES would make
# every job's dominant share 1, and H-MRF would even out job counts.
#
# Printed per cluster and account: the dominant share over the run after
# its first minute (the
# larger of its CPU-time and memory-time over the node's), its part of the
# two accounts' dominant shares against its contribution (1/2), and
# whether it was in sharing loss: below the dominant share of its
# non-sharing allocation (half the node, given its job shape: 1/2).
# Asserted, of H-MRF itself: each account's part of the dominant shares
# lies within 0.05 of its contribution (1/2), and no account is in
# sharing loss.  Measured deviation: 0.0246 in a clean-clone CI run with
# other builds and tests beside it (2026-11-25), 0.0295 in the next
# run.  Fair Tree's figures are printed beside them, not asserted: a
# baseline's behaviour is not ours to bound (billing CPUs, it gave the
# CPU account next to nothing in earlier runs, and once, on a loaded
# machine, evened the two out: deviation 0.0004).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

RUN=${T0016_RUN:-120}
WARM=60 # measured after stock's first recalculation, the steady state
JOB=5 # seconds each job sleeps
NODE="big 16 16000"
EXTRA=$'PriorityWeightFairshare=10000\nPriorityWeightAge=0\nPriorityDecayHalfLife=0-00:03\nPriorityCalcPeriod=1\nAccountingStorageEnforce=associations'

hc_pair_setup t0016h t0016s
dh=$HC_PAIR_A
ds=$HC_PAIR_B

hc_init "$dh" || exit 1
HC_ACCOUNTING=1 HC_ACCOUNTS="mem:1 cpu:1" HC_NODES=$NODE \
HC_SELECT=select/cons_tres HC_JOBSUBMIT=none HC_EXTRA_CONF=$EXTRA \
HC_HMRF_CONF=$'Window=sliding:9m\nPeriod=1s\nChargeHorizon=5s\nTRES=cpu,mem' hc_start
tap_ok "cluster H: priority/hmrf over slurmdbd" $? || tap_done
CH=$HC_CONF
hc_init "$ds" || exit 1
HC_ACCOUNTING=1 HC_ACCOUNTS="mem:1 cpu:1" HC_NODES=$NODE HC_PROFILE=stock \
HC_EXTRA_CONF=$EXTRA hc_start
tap_ok "cluster S: priority/multifactor (Fair Tree) over slurmdbd" $? || tap_done
CS=$HC_CONF
tap_diag "S: $(SLURM_CONF=$CS scontrol show config | grep -E '^Priority(Type|DecayHalfLife|CalcPeriod|Flags)' | tr -s ' ' | tr '\n' ';')"

# The same queue on both, interleaved, while the node is drained.
queue() {
	local conf=$1 i
	SLURM_CONF=$conf scontrol update nodename=big state=drain reason=queue
	for ((i = 0; i < 400; i++)); do
		if ((i % 3 == 0)); then
			SLURM_CONF=$conf sbatch -Q -A mem -n 1 --mem=3000 -t 1 \
				-o /dev/null --wrap "sleep $JOB" >/dev/null || return 1
		fi
		SLURM_CONF=$conf sbatch -Q -A cpu -n 1 --mem=200 -t 1 \
			-o /dev/null --wrap "sleep $JOB" >/dev/null || return 1
	done
}
queue "$CH" && queue "$CS"
tap_ok "the same 534 jobs queued on both" $?
SLURM_CONF=$CH hc_undrain big
SLURM_CONF=$CS hc_undrain big
t0=$(date +%s)
sleep "$RUN"
t1=$(date +%s)
m0=$((t0 + WARM))

# "account dominant-share" over [t0, t1] from slurmdbd's job records.
shares() {
	SLURM_CONF=$1 SLURM_TIME_FORMAT=%s sacct -X -a -n -P -A mem,cpu \
		-S "$(date -d @$((t0 - 600)) +%Y-%m-%dT%H:%M:%S)" -E now \
		-o Account,Start,End |
		awk -F'|' -v t0="$m0" -v t1="$t1" '
		$2 ~ /^[0-9]+$/ {
			e = $3 ~ /^[0-9]+$/ ? $3 : t1
			s = $2 < t0 ? t0 : $2; e = e > t1 ? t1 : e
			if (e > s) busy[$1] += e - s
		}
		END {
			d["mem"] = 3000 / 16000; d["cpu"] = 1 / 16
			for (a in d) printf "%s %.4f %.4f\n", a,
				busy[a] * d[a] / (t1 - t0), busy[a] / 16 / (t1 - t0)
		}' | sort
}
report() {
	local name=$1 conf=$2
	shares "$conf" | awk -v name="$name" '
		{ ds[$1] = $2; tot += $2; cpu += $3 }
		END {
			for (a in ds) {
				part = tot ? ds[a] / tot : 0
				dev = part > 0.5 ? part - 0.5 : 0.5 - part
				loss = ds[a] < 0.5 ? "yes" : "no"
				printf "%s %s dominant %.4f part %.4f deviation %.4f loss %s\n",
					name, a, ds[a], part, dev, loss
				if (dev > maxdev) maxdev = dev
				nloss += loss == "yes"
			}
			printf "%s summary maxdev %.4f loss %d cpu_used %.3f\n",
				name, maxdev, nloss, cpu
		}'
}
rh=$(report H-MRF "$CH")
rs=$(report FairTree "$CS")
tap_diag "$rh"
tap_diag "$rs"
printf 't0016: %s\n' "$rh" "$rs" >&2
dh_max=$(awk '$2 == "summary" { print $4 }' <<<"$rh")
ds_max=$(awk '$2 == "summary" { print $4 }' <<<"$rs")
lh=$(awk '$2 == "summary" { print $6 }' <<<"$rh")
ls=$(awk '$2 == "summary" { print $6 }' <<<"$rs")
# slurmdbd has the runs of each cluster (Fair Tree may starve an account).
ran() { awk '$3 == "dominant" { t += $4 } END { exit !(t > 0) }' <<<"$1"; }
tap_check "slurmdbd recorded the jobs each cluster ran" \
	bash -c "$(declare -f ran); ran \"\$1\" && ran \"\$2\"" _ "$rh" "$rs"
tap_check "H-MRF ran jobs of both accounts" \
	bash -c '! grep -q "dominant 0.0000" <<<"$1"' _ "$rh"
tap_diag "deviation from the contributions: H-MRF $dh_max, Fair Tree $ds_max; accounts in sharing loss: H-MRF $lh, Fair Tree $ls"
tap_check "H-MRF keeps each account's part within 0.05 of its contribution ($dh_max; Fair Tree $ds_max)" \
	awk -v h="$dh_max" 'BEGIN { exit !(h != "" && h <= 0.05) }'
tap_check "H-MRF leaves no account in sharing loss ($lh; Fair Tree $ls)" \
	test "$lh" -eq 0
SLURM_CONF=$CH scancel -u root
SLURM_CONF=$CS scancel -u root
tap_done
