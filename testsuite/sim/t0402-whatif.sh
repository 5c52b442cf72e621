#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0402: horae-whatif, the what-if report on a site's own history.  On a
# small sacct history with deadlines and waiting it writes the report and
# both plots; its "as run" columns match what this test computes from
# the records itself (awk: CPUs x run time per account; nearest-rank
# delays; deadlines met), its replay columns match horae-sim's own
# summary of the same run, the contributions follow hmrf.conf's shares;
# the history is read as horae-sim reads it (any delimiter, JobID or
# JobIDRaw); bad input is refused naming what is wrong (file:line), exit
# 2, before the report's directory is made.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
SIM=${HORAE_BUILDDIR:-}/../contribs/sim/horae-sim
WHATIF=$HERE/../contribs/sim/horae-whatif
[ -x "$SIM" ] || tap_skip_all "horae-sim not built (run through make check)"
command -v gnuplot >/dev/null || tap_skip_all "gnuplot missing (contribs/horae-deps installs it)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"
DATA=$HERE/../contribs/sim/test/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Two nodes (2 and 4 CPUs); physics fills the cluster first, chem and bio
# wait behind it; two of the jobs have deadlines, one of them missed.
cat >"$tmp/sacct.txt" <<'EOF'
JobIDRaw|Account|Submit|Start|End|State|AllocTRES|Constraints|Deadline
1|physics|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:02:00|COMPLETED|cpu=4,mem=400M,node=1||None
2|physics|2026-11-25T10:00:00|2026-11-25T10:00:00|2026-11-25T10:02:00|COMPLETED|cpu=2,mem=200M,node=1||None
3|chem|2026-11-25T10:00:10|2026-11-25T10:02:00|2026-11-25T10:03:00|COMPLETED|cpu=2,mem=200M,node=1||2026-11-25T10:10:00
4|bio|2026-11-25T10:00:20|2026-11-25T10:02:00|2026-11-25T10:04:00|COMPLETED|cpu=4,mem=400M,node=1||2026-11-25T10:03:00
5|chem|2026-11-25T10:00:30|2026-11-25T10:03:00|2026-11-25T10:03:30|COMPLETED|cpu=1,mem=100M,node=1||None
6|physics|2026-11-25T10:00:40|2026-11-25T10:03:00|2026-11-25T10:04:00|COMPLETED|cpu=1,mem=100M,node=1||None
7|bio|2026-11-25T10:00:50|Unknown|Unknown|PENDING|||None
EOF
printf 'Account=physics Share=2\nAccount=CHEM Share=1\nDefaultShare=1\n' >"$tmp/hmrf.conf"
out=$tmp/report
"$WHATIF" --sim="$SIM" --sacct="$tmp/sacct.txt" --nodes="$DATA/nodes.txt" \
	--hmrf-conf="$tmp/hmrf.conf" --sample=5 -o "$out" >"$tmp/stdout" 2>"$tmp/stderr"
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
# The replay's shares: horae-sim's own summary of the same run.
for a in physics chem bio; do
	want=$(jq -r --arg a "$a" '([.accounts[].cpu_time] | add) as $t |
		(.accounts[] | select(.name == $a) | .cpu_time) / $t * 100 |
		(. * 10 | round / 10) | tostring' "$out/summary-hmrf.json")
	got=$(col "$(row "$a" "Usage share")" 4)
	got=${got%\%}
	tap_ok "under hmrf, $a's share is horae-sim's summary's ($want%)" \
		"$(awk -v x="$got" -v y="$want" 'BEGIN { exit !(x - y < 0.051 && y - x < 0.051) }'; echo $?)" \
		"report: $got"
done
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
	--hmrf-conf="$tmp/hmrf.conf" --sample=5 -o "$tmp/r4" >/dev/null 2>"$tmp/err"
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
for c in "short.txt:9: 4 fields; the header has 9" \
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
