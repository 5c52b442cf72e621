#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0202: each plugin loads in a process that has only libslurmfull, as in
# Slurm's commands (every select plugin in squeue, sinfo... up to 24.11;
# the priority plugin in sshare from 24.05): every symbol of slurmctld's
# own that a plugin uses is weak (src/plugins/shared/slurmctld_only.h).
# dlopen with RTLD_NOW, as Python's ctypes does, finds any that is not:
# stricter than Slurm's RTLD_LAZY, which fails only on data and on
# functions whose address is taken.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"
full=${HC_STOCK_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}/libslurmfull.so
[ -f "$full" ] || tap_skip_all "no $full"
command -v python3 >/dev/null || tap_skip_all "python3 missing"

for p in priority_hmrf select_eunomia job_submit_justice; do
	out=$(python3 - "$full" "$HORAE_PLUGINDIR/$p.so" 2>&1 <<'PY'
import ctypes, sys
ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
ctypes.CDLL(sys.argv[2])
PY
)
	tap_ok "$p.so loads beside libslurmfull alone" $? "$out"
done
# And the check can fail: a library with a strong reference to one of
# slurmctld's symbols does not load.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'extern void lock_slurmctld(void *);\nvoid *horae_t0202(void) { return (void *)lock_slurmctld; }\n' >"$tmp/strong.c"
gcc -shared -fPIC -o "$tmp/strong.so" "$tmp/strong.c" 2>"$tmp/gcc.log"
out=$(python3 - "$full" "$tmp/strong.so" 2>&1 <<'PY'
import ctypes, sys
ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
ctypes.CDLL(sys.argv[2])
PY
)
tap_ok "a library referring to lock_slurmctld strongly does not load" \
	$(grep -q "undefined symbol: lock_slurmctld" <<<"$out"; echo $?) "$out"
tap_done
