#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0302: sfair finds the plugins' files through slurm.conf as Slurm writes
# it (StateSaveLocation with blanks around '=', in an Included file, in
# any case; the last one given wins), asks slurmctld when that directory
# is not on this host (a login node) and says why when it cannot, says
# plainly when slurm.conf names none, shows
# Justice's state with -D when priority/hmrf keeps none, and --explain
# without a readable slurm.conf exits 2 with a message, never a libslurm
# fatal.  No daemon: the state files are data/eunomia's.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
SFAIR=${HORAE_BINDIR:-}/sfair
[ -x "$SFAIR" ] || tap_skip_all "sfair not built (run through make check)"
command -v jq >/dev/null || tap_skip_all "jq missing (contribs/horae-deps installs it)"

DATA=$HERE/cli/data/eunomia
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/etc/conf.d" "$tmp/state" "$tmp/justice-only"
cp "$DATA"/horae_hmrf.state "$DATA"/horae_justice.state "$tmp/state/"
cp "$DATA"/horae_justice.state "$tmp/justice-only/"

# slurm.conf in Slurm's syntax: the key in an Included file, with blanks
# around '=', a later line winning over an earlier one.
cat >"$tmp/etc/slurm.conf" <<CONF
ClusterName=t0302 # a comment
StateSaveLocation=/nowhere/at/all
SlurmctldPort = 6817  SlurmdPort=6818
Include conf.d/*.conf
CONF
printf 'statesavelocation = %s\n' "$tmp/state" >"$tmp/etc/conf.d/state.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" --at=1795326420 -n -o Account 2>&1)
rc=$?
tap_ok "StateSaveLocation from an Included file, 'key = value': exit 0, the accounts" \
	$([ $rc = 0 ] && [ -n "$out" ] && ! echo "$out" | grep -q sfair; echo $?) "($rc) $out"

# A StateSaveLocation that is not on this host: what a login node sees.
# sfair then asks slurmctld instead (t0019 shows it with one); here there
# is none.  libslurm reads these files itself (the one above is not one it
# takes), so they are plain.  Without SlurmctldHost libslurm ends the
# process: sfair turns that into exit 2 and a line of its own.
printf 'StateSaveLocation=%s\n' "$tmp/not-here" >"$tmp/etc/conf.d/state.conf"
mkdir -p "$tmp/login"
printf 'ClusterName=t0302\nStateSaveLocation=%s\n' "$tmp/not-here" \
	>"$tmp/login/nohost.conf"
out=$(SLURM_CONF=$tmp/login/nohost.conf "$SFAIR" 2>&1)
rc=$?
tap_ok "not on this host, slurm.conf without SlurmctldHost: exit 2, libslurm's reason and sfair's line, no libslurm exit 1" \
	$([ $rc = 2 ] && echo "$out" | grep -q "No SlurmctldHost" &&
	  echo "$out" | grep -q "^sfair: libslurm ended sfair (its message above) while reading $tmp/login/nohost.conf for slurmctld's view"; echo $?) "($rc) $out"
# With a SlurmctldHost where no slurmctld listens (port 1).
printf 'ClusterName=t0302\nSlurmctldHost=localhost\nSlurmctldPort=1\nStateSaveLocation=%s\n' \
	"$tmp/not-here" >"$tmp/login/slurm.conf"
out=$(SLURM_CONF=$tmp/login/slurm.conf "$SFAIR" 2>&1)
rc=$?
tap_ok "not on this host, no slurmctld: exit 2 and says it asked slurmctld and why that failed" \
	$([ $rc = 2 ] && echo "$out" | grep -q "^sfair: slurmctld did not answer sshare's request: Unable to contact slurm controller"; echo $?) "($rc) $out"
out=$(SLURM_CONF=$tmp/login/slurm.conf "$SFAIR" -D 2>&1)
rc=$?
tap_ok "not on this host, -D: exit 2 and says Justice's state is in the files there" \
	$([ $rc = 2 ] && echo "$out" | grep -q "StateSaveLocation ($tmp/login/slurm.conf) is not on this host, and -D reads the files"; echo $?) "($rc) $out"

# None at all.
printf 'ClusterName=t0302\n' >"$tmp/etc/slurm.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" 2>&1)
rc=$?
tap_ok "no StateSaveLocation: exit 2 and names the file" \
	$([ $rc = 2 ] && [ "$out" = "sfair: $tmp/etc/slurm.conf names no StateSaveLocation: pass --state=FILE, or set SLURM_CONF to the cluster's slurm.conf" ]; echo $?) "($rc) $out"

# Justice alone: -D needs no priority/hmrf state.
printf 'StateSaveLocation=%s\n' "$tmp/justice-only" >"$tmp/etc/slurm.conf"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" -D 2>&1)
rc=$?
tap_ok "-D with Justice's state alone: exit 0 and its table" \
	$([ $rc = 0 ] && echo "$out" | head -1 | grep -q "^ *Learnt *Fraction"; echo $?) "($rc) $out"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" -D --json 2>&1)
rc=$?
tap_ok "-D --json with Justice's state alone: exit 0, .justice.jobs" \
	$([ $rc = 0 ] && echo "$out" | jq -e '.justice | has("counts")' >/dev/null; echo $?) "($rc) $out"
rm "$tmp/justice-only/horae_justice.state"
out=$(SLURM_CONF=$tmp/etc/slurm.conf "$SFAIR" -D 2>&1)
rc=$?
tap_ok "-D with neither state: exit 2 and asks about job_submit/justice" \
	$([ $rc = 2 ] && echo "$out" | grep -q "no Justice state in $tmp/justice-only/: is job_submit/justice enabled?"; echo $?) "($rc) $out"

# --explain with no slurm.conf to give libslurm: a message, exit 2.
out=$(SLURM_CONF=$tmp/none/slurm.conf "$SFAIR" -S "$tmp/state/horae_hmrf.state" --explain=7 2>&1)
rc=$?
tap_ok "--explain without a slurm.conf: exit 2 and a message, no libslurm fatal" \
	$([ $rc = 2 ] && echo "$out" | grep -q "^sfair: --explain asks slurmctld, and $tmp/none/slurm.conf cannot be read here" &&
	  ! echo "$out" | grep -qi fatal; echo $?) "($rc) $out"
tap_done
