#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0011: a bad hmrf.conf stops slurmctld at start, and its log names the
# file, the line and what is wrong: an unknown key, a negative share, a
# malformed window, a bucket longer than the window, a bad line in an
# included file (named with its own line), a missing included file.  A
# good file in Slurm's syntax (Key = Value, 7-0, Include) starts.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0011
dir=$HC_TEST_DIR
conf=$dir/hmrf.conf
log=$dir/log/slurmctld.log

# try NAME CONF PATTERN...: slurmctld must refuse to start with CONF, and
# its log must match every PATTERN.
try()
{
	local name=$1 text=$2 p rc=0 missing=
	shift 2
	: >"$log"
	HC_NODES="n1 2 2000" HC_HMRF_CONF=$text hc_start 2>/dev/null
	if [ $? = 0 ] || hc_ctld_alive; then
		tap_ok "$name: slurmctld refuses to start" 1 "it started"
		hc_stop
		return
	fi
	tap_ok "$name: slurmctld refuses to start" 0
	left=$(_hc_holders)
	tap_ok "$name: the failed start leaves nothing running" \
		$([ -z "$left" ]; echo $?) "$(ps -o pid,args -p "${left:-1}" 2>&1)"
	for p in "$@"; do
		grep -q -- "$p" "$log" || missing+="'$p' "
	done
	tap_ok "$name: the log names file, line and problem" \
		$([ -z "$missing" ]; echo $?) \
		"missing $missing in: $(grep -i -E 'hmrf|error|fatal' "$log" | tail -5)"
	hc_stop
}

try "unknown key" $'Policy=hmrf\nColour=blue' \
	"priority/hmrf: $conf:2: unknown key 'Colour'" \
	"fatal: priority/hmrf: cannot start with an invalid $conf"
try "negative share" $'Window=sliding:1d\nPeriod=10s\nAccount=physics Share=-1' \
	"priority/hmrf: $conf:3: Account=physics: Share=-1: must be greater than 0"
try "malformed window" $'# the window\nWindow=weekly' \
	"priority/hmrf: $conf:2: Window=weekly: window 'weekly': expected none, tumbling:LENGTH or sliding:LENGTH"
try "bucket longer than the window" $'Window=sliding:1h\nWindowBucket=2h' \
	"priority/hmrf: $conf: WindowBucket=7200s is longer than the window"

# Slurm's syntax: an error in an included file names that file's line.
printf 'Account=Physics Share=2\nAccount = chem Share = -1\n' >"$dir/accounts.conf"
try "an included file's bad line" $'Policy = hmrf\nInclude accounts.conf' \
	"priority/hmrf: $dir/accounts.conf:2: Account=chem: Share=-1: must be greater than 0"
try "a missing included file" $'Policy=hmrf\nInclude nothere.conf' \
	"priority/hmrf: $conf:2: Include $dir/nothere.conf: no such file"

# And a good file starts, in Slurm's syntax (blanks around '=', Slurm's
# time format, Include, an account name in capitals).
printf 'Account=Physics Share=3\n' >"$dir/accounts.conf"
HC_NODES="n1 2 2000" HC_HMRF_CONF=$'# comments are fine\nPolicy = lt-af\nWindow = tumbling:7-0\nInclude accounts.conf' \
	hc_start 2>/dev/null
tap_ok "a good hmrf.conf starts, and the log says what it read" \
	$(grep -q "policy lt-af, .*1 configured accounts" "$log"; echo $?) \
	"$(grep hmrf "$log" | tail -3)"
tap_done
