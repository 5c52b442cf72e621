#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0402: horae-whatif, the what-if report on a site's own history.  On a
# small sacct history with deadlines, waiting and a NodeList, on nodes of
# two speeds (--speed-map), it writes the report and both plots; its "as
# run" columns match what this test computes from the records itself
# (awk: CPUs x run time per account; nearest-rank delays; deadlines met);
# each replay column (hmrf, lt-drf, drf, hmrf+eunomia, hmrf+justice)
# matches horae-sim run here with that column's settings: the shares its
# summary's, the p50 / p90 delays its per-job records', the progress
# shares its series'; the contributions follow hmrf.conf's shares; the
# history is read as horae-sim reads it (any delimiter, JobID or
# JobIDRaw); bad input is refused naming what is wrong (file:line), exit
# 2, before the report's directory is made.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
tap_core_only
SIM=${HORAE_BUILDDIR:-}/../contribs/sim/horae-sim
WHATIF=$HERE/../contribs/sim/horae-whatif
[ -x "$SIM" ] || tap_skip_all "horae-sim not built (run through make check)"
command -v gnuplot >/dev/null || tap_skip_all "gnuplot missing (contribs/horae-deps installs it)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"
DATA=$HERE/../contribs/sim/test/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Two nodes: n1 (2 CPUs, gen1, speed 1) and n4 (4 CPUs, gen4, speed 3);
# physics fills the cluster first, chem and bio wait behind it; two of the
# jobs have deadlines, one of them missed.  With the speed map and the
# NodeList column the jobs that ran on n4 are replayed as three times the
# work, so where the replay places them matters (progress shares).
cat >"$tmp/sacct.txt" <<'EOF'
JobIDRaw|Account|Submit|Start|End|State|AllocTRES|Constraints|Deadline|NodeList
1|physics|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:02:00|COMPLETED|cpu=4,mem=400M,node=1||None|n4
2|physics|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:02:00|COMPLETED|cpu=2,mem=200M,node=1||None|n1
3|chem|2026-11-25T10:00:10|2026-11-25T10:02:00|2026-11-25T10:03:00|COMPLETED|cpu=2,mem=200M,node=1||2026-11-25T10:10:00|n1
4|bio|2026-11-25T10:00:20|2026-11-25T10:02:00|2026-11-25T10:04:00|COMPLETED|cpu=4,mem=400M,node=1||2026-11-25T10:03:00|n4
5|chem|2026-11-25T10:00:30|2026-11-25T10:03:00|2026-11-25T10:03:30|COMPLETED|cpu=1,mem=100M,node=1||None|n1
6|physics|2026-11-25T10:00:40|2026-11-25T10:03:00|2026-11-25T10:04:00|COMPLETED|cpu=1,mem=100M,node=1||None|n1
7|bio|2026-11-25T10:00:50|Unknown|Unknown|PENDING|||None|
EOF
printf 'Account=physics Share=2\nAccount=CHEM Share=1\nDefaultShare=1\n' >"$tmp/hmrf.conf"
SPEEDS=gen1:1,gen4:3
out=$tmp/report
"$WHATIF" --sim="$SIM" --sacct="$tmp/sacct.txt" --nodes="$DATA/nodes.txt" \
	--speed-map=$SPEEDS --hmrf-conf="$tmp/hmrf.conf" --sample=5 -o "$out" \
	>"$tmp/stdout" 2>"$tmp/stderr"
tap_ok "horae-whatif writes a report" $? "$(cat "$tmp/stderr")"
r=$out/report.md
tap_check "it prints where" grep -qx "$out/report.md" "$tmp/stdout"
for s in "Usage share against contribution" "Queueing delay" \
	"Who gains and who loses under H-MRF" "Sharing degree and progress share" \
	"Deadlines met" "What the replay cannot know"; do
	tap_check "the report has the section '$s'" grep -q "^## $s" "$r"
done
for p in usage-share delay-p90; do
	tap_check "the plot $p.svg is an SVG" bash -c "head -c 400 '$out/$p.svg' | grep -q '<svg'"
done
tap_check "it names the record left out (job 7 never started)" \
	grep -q "1 never started (first: line 8, job 7)" "$r"

# row ACCOUNT TABLE-HEADING: that account's row of the table after it.
row() { awk -v h="## $2" -v a="| $1 |" 'index($0, h) == 1 { on = 1 } on && index($0, a) == 1 { print; exit }' "$r"; }
# col ROW N: the Nth cell (1: the account).
col() { echo "$1" | awk -F'|' -v n="$2" '{ gsub(/^ +| +$/, "", $(n + 1)); print $(n + 1) }'; }

# As run, from the records by this test: CPU-s held per account, shares.
declare -A held
while IFS='|' read -r id acct sub st en state tres _; do
	[ "$id" = JobIDRaw ] && continue
	[ "$st" = Unknown ] && continue
	cpus=$(echo "$tres" | sed -n 's/.*cpu=\([0-9]*\).*/\1/p')
	secs=$(($(date -d "$en" +%s) - $(date -d "$st" +%s)))
	held[$acct]=$((${held[$acct]:-0} + cpus * secs))
done <"$tmp/sacct.txt"
total=$((held[physics] + held[chem] + held[bio]))
for a in physics chem bio; do
	want=$(awk -v x="${held[$a]}" -v t="$total" 'BEGIN { printf "%.1f%%", 100 * x / t }')
	got=$(col "$(row "$a" "Usage share")" 3)
	tap_ok "as run, $a held ${held[$a]} of $total CPU-s: $want" \
		"$([ "$got" = "$want" ]; echo $?)" "report: $got"
done
# Contributions: Share 2, 1 (CHEM is chem) and DefaultShare 1.
tap_ok "contributions follow hmrf.conf (50%, 25%, 25%)" \
	"$([ "$(col "$(row physics "Usage share")" 2)" = 50% ] &&
	   [ "$(col "$(row chem "Usage share")" 2)" = 25% ] &&
	   [ "$(col "$(row bio "Usage share")" 2)" = 25% ]; echo $?)" \
	"$(grep -A6 '^## Usage share' "$r")"
# The replays, run here by this test with each column's settings
# (horae-whatif(1)) and the same inputs: horae-sim's own summary, per-job
# records and series, against which the report's replay columns are
# checked.
scen=(hmrf lt-drf drf hmrf+eunomia hmrf+justice)
declare -A how=([hmrf]="-p hmrf" [lt-drf]="-p lt-drf" [drf]="-p drf -w none"
	[hmrf+eunomia]="-p hmrf -P eunomia" [hmrf+justice]="-p hmrf -a justice --urgency=ties")
mkdir "$tmp/sim"
for s in "${scen[@]}"; do
	# shellcheck disable=SC2086 # how[] holds options
	"$SIM" -q --sacct --sacct-nodes="$DATA/nodes.txt" --speed-map=$SPEEDS \
		--hmrf-conf="$tmp/hmrf.conf" --json -o "$tmp/sim/$s.json" \
		-j "$tmp/sim/$s.jobs.json" -s "$tmp/sim/$s.series.csv" --sample=5 \
		${how[$s]} "$tmp/sacct.txt" 2>/dev/null ||
		tap_ok "horae-sim ${how[$s]} runs" 1
done
# near GOT WANT TOL: |GOT - WANT| <= TOL, both numbers.
near() { awk -v x="$1" -v y="$2" -v t="$3" 'BEGIN { exit !(x != "" && y != "" && x - y <= t && y - x <= t) }'; }
for i in "${!scen[@]}"; do
	s=${scen[$i]}
	# Shares: each account's CPU time over all, in the summary; the
	# report rounds to 0.1 points.
	bad=
	for a in physics chem bio; do
		want=$(jq -r --arg a "$a" '([.accounts[].cpu_time] | add) as $t |
			(.accounts[] | select(.name == $a) | .cpu_time) / $t * 100' \
			"$tmp/sim/$s.json")
		got=$(col "$(row "$a" "Usage share")" $((i + 4)))
		near "${got%\%}" "$want" 0.051 || bad+=" $a: report $got, summary $want;"
	done
	tap_ok "under $s, each account's share is horae-sim's summary's" \
		"$([ -z "$bad" ]; echo $?)" "$bad"
	# Delays: nearest-rank p50 / p90 of the waits of the jobs that ended,
	# in horae-sim's per-job records; the report prints 2 decimals.
	bad=
	for a in physics chem bio; do
		want=$(jq -r --arg a "$a" '[.[] | select(.account == $a and .status == "ended") | .wait] |
			sort as $w | ($w | length) as $n |
			if $n == 0 then "- -" else
			"\($w[([(0.5 * $n | ceil) - 1, 0] | max)]) \($w[([(0.9 * $n | ceil) - 1, 0] | max)])" end' \
			"$tmp/sim/$s.jobs.json")
		got=$(col "$(row "$a" "Queueing delay")" $((i + 3)))
		read -r w50 w90 <<<"$want"
		g50=${got%% / *} g90=${got##* / }
		if [ "$w50" = - ]; then
			[ "$got" = "- / -" ] || bad+=" $a: report $got, records none;"
		elif ! near "$g50" "$w50" 0.006 || ! near "$g90" "$w90" 0.006; then
			bad+=" $a: report $got, records $w50 / $w90;"
		fi
	done
	tap_ok "under $s, each account's p50 / p90 delay is its per-job records'" \
		"$([ -z "$bad" ]; echo $?)" "$bad"
	# Progress shares: the mean over the samples in which the account had
	# work (running or pending tasks), in horae-sim's series.
	bad=
	for a in physics chem bio; do
		want=$(awk -F, -v a="$a" 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
			$c["account"] == a && $c["running_tasks"] + $c["pending_tasks"] > 0 {
				s += $c["progress_share"]; n++ }
			END { if (n) printf "%.6f", s / n }' "$tmp/sim/$s.series.csv")
		got=$(col "$(row "$a" "Sharing degree")" $((i + 2)))
		near "${got##* / }" "$want" 0.006 || bad+=" $a: report $got, series $want;"
	done
	tap_ok "under $s, each account's progress share is its series' mean" \
		"$([ -z "$bad" ]; echo $?)" "$bad"
done
# The speed map reaches the replays: job 1 ran 120 s on n4 (speed 3), so
# each of its 4 tasks is 360 s of work at speed 1, and a task takes
# 360 / speed on the node the replay puts it on: its CPU time is the sum
# over its nodes ("n1:2;n4:2") of tasks x 360 / speed.
for s in hmrf hmrf+eunomia; do
	j1=$(jq -r '.[] | select(.id == 1) | "\(.cpu_time) \(.nodes)"' "$tmp/sim/$s.jobs.json")
	want=$(echo "${j1#* }" | tr ';' '\n' |
		awk -F: '{ t += $2 * 360 / ($1 == "n4" ? 3 : 1) } END { print t }')
	tap_ok "under $s, job 1 is 360 s of work a task at the speed of its nodes (${j1#* }: $want CPU-s)" \
		"$(near "${j1%% *}" "$want" 0.001; echo $?)" "replay: $j1"
done
# horae-whatif(1): with a speed map the CPU-time shares depend on the
# placement too (job 1 above holds 960 CPU-s first-fit, 480 under
# Eunomia), so hmrf's and hmrf+eunomia's columns differ here.
tap_ok "with the speed map, the shares differ between hmrf and hmrf+eunomia" \
	"$([ "$(col "$(row physics "Usage share")" 4)" != "$(col "$(row physics "Usage share")" 7)" ]; echo $?)" \
	"$(row physics "Usage share")"
# Delays as run: chem waited 110 and 150 s (p50 110, nearest rank), bio
# 100 s; physics none.
tap_ok "as run, chem's delays are p50 110 s and p90 150 s" \
	"$([ "$(col "$(row chem "Queueing delay")" 2)" = "110 / 150" ]; echo $?)" \
	"$(row chem "Queueing delay")"
tap_ok "and bio's 100 s" \
	"$([ "$(col "$(row bio "Queueing delay")" 2)" = "100 / 100" ]; echo $?)" \
	"$(row bio "Queueing delay")"
# Deadlines as run: chem's met (10:03 before 10:10), bio's missed.
tap_ok "as run, chem met 1 of 1 deadline and bio 0 of 1" \
	"$([ "$(col "$(row chem "Deadlines met")" 2)" = "1 of 1" ] &&
	   [ "$(col "$(row bio "Deadlines met")" 2)" = "0 of 1" ]; echo $?)" \
	"$(grep -A6 '^## Deadlines met' "$r")"
n=$(for a in physics chem bio; do row "$a" "Sharing degree"; done |
	grep -cE '^\| [a-z]+ (\| [0-9.]+ / [0-9.]+ ){5}\|$')
tap_ok "the sharing degree and progress share are numbers for every replay" \
	"$([ "$n" = 3 ]; echo $?)" "$(grep -A12 '^## Sharing degree' "$r")"

# Bad input: named, exit 2 or 1, no report.
"$WHATIF" --sim="$SIM" --sacct="$tmp/none.txt" --nodes="$DATA/nodes.txt" \
	-o "$tmp/r2" >/dev/null 2>"$tmp/err"
rc=$?
tap_ok "a missing history is refused, naming it" \
	"$([ $rc = 2 ] && grep -q -- "--sacct=$tmp/none.txt: no such file" "$tmp/err" &&
	   [ ! -e "$tmp/r2/report.md" ]; echo $?)" "exit $rc: $(cat "$tmp/err")"
printf 'Account=physics Share=-1\n' >"$tmp/bad.conf"
"$WHATIF" --sim="$SIM" --sacct="$tmp/sacct.txt" --nodes="$DATA/nodes.txt" \
	--hmrf-conf="$tmp/bad.conf" -o "$tmp/r3" >/dev/null 2>"$tmp/err"
rc=$?
tap_ok "a bad hmrf.conf is refused with its file:line, before the report's directory is made" \
	"$([ $rc = 2 ] && grep -q "$tmp/bad.conf:1: " "$tmp/err" &&
	   [ ! -e "$tmp/r3" ]; echo $?)" "exit $rc: $(cat "$tmp/err")"

# The history is read as horae-sim reads it: sacct -P --delimiter=';' and
# a JobID column give the same report as '|' and JobIDRaw.
sed -e 's/|/;/g' -e '1s/^JobIDRaw;/JobID;/' "$tmp/sacct.txt" >"$tmp/semi.txt"
"$WHATIF" --sim="$SIM" --sacct="$tmp/semi.txt" --nodes="$DATA/nodes.txt" \
	--speed-map=$SPEEDS --hmrf-conf="$tmp/hmrf.conf" --sample=5 -o "$tmp/r4" >/dev/null 2>"$tmp/err"
rc=$?
# The tables: every line from the first section on, but the records-left-out
# notes, which name the file.
tables() { sed -n '/^## /,$p' "$1" | grep -v '^horae-sim: '; }
tap_ok "a ';'-delimited history with a JobID column gives the same report" \
	"$([ $rc = 0 ] && [ "$(tables "$tmp/r4/report.md")" = "$(tables "$r")" ]; echo $?)" \
	"exit $rc: $(cat "$tmp/err"; diff <(tables "$r") <(tables "$tmp/r4/report.md"))"
# A line horae-sim would refuse is refused, naming file:line: a field
# count unlike the header's, a time that is not one.
{ cat "$tmp/sacct.txt"; echo '8|chem|2026-11-25T10:01:00|COMPLETED'; } >"$tmp/short.txt"
sed '3s/2026-11-25T10:02:00|COMPLETED/2026-11-25T10:02|COMPLETED/' "$tmp/sacct.txt" >"$tmp/badtime.txt"
for c in "short.txt:9: 4 fields; the header has 10" \
	"badtime.txt:3: End '2026-11-25T10:02' is not a time"; do
	f=${c%%:*}
	"$WHATIF" --sim="$SIM" --sacct="$tmp/$f" --nodes="$DATA/nodes.txt" \
		-o "$tmp/r5" >/dev/null 2>"$tmp/err"
	rc=$?
	tap_ok "$f is refused: $c, exit 2, no directory" \
		"$([ $rc = 2 ] && grep -qF "$tmp/$c" "$tmp/err" &&
		   [ ! -e "$tmp/r5" ]; echo $?)" "exit $rc: $(cat "$tmp/err")"
done
tap_done
