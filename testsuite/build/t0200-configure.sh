#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0200: configure refuses a missing Slurm source tree and one whose version
# differs from the installed slurmctld, saying what to do; with Debian's
# prefix and libdir the plugins install into Debian's plugin directory.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
configure=$HERE/../configure
[ -x "$configure" ] || tap_skip_all "no configure script (run autogen.sh)"
command -v slurmctld >/dev/null || [ -x /usr/sbin/slurmctld ] ||
	tap_skip_all "slurmctld not installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(cd "$tmp" && "$configure" --with-slurm-source="$tmp/none" 2>&1)
rc=$?
tap_ok "configure fails without a Slurm source tree" $([ $rc != 0 ]; echo $?)
echo "$out" | grep -q "no Slurm source in $tmp/none" &&
	echo "$out" | grep -q "Run contribs/horae-deps"
tap_ok "and says where it looked and what to run" $? "$(echo "$out" | tail -3)"

mkdir -p "$tmp/old/src/slurmctld"
touch "$tmp/old/src/slurmctld/slurmctld.h"
echo '#define SLURM_VERSION_STRING "21.08.5"' >"$tmp/old/config.h"
out=$(cd "$tmp" && "$configure" --with-slurm-source="$tmp/old" 2>&1)
rc=$?
tap_ok "configure fails on a source of another Slurm version" \
	$([ $rc != 0 ]; echo $?)
installed=$( (slurmctld -V || /usr/sbin/slurmctld -V) 2>/dev/null | awk '{print $NF}')
echo "$out" | grep -q "version '21.08.5' but the installed slurmctld is $installed"
tap_ok "and names both versions" $? "$(echo "$out" | tail -3)"

mkdir "$tmp/deb"
out=$(cd "$tmp/deb" && "$configure" --prefix=/usr \
	--libdir=/usr/lib/x86_64-linux-gnu 2>&1)
rc=$?
tap_ok "configure succeeds with Debian's prefix and libdir" $rc \
	"$(echo "$out" | tail -5)"
# Not the flags of the make that runs this test: they would add noise.
dir=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s -C "$tmp/deb/src/plugins" print-plugindir 2>&1)
tap_ok "plugins then install into Debian's plugin directory" \
	$([ "$dir" = /usr/lib/x86_64-linux-gnu/slurm-wlm ]; echo $?) "got: $dir"
tap_done
