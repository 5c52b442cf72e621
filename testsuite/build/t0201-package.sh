#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0201: the Debian package (contribs/horae-package, `make deb`) as an
# admin uses it: it depends on exactly the Slurm it was built for, dpkg
# installs the plugins into Slurm's own plugin directory, a cluster whose
# slurm.conf names only that directory runs a job through all three
# plugins, and purging the package removes its files and leaves the
# admin's configuration files.  On a machine where an admin installed
# horae already, the test leaves it alone and skips.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
[ "${HC_SBIN:-/usr/sbin}" = /usr/sbin ] ||
	tap_skip_all "the package is built for Debian's Slurm; this build is for $HC_SBIN"
command -v dpkg-deb >/dev/null || tap_skip_all "dpkg-deb missing"
if dpkg-query -W -f='${Status}' horae 2>/dev/null | grep -q installed; then
	tap_skip_all "horae is installed on this machine already: not touching it"
fi
hc_test_setup t0201
dir=$HC_TEST_DIR
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir=/usr/lib/$triplet/slurm-wlm
# An admin's hmrf.conf in /etc/slurm, where Debian's slurm.conf is (made
# here only if there is none, and removed at the end).
admin=/etc/slurm/hmrf.conf
made=
if [ ! -e "$admin" ] && mkdir -p /etc/slurm; then
	printf '# t0201: an admin file\nAccount=physics Share=2\n' >"$admin" && made=1
fi
trap 'dpkg --purge horae >/dev/null 2>&1; [ -n "$made" ] && rm -f "$admin";
	hc_stop; _hc_may_remove && rm -rf "$dir"' EXIT
sum=$(md5sum <"$admin")

deb=$("$TOP/contribs/horae-package" "$dir/deb" 2>"$dir/package.log" | tail -1)
tap_ok "contribs/horae-package builds a .deb" \
	$([ -f "$deb" ]; echo $?) "$(tail -5 "$dir/package.log")"
slurmver=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)
depends=$(dpkg-deb -f "$deb" Depends)
tap_ok "it depends on exactly the installed Slurm ($slurmver)" \
	$(grep -qF "slurm-wlm-basic-plugins (= $slurmver)" <<<"$depends"; echo $?) "$depends"
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
tap_ok "it ships no file under /etc" \
	$(! grep -q '^\./etc' <<<"$files"; echo $?) "$(grep '^\./etc' <<<"$files")"

dpkg -i "$deb" >"$dir/dpkg-i.log" 2>&1
tap_ok "dpkg -i installs it" $? "$(tail -5 "$dir/dpkg-i.log")"
ok=0
for p in priority_hmrf select_eunomia job_submit_justice; do
	[ -f "$plugindir/$p.so" ] || ok=1
done
tap_ok "the plugins are in Slurm's plugin directory, $plugindir" $ok \
	"$(ls "$plugindir" | grep -E 'hmrf|eunomia|justice')"
tap_ok "sfair, horae-sim and horae-whatif are on the PATH, their man pages found" \
	$(/usr/bin/sfair --help >/dev/null 2>&1 && [ -x /usr/bin/horae-sim ] &&
		/usr/bin/horae-whatif --help >/dev/null 2>&1 &&
		man -w sfair >/dev/null 2>&1 && man -w horae >/dev/null 2>&1 &&
		man -w horae-whatif >/dev/null 2>&1; echo $?)

# A cluster on the installed plugins only: PluginDir is Slurm's own.
HC_PLUGINDIR=$plugindir HC_HMRF_CONF="Period=1s" hc_start
tap_ok "a cluster loads the installed plugins" $? || tap_done
conf=$(scontrol show config)
tap_ok "slurmctld runs priority/hmrf, select/eunomia and justice from $plugindir" \
	$(grep -q "^PriorityType *= priority/hmrf$" <<<"$conf" &&
		grep -q "^SelectType *= select/eunomia$" <<<"$conf" &&
		grep -q "^JobSubmitPlugins *= justice$" <<<"$conf" &&
		grep -q "^PluginDir *= $plugindir\(:$plugindir\)\?$" <<<"$conf"; echo $?) \
	"$(grep -E '^(PriorityType|SelectType|JobSubmit|PluginDir)' <<<"$conf")"
j=$(sbatch --parsable -A physics -n 1 -o /dev/null --wrap 'true')
hc_wait_jobs_done 60
st=$(scontrol show job "$j" 2>/dev/null | grep -Eo 'JobState=[^ ]*')
tap_ok "a job runs to completion through them" \
	$([ "$st" = JobState=COMPLETED ]; echo $?) "job $j: $st"
hc_stop

dpkg --purge horae >"$dir/dpkg-purge.log" 2>&1
tap_ok "dpkg --purge removes it" $? "$(tail -5 "$dir/dpkg-purge.log")"
left=$(for f in $files; do
	f=${f#.}
	[ -f "$f" ] && echo "$f"
done)
tap_ok "none of its files is left" $([ -z "$left" ]; echo $?) "$left"
tap_ok "the admin's $admin is left as it was" \
	$([ "$(md5sum <"$admin" 2>/dev/null)" = "$sum" ]; echo $?)
tap_done
