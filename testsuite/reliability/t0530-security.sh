#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0530: what a user can and cannot do to Horae on a real cluster, tried
# as user nobody (uid 65534) on a cluster with all three plugins.
# - Every file and directory the plugins create under StateSaveLocation
#   is SlurmUser's and writable by SlurmUser alone; nobody can write,
#   truncate, replace or remove any of them, nor plant a file beside them.
# - job_modify cannot bypass admission: the owner of an admitted pending
#   deadline job cannot move its deadline closer than its time limit, nor
#   its time limit or begin time past its deadline; each refusal names
#   Justice's reason and leaves the job as it was.
# - A program on plain libslurm (pyslurm, a site's own tools) can start:
#   slurm_init() loads select/eunomia there.
# - Nobody can forge Justice's note (AdminComment), which Justice once read
#   back to learn and to size jobs again (its facts are in its own records
#   now), neither at submission nor later.
# (Who may read what is t0032's: PrivateData=usage.)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"

hc_test_setup t0530
dir=$HC_RUNDIR
state=$dir/state
HC_NODES=$'n1 2 2000 gen1\nn2 2 2000 gen2' \
HC_EUNOMIA_CONF=$'SpeedMap=gen1:1,gen2:2\nPeriod=1s' \
HC_JUSTICE_CONF=$'Bootstrap=2\nPeriod=1s' \
HC_HMRF_CONF=$'Period=1s' HC_EXTRA_CONF='PrivateData=usage' hc_start
tap_ok "a cluster with the three plugins and PrivateData=usage started" $? ||
	tap_done
cd /tmp || exit 1

# Fill the cluster with root's job so that nobody's jobs wait.
sbatch -Q -A ops -N2 -n4 -o /dev/null --wrap 'sleep 300'
j=$(hc_as 65534 sbatch --parsable -A nobodys -n1 -t 1 -D /tmp -o /dev/null \
	--deadline=now+600 --wrap true 2>&1)
tap_ok "nobody's deadline job is admitted ($j)" \
	$([[ "$j" =~ ^[0-9]+$ ]]; echo $?)
for _ in $(seq 50); do
	[ -f "$state/horae_view/65534.horae_hmrf.state" ] &&
		[ -f "$state/horae_justice.state" ] &&
		[ -f "$state/horae_eunomia.shares" ] && break
	sleep 0.2
done
sleep 1

# --- files -----------------------------------------------------------------
files=$(find "$state" -name 'horae_*' -o -path "$state/horae_view/*")
tap_diag "$(cd "$state" && ls -ld horae_* horae_view/* 2>&1)"
tap_ok "the plugins created their state, shares and views" \
	$([ "$(echo "$files" | grep -c .)" -ge 6 ]; echo $?) "$files"
bad=
for f in $files; do
	m=$(stat -c '%U %a' "$f")
	# Owner root (SlurmUser here); no write bit for group or others.
	[ "${m%% *}" = root ] && (( (8#${m#* } & 8#022) == 0 )) || bad+="$f $m; "
done
tap_ok "each is SlurmUser's and writable by SlurmUser alone" \
	$([ -z "$bad" ]; echo $?) "$bad"
bad=
for f in $files; do
	[ -f "$f" ] || continue
	hc_as 65534 sh -c ": >>'$f'" 2>/dev/null && bad+="append $f; "
	hc_as 65534 truncate -s 0 "$f" 2>/dev/null && bad+="truncate $f; "
	hc_as 65534 mv -f "$f" "$f.x" 2>/dev/null && bad+="rename $f; "
	hc_as 65534 rm -f "$f" 2>/dev/null
	[ -e "$f" ] || bad+="remove $f; "
done
tap_ok "nobody can append to, truncate, rename or remove any of them" \
	$([ -z "$bad" ]; echo $?) "$bad"
hc_as 65534 sh -c "echo '{}' >'$state/horae_view/65534.horae_hmrf.planted'" \
	2>/dev/null
tap_ok "nor plant a file in the view directory" \
	$([ ! -e "$state/horae_view/65534.horae_hmrf.planted" ]; echo $?)
hc_as 65534 ln -s /etc/shadow "$state/horae_hmrf.state.new" 2>/dev/null
tap_ok "nor a symlink where a state file is written" \
	$([ ! -L "$state/horae_hmrf.state.new" ]; echo $?)

# --- job_modify ------------------------------------------------------------
dl0=$(scontrol show job "$j" | grep -o 'Deadline=[^ ]*')
tl0=$(scontrol show job "$j" | grep -o 'TimeLimit=[^ ]*')
refused()
{
	local what=$1 pattern=$2 out
	shift 2
	out=$(hc_as 65534 scontrol update jobid="$j" "$@" 2>&1)
	tap_ok "the owner cannot $what" \
		$([ -n "$out" ] && grep -q "job_submit/justice: refused: $pattern" \
			"$dir/log/slurmctld.log"; echo $?) \
		"$out; $(grep 'justice: refused' "$dir/log/slurmctld.log" | tail -1)"
}
refused "move the deadline closer than the time limit" \
	"the deadline .* is less than the job's time limit (1 min) away" \
	deadline="$(date -d @$(( $(date +%s) + 30 )) +%Y-%m-%dT%H:%M:%S)"
refused "raise the time limit past the deadline" \
	"the deadline .* is less than the job's time limit (20 min) away" \
	timelimit=20
refused "put the begin time past the deadline" \
	"the deadline .* comes before the job may begin" \
	starttime="$(date -d @$(( $(date +%s) + 900 )) +%Y-%m-%dT%H:%M:%S)"
tap_check "the job keeps its deadline and time limit" \
	bash -c "scontrol show job $j | grep -q '$dl0' &&
		scontrol show job $j | grep -q '$tl0' &&
		squeue -h -j $j -o %T | grep -q PENDING"

# --- Justice's note --------------------------------------------------------
note0=$(scontrol show job "$j" | grep -o 'AdminComment=.*')
out=$(hc_as 65534 scontrol update jobid="$j" \
	admincomment='justice: up to 64 CPUs (1-32 nodes of 2); sized to 1 nodes' 2>&1)
tap_ok "the owner cannot rewrite Justice's note" \
	$(scontrol show job "$j" | grep -qF "$note0" && [ -n "$out" ]; echo $?) \
	"$out"
# sbatch has no option for an AdminComment: ask slurmctld through libslurm.
cat >"$dir/forge.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

int main(int argc, char **argv)
{
	job_desc_msg_t d;
	submit_response_msg_t *r = NULL;
	char *env[] = { "PATH=/bin:/usr/bin", NULL };

	slurm_init(NULL);
	if (argc > 1) {
		puts("slurm_init done");
		return 0;
	}
	slurm_init_job_desc_msg(&d);
	d.script = "#!/bin/sh\ntrue\n";
	d.name = "forge";
	d.account = "nobodys";
	d.work_dir = "/tmp";
	d.std_out = "/dev/null";
	d.environment = env;
	d.env_size = 1;
	d.user_id = getuid();
	d.group_id = getgid();
	d.min_nodes = 1;
	d.time_limit = 1;
	d.deadline = time(NULL) + 600;
	d.admin_comment = "justice: up to 64 CPUs (1-32 nodes of 2); sized to 1 nodes";
	if (slurm_submit_batch_job(&d, &r)) {
		printf("refused: %s\n", slurm_strerror(errno));
		return 1;
	}
	printf("accepted %u\n", r->job_id);
	return 0;
}
EOF
# The libslurm of the Slurm under test (beside its plugin directory), and
# the headers of its source.
libdir=$(dirname "${HC_STOCK_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}")
gcc ${HORAE_SLURM_SRC:+-isystem "$HORAE_SLURM_SRC"} -o "$dir/forge" \
	"$dir/forge.c" -L"$libdir" -lslurm -Wl,-rpath,"$libdir" 2>&1
chmod 755 "$dir/forge"
# (slurm_init() loads the select plugin: select/eunomia must load into a
# program on plain libslurm, which has no node table.)
out=$(hc_as 65534 "$dir/forge" init 2>&1)
tap_ok "a program on plain libslurm starts with select/eunomia" \
	$([ "$out" = "slurm_init done" ]; echo $?) "$out"
out=$(hc_as 65534 "$dir/forge" 2>&1)
tap_ok "nor submit a job with a note of its own ($out)" \
	$(echo "$out" | grep -q "^refused: Access/permission denied"; echo $?)
scancel "$j"
tap_done
