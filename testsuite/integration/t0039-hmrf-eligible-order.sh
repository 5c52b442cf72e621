#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0039: priority/hmrf ranks an account's jobs in the order they became
# eligible, each with its own size, also when that is not the order they
# were submitted in.  Accounts a and b, equal contributions, nothing used,
# a queue that cannot start (a DOWN partition):
#   a1: a, 16 CPUs, --begin an hour ahead (submitted first, eligible last)
#   a2, a3: a, 1 CPU each;  b1, b2, b3: b, 1 CPU each; all 1 minute.
# Then a's jobs go a2, a3, a1 and b's b1, b2, b3; and a3 comes before b3:
# when a3 and b3 are next, each account has one CPU-minute charged, and
# a's entitlement is the larger (H-MRF bounds each account's by what it
# asks: a 18 CPUs, b 3).  Were a1's 16 CPUs charged in a2's place (a
# job's size bound to another job when the walk's order is not the
# eligible order), b's three jobs would all come before a3: this test
# fails so.
# Then 40 more 1-CPU jobs of account c, more than the plugin's walk keeps
# in flight (its ring of 16): every one of the 46 gets a place of its
# own in one ranking of 46 (none missed, none seen twice), and c's go in
# the order they were submitted.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0039
dir=$HC_RUNDIR

HC_NODES="big 16 16000" \
HC_EXTRA_CONF=$'PartitionName=hold Nodes=ALL State=DOWN' \
HC_HMRF_CONF=$'Window=none\nPeriod=1s\nAccount=a Share=1\nAccount=b Share=1\nAccount=c Share=1' \
	hc_start
tap_ok "cluster up" $? || tap_done

sub() { sbatch --parsable -p hold -t 1 --mem=100 -o /dev/null "$@" --wrap true; }
a1=$(sub -A a -n 16 --begin=now+3600)
a2=$(sub -A a -n 1)
a3=$(sub -A a -n 1)
b1=$(sub -A b -n 1)
b2=$(sub -A b -n 1)
b3=$(sub -A b -n 1)
tap_ok "six jobs queued" \
	$([ -n "$a1" ] && [ -n "$a2" ] && [ -n "$a3" ] && [ -n "$b1" ] &&
		[ -n "$b2" ] && [ -n "$b3" ]; echo $?)
# Until a recalculation has ranked all six: at submission each job gets
# its account's next factor, so a's jobs share one until then.  Up to
# 30 s (the period is 1 s), not a fixed sleep a loaded machine outlasts.
for _ in $(seq 60); do
	out=$(sprio -h -o '%i %F' 2>&1)
	[ "$(echo "$out" | awk 'NF == 2 { print $2 }' | sort -u | wc -l)" = 6 ] && break
	sleep 0.5
done

# fac JOB: the job's H-MRF factor as sprio shows it (weighted).
fac() { echo "$out" | awk -v j="$1" '$1 == j { print $2 }'; }
tap_diag "sprio (job, H-MRF factor): $(echo "$out" | tr '\n' ' ')"
tap_ok "a's jobs in eligible order: a2 above a3 above a1" \
	$(awk -v x="$(fac "$a2")" -v y="$(fac "$a3")" -v z="$(fac "$a1")" \
		'BEGIN { exit !(x != "" && z != "" && x + 0 > y + 0 && y + 0 > z + 0) }'; echo $?)
tap_ok "a3 (a's second, one CPU) above b3 (b's third)" \
	$(awk -v y="$(fac "$a3")" -v z="$(fac "$b3")" \
		'BEGIN { exit !(y != "" && z != "" && y + 0 > z + 0) }'; echo $?)
tap_ok "b's jobs in eligible order: b1 above b2 above b3" \
	$(awk -v x="$(fac "$b1")" -v y="$(fac "$b2")" -v z="$(fac "$b3")" \
		'BEGIN { exit !(x != "" && z != "" && x + 0 > y + 0 && y + 0 > z + 0) }'; echo $?)

: >"$dir/c"
for _ in $(seq 40); do sub -A c -n 1 >>"$dir/c"; done
tap_ok "40 jobs of c queued" $([ "$(grep -c . "$dir/c")" = 40 ]; echo $?)
# A job's factor is its place from the bottom of the ranking over the
# factor of the top: 46/46 to 1/46 when all 46 are ranked.  A job the
# walk missed keeps an older factor (0, or one of a ranking of 45).
# ranked46: whether sprio's factors ($out) are those 46 places.
ranked46() {
	echo "$out" | awk 'NF == 2 { f[NR] = $2; if ($2 + 0 > top) top = $2 + 0 }
		END { if (top <= 0) exit 1
		      for (i in f) p[sprintf("%.0f", f[i] * 46 / top)]++
		      for (k = 1; k <= 46; k++) if (p[k] != 1) exit 1 }'
}
# Until a recalculation has ranked all 46, up to 30 s as above.
for _ in $(seq 60); do
	out=$(sprio -h -o '%i %F' 2>&1)
	ranked46 && break
	sleep 0.5
done
tap_ok "all 46 jobs ranked, each at a place of its own (46/46 ... 1/46)" \
	$(ranked46; echo $?)
# c's factors in submission order: each below the one before.
cfac=$(while read -r j; do fac "$j"; done <"$dir/c" | tr '\n' ' ')
tap_diag "c's factors, in submission order: $cfac"
tap_ok "c's jobs in the order they were submitted" \
	$(echo "$cfac" | awk '{ for (i = 1; i <= NF; i++) if (i > 1 && !($i + 0 < $(i - 1) + 0)) exit 1; exit NF != 40 }'; echo $?)
tap_done
