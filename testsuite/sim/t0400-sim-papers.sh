#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0400: horae-sim reproduces the papers' examples from its generators,
# through the command line a user runs (the engine's own Check test,
# contribs/sim/test/sim_engine_test.c, builds the same cases by hand).
#
#   H-MRF Table 1           exact: running tasks per step for drf and hmrf
#                           (golden/table1-*.csv); Example 4 exact (Figs.
#                           3-5, with Fig. 5's betas); both with a start
#                           latency: what t0010 measures on Slurm
#   psdsf Table II          exact where the paper is deterministic:
#                           rPSDSF 19 2 / 2 19, PSDSF 19 0 / 2 20;
#                           best-fit DRF 19 2 / 2 19 = 42 where the paper
#                           has 20 2 / 0 19 = 41, which no rule placing
#                           each task on a node that fits it reaches
#                           (sim_engine_test); best match (the paper's
#                           words: the closest server, fit or not, else
#                           the next framework) 19 0 / 2 20 = 41, the
#                           paper's total (its split mirrored: our ties
#                           go to the lower user).  Randomized round robin
#                           (a new node order for each task), seeds 1-200:
#                           DRF and TSF 22.48 tasks on average, user 1 on
#                           node 2 4.69 (sd 0.46), PSDSF 41.15; the paper
#                           22.48, 22.4 (4.69 and 4.7, sd 0.46) and 41.08;
#                           asserted within 0.3 task and 0.05
#   DRFH Fig. 1             exact: best-fit 10 + 10, first-fit 6 + 6
#   DRFH dynamic example    while users overlap (each with tasks waiting),
#                           their global dominant shares are within 15% of
#                           each other: whole tasks on 100 small servers (a
#                           user stops when its next task fits in no
#                           server's remainder).  Measured: 0.462/0.445
#                           (users 1, 2), 0.298/0.303/0.292 (all three),
#                           0.455/0.497 after user 1 leaves (1.09), 1.145
#                           at 1070 s while user 1's last tasks end
#   Eunomia micro-benchmark tsf-cluster: job 4 at 40% (+-1%) and done in
#                           under 0.7 of the others' time; eunomia: the
#                           four progress shares within 10% from 10 s on
#                           (whole 2-s tasks make them step) and the jobs
#                           ending within 5% of each other
#   Justice                 on the generated stream at an offered load of
#                           3 (the paper's "severe resource constraints"),
#                           10 seeds summed: SDR oracle >= justice >
#                           reactive-fs >= baseline-fs, WTR the reverse.
#                           Single seeds vary (3 of 8 had justice's WTR
#                           above reactive-fs's); at load 1.5 the WTRs of
#                           justice and reactive-fs tie (0.190 vs 0.183)
#
# To regenerate the golden files after a deliberate change:
#   T0400_UPDATE=1 make -C build/testsuite check TESTS=sim/t0400-sim-papers.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_core_only
SIM=${HORAE_BUILDDIR:-}/../contribs/sim/horae-sim
[ -x "$SIM" ] || tap_skip_all "horae-sim not built (run through make check)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"
GOLDEN=$HERE/sim/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# golden NAME FILE: FILE against golden/NAME
golden()
{
	[ -n "${T0400_UPDATE:-}" ] && cp "$2" "$GOLDEN/$1"
	diff -u "$GOLDEN/$1" "$2" >"$tmp/diff" 2>&1
	tap_ok "$3 (golden/$1)" $? "$(head -20 "$tmp/diff")"
}

# --- H-MRF Table 1 ---------------------------------------------------------
for p in drf hmrf; do
	"$SIM" -q -g hmrf-table1 -p $p --horizon=1 --sample=1 --until=3 \
		-s "$tmp/s.csv" -o /dev/null
	cut -d, -f1-3 "$tmp/s.csv" >"$tmp/table1-$p.csv"
	tap_diag "$p: $(tail -n +2 "$tmp/table1-$p.csv" | tr '\n' ' ')"
	golden table1-$p.csv "$tmp/table1-$p.csv" \
		"$p: running tasks per step are Table 1's"
done

# --- H-MRF Example 4 (Figs. 3-5) ---------------------------------------------
# 15/70 at t1 under all three; at t2 LT-DRF 35/30, LT-AF 42/16, H-MRF 40/20.
for p in lt-drf lt-af hmrf; do
	"$SIM" -q -g hmrf-example4 -p $p --horizon=1 --sample=1 --until=1 \
		-s "$tmp/s.csv" -o /dev/null
	cut -d, -f1-3 "$tmp/s.csv" >"$tmp/example4-$p.csv"
	tap_diag "$p: $(tail -n +2 "$tmp/example4-$p.csv" | tr '\n' ' ')"
	golden example4-$p.csv "$tmp/example4-$p.csv" \
		"$p: running tasks per step are Example 4's"
done
# H-MRF's sharing degrees after each step: 1 and 1.4, then 1.375 and 1.
"$SIM" -q -g hmrf-example4 -p hmrf --horizon=1 --sample=1 --until=2 \
	-s "$tmp/s.csv" -o /dev/null
betas=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "beta") c = i }
	NR > 1 && $1 > 0 { printf "%s%s", s, $c; s = " " }' "$tmp/s.csv")
[ "$betas" = "1 1.4 1.375 1" ]
tap_ok "hmrf: beta after t1 and t2 (A B A B) are Fig. 5's: $betas" $?

# --- H-MRF on a real cluster's steps: scheduling latency ----------------------
# t0010 ran Table 1 and Example 4 on Slurm in six-second steps, bringing
# the node back with state=resume (until 2026-12-01; it now uses
# state=idle, whose pass comes in the same RPC, and 20-s steps, and gets
# the paper's counts); there a job started a second or so after the node
# came into service, time with capacity and demand but no allocation,
# which the books count as entitlement.  The same inputs here
# (--start-latency, the steps' jobs submitted when the last step's end,
# series sampled mid-step) give what t0010 measured: Example 4 35/30 with 1 s of 6 (t0010: 35/30 in three runs
# of four) and 37/26 with 0.5 s (the fourth); Table 1 exact up to 1.25 s of
# 6 and A 24 8 22 8 / B 4 23 9 23 from 1.5 s (t0010: A 24 6-8 22 8-9 / B 4
# 23 9 22-23).  hmrf_books_test's step model gives the same Example 4 counts.
# steps_trace FILE LATENCY "A_NEW" "B_NEW" "A_TRES" "B_TRES"
steps_trace()
{
	local -a a=($3) b=($4)
	local k sep= P

	P=$(awk -v l="$2" 'BEGIN { printf "%.12g", 1 + l }')
	{
		printf '{"version":1,"tres":"cpu,mem",'
		printf '"nodes":[{"name":"n1","tres":"cpu=100,mem=100G"}],'
		printf '"accounts":[{"name":"A"},{"name":"B"}],"jobs":['
		for k in "${!a[@]}"; do
			[ "${a[k]}" -gt 0 ] && printf '%s{"account":"A","submit":%s,"tasks":%s,"task_tres":"%s","work":1}' \
				"$sep" "$(awk -v k="$k" -v p="$P" 'BEGIN { printf "%.12g", k * p }')" "${a[k]}" "$5" && sep=,
			[ "${b[k]}" -gt 0 ] && printf '%s{"account":"B","submit":%s,"tasks":%s,"task_tres":"%s","work":1}' \
				"$sep" "$(awk -v k="$k" -v p="$P" 'BEGIN { printf "%.12g", k * p }')" "${b[k]}" "$6" && sep=,
		done
		printf ']}\n'
	} >"$1"
}
# latency_steps FILE LATENCY STEPS: "A1 B1 A2 B2 ..." running mid-step
latency_steps()
{
	local P U
	P=$(awk -v l="$2" 'BEGIN { printf "%.12g", (1 + l) / 2 }')
	U=$(awk -v l="$2" -v n="$3" 'BEGIN { printf "%.12g", n * (1 + l) }')
	"$SIM" -q "$1" -p hmrf --horizon=1 --start-latency="$2" --sample="$P" \
		--until="$U" -s "$tmp/lat.csv" -o /dev/null || return 1
	awk -F, 'NR > 1 && NR % 4 < 2 { printf "%s%s", s, $3; s = " " }' \
		"$tmp/lat.csv"
}
for case in "0:40 20" "0.0833333333333:37 26" "0.166666666667:35 30"; do
	lat=${case%%:*} want=${case#*:}
	steps_trace "$tmp/ex4.json" "$lat" "15 60" "80 30" cpu=1,mem=2G cpu=1,mem=1G
	got=$(latency_steps "$tmp/ex4.json" "$lat" 2)
	[ "${got#15 70 }" = "$want" ]
	tap_ok "hmrf, Example 4 with a start latency of $lat step: 15 70 then $want (got $got)" $?
done
for case in "0:24 4 4 24 23 8 8 23" "0.208333333333:24 4 4 24 23 8 8 23" \
	    "0.25:24 4 8 23 22 9 8 23"; do
	lat=${case%%:*} want=${case#*:}
	steps_trace "$tmp/t1.json" "$lat" "30 20 27 10" "4 24 8 30" cpu=1,mem=4G cpu=4,mem=1G
	got=$(latency_steps "$tmp/t1.json" "$lat" 4)
	[ "$got" = "$want" ]
	tap_ok "hmrf, Table 1 with a start latency of $lat step: A B per step $want (got $got)" $?
done

# --- psdsf Table II ----------------------------------------------------------
# placed POLICY PLACEMENT SEED: "a1-on-n1 a1-on-n2 a2-on-n1 a2-on-n2" of the
# tasks started before the first one ends.
placed()
{
	"$SIM" -q -g psdsf-example -p "$1" -P "$2" --seed="$3" --until=1 \
		-j "$tmp/j.json" -o /dev/null
	jq -r '[.[] | .nodes | split(";") | map(split(":")) |
		(map(select(.[0] == (.[0] | sub("[0-9]+$"; "") + "1"))) | .[0][1] // "0"),
		(map(select(.[0] != (.[0] | sub("[0-9]+$"; "") + "1"))) | .[0][1] // "0")] |
		join(" ")' "$tmp/j.json"
}
{
	echo "rpsdsf $(placed rpsdsf first-fit 1)"
	echo "psdsf $(placed psdsf first-fit 1)"
	echo "bf-drf $(placed drf best-fit 1)"
	echo "bf-drf-match $(placed drf best-match 1)"
} >"$tmp/psdsf.out"
tap_diag "$(cat "$tmp/psdsf.out")"
golden psdsf.out "$tmp/psdsf.out" \
	"psdsf example: rPSDSF 19 2 / 2 19, PSDSF 19 0 / 2 20, best-fit DRF 19 2 / 2 19, best-match DRF 19 0 / 2 20"
# Under rrr, seeds 1-200: "POLICY mean-total mean-x12 sd-x12".
for p in drf:22.48 tsf:22.4 psdsf:41.08; do
	for seed in $(seq 1 200); do
		placed "${p%%:*}" rrr $seed
	done | awk -v p="${p%%:*}" -v paper="${p#*:}" '
		{ t = $1 + $2 + $3 + $4; s += t; x += $2; xx += $2 * $2; n++ }
		END { m = x / n; printf "%s %.2f %.2f %.2f %s\n", p, s / n, m,
			sqrt((xx - n * m * m) / (n - 1)), paper }'
done >"$tmp/rrr.out"
tap_diag "$(cat "$tmp/rrr.out")"
tap_ok "psdsf example under rrr: DRF, TSF, PSDSF within 0.3 task of 22.48, 22.4, 41.08" \
	"$(awk '{ d = $2 - $5; if (d < -0.3 || d > 0.3) bad = 1 } END { print bad + 0 }' "$tmp/rrr.out")" \
	"$(cat "$tmp/rrr.out")"
tap_ok "psdsf example under rrr: DRF's and TSF's user 1 on node 2 with sd 0.46 (+-0.05)" \
	"$(awk '$1 != "psdsf" && ($4 < 0.41 || $4 > 0.51) { bad = 1 } END { print bad + 0 }' "$tmp/rrr.out")"
# --- DRFH ----------------------------------------------------------------------
for pl in best-fit:10 first-fit:6; do
	"$SIM" -q -g drfh-fig1 -p drfh -P "${pl%%:*}" --until=1 -j "$tmp/j.json" \
		-o /dev/null
	got=$(jq -r '[.[] | .nodes | split(";") | map(split(":")[1] | tonumber) | add] | join(" ")' "$tmp/j.json")
	tap_ok "DRFH Fig. 1, ${pl%%:*}: ${pl#*:} tasks of each user at once (got $got)" \
		"$([ "$got" = "${pl#*:} ${pl#*:}" ]; echo $?)"
done
"$SIM" -q -g drfh-dynamic -p drfh --sample=10 -s "$tmp/dyn.json" -o /dev/null
jq -r 'group_by(.t)[] | map(select(.running_tasks > 0 and .pending_tasks > 0)) |
	select(length >= 2) | [.[0].t, length, (map(.share_now) | max / min)] |
	@tsv' "$tmp/dyn.json" >"$tmp/dyn.tsv"
tap_diag "drfh-dynamic: $(awk '!seen[$2]++ { printf "%s users at %s s: max/min %.3f; ", $2, $1, $3 }' "$tmp/dyn.tsv")"
tap_ok "drfh-dynamic: users overlap (2 and 3 at once)" \
	"$(awk '{ n[$2]++ } END { print (n[2] > 0 && n[3] > 0) ? 0 : 1 }' "$tmp/dyn.tsv")"
tap_ok "drfh-dynamic: overlapping users' global dominant shares within 15%" \
	"$(awk '$3 > 1.15 { bad = 1 } END { print bad + 0 }' "$tmp/dyn.tsv")" \
	"$(awk '$3 > 1.15' "$tmp/dyn.tsv" | head -5)"

# --- Eunomia micro-benchmark ------------------------------------------------------
# share POLICY T: the four progress shares at T; ends POLICY: last ends.
"$SIM" -q -g eunomia-micro -p tsf-cluster --sample=5 -s "$tmp/tsf.json" \
	--json -o "$tmp/tsf-sum.json"
"$SIM" -q -g eunomia-micro -p eunomia --sample=5 -s "$tmp/eun.json" \
	--json -o "$tmp/eun-sum.json"
shares() { jq -r --argjson t "$2" '[.[] | select(.t == $t) | .progress_share] | map(. * 1000 | round / 1000) | join(" ")' "$1"; }
ends() { jq -r '[.accounts[].last_end] | map(. * 10 | round / 10) | join(" ")' "$1"; }
tap_diag "tsf-cluster at 20 s: $(shares "$tmp/tsf.json" 20); ends $(ends "$tmp/tsf-sum.json")"
tap_diag "eunomia at 20 s: $(shares "$tmp/eun.json" 20); ends $(ends "$tmp/eun-sum.json")"
tap_ok "tsf-cluster: job 4 holds a 40% progress share" \
	"$(shares "$tmp/tsf.json" 20 | awk '{ print ($4 > 0.39 && $4 < 0.41) ? 0 : 1 }')"
tap_ok "tsf-cluster: job 4 finishes first by far (under 0.7 of the others' time)" \
	"$(ends "$tmp/tsf-sum.json" | awk '{ print ($4 < 0.7 * $1 && $4 < 0.7 * $2 && $4 < 0.7 * $3) ? 0 : 1 }')"
bad=0
for t in 10 20 30 40 50; do
	shares "$tmp/eun.json" $t | awk '{ lo = hi = $1; for (i = 2; i <= 4; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
		exit !(hi / lo < 1.10) }' || bad=1
done
tap_ok "eunomia: the four progress shares within 10% from 10 s to 50 s" $bad
tap_ok "eunomia: the four jobs end within 5% of each other" \
	"$(ends "$tmp/eun-sum.json" | awk '{ lo = hi = $1; for (i = 2; i <= 4; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
		print (hi / lo < 1.05) ? 0 : 1 }')"

# --- Justice ---------------------------------------------------------------------
for a in oracle justice reactive-fs baseline-fs; do
	for seed in $(seq 1 10); do
		"$SIM" -q -g justice --gen-load=3 --seed=$seed -p drf -a $a --json |
			jq -r '"\(.deadlines.met) \(.deadlines.jobs) \(.deadlines.wtr)"'
	done | awk -v a=$a '{ m += $1; n += $2; w += $3 } END { printf "%s %.4f %.4f\n", a, m / n, w / NR }'
done >"$tmp/justice.out"
tap_diag "$(cat "$tmp/justice.out")"
sdr() { awk -v a="$1" '$1 == a { print $2 }' "$tmp/justice.out"; }
wtr() { awk -v a="$1" '$1 == a { print $3 }' "$tmp/justice.out"; }
tap_ok "justice: SDR oracle >= justice > reactive-fs >= baseline-fs" \
	"$(awk -v o="$(sdr oracle)" -v j="$(sdr justice)" -v r="$(sdr reactive-fs)" -v b="$(sdr baseline-fs)" \
		'BEGIN { print (o >= j && j > r && r >= b) ? 0 : 1 }')"
tap_ok "justice: WTR oracle <= justice < reactive-fs <= baseline-fs" \
	"$(awk -v o="$(wtr oracle)" -v j="$(wtr justice)" -v r="$(wtr reactive-fs)" -v b="$(wtr baseline-fs)" \
		'BEGIN { print (o <= j && j < r && r <= b) ? 0 : 1 }')"

tap_done
