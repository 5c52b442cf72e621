#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0300: sfair --check-config checks hmrf.conf, eunomia.conf and
# justice.conf without a daemon, with the messages the plugins log (t0011,
# t0020 and t0030 check the plugins' side).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
SFAIR=${HORAE_BINDIR:-}/sfair
[ -x "$SFAIR" ] || tap_skip_all "sfair not built (run through make check)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The cluster the files are checked against: nodes of gen1 and gen4, GPUs
# tracked.
mkdir "$tmp/etc"
cat >"$tmp/etc/slurm.conf" <<CONF
AccountingStorageTRES=gres/gpu
NodeName=n[1-2] CPUs=4 Features=gen1,ib
NodeName=n3 CPUs=8 Feature="gen4"
CONF
export SLURM_CONF=$tmp/etc/slurm.conf

printf '# two groups\nPolicy=hmrf\nAccount=physics Share=2\nAccount=chem Share=1\n' >"$tmp/good.conf"
out=$("$SFAIR" --check-config="$tmp/good.conf" --kind=hmrf 2>&1)
tap_ok "a good file: exit 0 and OK" \
	$([ $? = 0 ] && [ "$out" = "$tmp/good.conf: OK (policy hmrf, 2 accounts)" ]; echo $?) "$out"

check_bad()
{
	local name=$1 text=$2 want=$3 out rc
	printf '%b' "$text" >"$tmp/bad.conf"
	out=$("$SFAIR" --check-config="$tmp/bad.conf" --kind=hmrf 2>&1)
	rc=$?
	tap_ok "$name: exit 1 and '$want'" \
		$([ $rc = 1 ] && [ "$out" = "$tmp/bad.conf:$want" ]; echo $?) "got ($rc): $out"
}
check_bad "unknown key" 'Policy=hmrf\nColour=blue\n' "2: unknown key 'Colour'"
check_bad "negative share" 'Window=sliding:1d\nPeriod=10s\nAccount=physics Share=-1\n' \
	"3: Account=physics: Share=-1: must be greater than 0"
check_bad "malformed window" '# the window\nWindow=weekly\n' \
	"2: Window=weekly: window 'weekly': expected none, tumbling:LENGTH or sliding:LENGTH"
check_bad "a key set twice" 'Policy=hmrf\nWindow=none\npolicy = drf\n' \
	"3: policy is set twice (first at $tmp/bad.conf:1)"
check_bad "an account named twice, in two cases" 'Account=Physics Share=2\nAccount=physics Share=1\n' \
	"2: Account=physics: the account appears twice (names are compared as Slurm stores them, in lower case)"

# Slurm's syntax is good syntax.
printf 'Policy = hmrf\nWindow = tumbling:7-0\nInclude acc*.conf\n' >"$tmp/slurm-syntax.conf"
printf 'Account=Physics Share=2\n' >"$tmp/accounts.conf"
out=$("$SFAIR" --check-config="$tmp/slurm-syntax.conf" --kind=hmrf 2>&1)
tap_ok "Slurm's syntax (Key = Value, 7-0, Include): exit 0 and OK" \
	$([ $? = 0 ] && [ "$out" = "$tmp/slurm-syntax.conf: OK (policy hmrf, 1 accounts)" ]; echo $?) "$out"

# Never OK to what would misbehave: a directory, a named file that is not
# there, a name that does not say whose file it is, a kind that is none.
out=$("$SFAIR" --check-config="$tmp" --kind=hmrf 2>&1)
tap_ok "a directory: exit 1 and says so" \
	$([ $? = 1 ] && [ "$out" = "$tmp: is a directory, not a file" ]; echo $?) "$out"
out=$("$SFAIR" --check-config="$tmp/nothere/hmrf.conf" 2>&1)
tap_ok "a named file that is missing: exit 1" \
	$([ $? = 1 ] && [ "$out" = "$tmp/nothere/hmrf.conf: no such file" ]; echo $?) "$out"
out=$("$SFAIR" --check-config="$tmp/good.conf" 2>&1)
tap_ok "a name that does not tell whose file: exit 2, asks for --kind" \
	$([ $? = 2 ] && echo "$out" | grep -q "add --kind=hmrf, eunomia or justice"; echo $?) "$out"
out=$("$SFAIR" --check-config="$tmp/good.conf" --kind=slurm 2>&1)
tap_ok "an unknown --kind: exit 2" \
	$([ $? = 2 ] && [ "$out" = "sfair: --kind=slurm: use hmrf, eunomia or justice" ]; echo $?) "$out"
out=$("$SFAIR" --check-config="$tmp/good.conf" --kind=justice 2>&1)
tap_ok "--kind decides how the file is read (an hmrf file as justice.conf: exit 1)" \
	$([ $? = 1 ] && echo "$out" | grep -q "unknown key 'Policy'\|Policy=hmrf"; echo $?) "$out"

# Against slurm.conf: warnings with file:line, and never "OK".
printf 'Policy=hmrf\nTres=cpu,mem,gres/gpuu\n' >"$tmp/w.conf"
out=$("$SFAIR" --check-config="$tmp/w.conf" --kind=hmrf 2>&1)
tap_ok "a TRES Slurm does not track: a warning with file:line, exit 0, not OK" \
	$([ $? = 0 ] && echo "$out" | grep -q "^$tmp/w.conf:2: warning: Tres=cpu,mem,gres/gpuu: 'gres/gpuu' is not a TRES Slurm tracks here" &&
	  echo "$out" | grep -qx "$tmp/w.conf: usable, with 1 warning above (policy hmrf, 0 accounts)"; echo $?) "$out"
printf 'Placement=eunomia\nSpeedMap=gen1:1,gen9:2\nAccount=io SpeedMap=gen4:1.2,gen7:3\n' >"$tmp/w-eunomia.conf"
out=$("$SFAIR" --check-config="$tmp/w-eunomia.conf" --kind=eunomia 2>&1)
tap_ok "SpeedMap features no node has: a warning for each, with file:line" \
	$([ $? = 0 ] && echo "$out" | grep -q "^$tmp/w-eunomia.conf:2: warning: SpeedMap=gen1:1,gen9:2: no node in slurm.conf has the feature 'gen9'" &&
	  echo "$out" | grep -q "^$tmp/w-eunomia.conf:3: warning: SpeedMap=gen4:1.2,gen7:3: no node in slurm.conf has the feature 'gen7'" &&
	  [ "$(echo "$out" | grep -c warning:)" = 2 ]; echo $?) "$out"
printf 'AccountingStorageType=accounting_storage/slurmdbd\n' >"$tmp/etc/dbd.conf"
out=$(SLURM_CONF=$tmp/etc/dbd.conf "$SFAIR" --check-config="$tmp/good.conf" --kind=hmrf 2>&1)
tap_ok "Account lines under slurmdbd: a warning each (the associations decide)" \
	$([ $? = 0 ] && [ "$(echo "$out" | grep -c 'warning: Account=.*this line is not used')" = 2 ]; echo $?) "$out"
out=$(SLURM_CONF=$tmp/none.conf "$SFAIR" --check-config="$tmp/good.conf" --kind=hmrf 2>&1)
tap_ok "without a slurm.conf: a note that nothing was checked against it" \
	$([ $? = 0 ] && echo "$out" | grep -q "note: $tmp/none.conf cannot be read here"; echo $?) "$out"

printf 'Period=0\n' >"$tmp/etc/hmrf.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" --check-config 2>/dev/null)
err=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" --check-config 2>&1 >/dev/null)
rc=$?
tap_ok "without a file name it checks hmrf.conf beside \$SLURM_CONF" \
	$([ $rc = 1 ] && [ "$err" = "$tmp/etc/hmrf.conf:1: Period=0: must be greater than 0" ]; echo $?) "$err"
rm "$tmp/etc/hmrf.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" --check-config 2>&1)
tap_ok "a missing file is not an error: the plugin uses its defaults" \
	$([ $? = 0 ] && echo "$out" | grep -q "no such file: priority/hmrf would use its defaults"; echo $?) "$out"

# eunomia.conf and justice.conf, beside slurm.conf and by name.
printf 'Placement=eunomia\nSpeedMap=gen1:1,gen4:3\nAccount=io SpeedMap=gen4:1.2\n' >"$tmp/etc/eunomia.conf"
printf 'Bootstrap=5\nSmoothing=exp:0.3\n' >"$tmp/etc/justice.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" --check-config 2>&1)
tap_ok "good eunomia.conf and justice.conf beside slurm.conf: exit 0 and OK" \
	$([ $? = 0 ] && echo "$out" | grep -qx "$tmp/etc/eunomia.conf: OK (placement eunomia, 2 speed factors, 1 accounts)" &&
	  echo "$out" | grep -qx "$tmp/etc/justice.conf: OK (policy justice, bootstrap 5 jobs)"; echo $?) "$out"
printf 'Placement=eunomia\nSpeedMap=gen1:1,gen1:2\n' >"$tmp/etc/eunomia.conf"
out=$("$SFAIR" --check-config="$tmp/etc/eunomia.conf" 2>&1)
tap_ok "a bad eunomia.conf, named: exit 1 and PATH:LINE" \
	$([ $? = 1 ] && echo "$out" | grep -q "^$tmp/etc/eunomia.conf:2: SpeedMap=gen1:1,gen1:2: "; echo $?) "$out"
printf 'HistoryLength=20\nBootstrap=50\n' >"$tmp/etc/justice.conf"
out=$("$SFAIR" --check-config="$tmp/etc/justice.conf" 2>&1)
tap_ok "a justice.conf whose bootstrap would never end: exit 1" \
	$([ $? = 1 ] && [ "$out" = "$tmp/etc/justice.conf:2: Bootstrap=50 is above HistoryLength=20: the history never holds that many jobs, so admission control would never start" ]; echo $?) "$out"
printf '# justice\nKillAbove=-3\n' >"$tmp/etc/justice.conf"
out=$("$SFAIR" --check-config="$tmp/etc/justice.conf" 2>&1)
tap_ok "a bad justice.conf, named: exit 1 and PATH:LINE" \
	$([ $? = 1 ] && [ "$out" = "$tmp/etc/justice.conf:2: KillAbove=-3: must be at least 0" ]; echo $?) "$out"
tap_done
