#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0100: every man page renders without a warning from man/groff.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
command -v man >/dev/null || tap_skip_all "man is not installed"
pages=$(find "$HERE/../doc/man" -name '*.[1-8]' | sort)
[ -n "$pages" ] || tap_skip_all "no man pages found"
for page in $pages; do
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	tap_ok "$(basename "$page") renders without warnings" \
		$([ -z "$warn" ]; echo $?) "$warn"
done
tap_done
