# SPDX-License-Identifier: GPL-2.0-or-later
# hmrf.sh - helpers for the priority/hmrf integration tests: a step model
# run on a real cluster, and reading what the plugin accounted via sfair.
#
# Needs: cluster.sh sourced and a cluster up; HORAE_BINDIR for sfair.

SFAIR=${HORAE_BINDIR:-}/sfair

# hmrf_usage ACCOUNT TRES: the account's usage of TRES in the window now
# (TRES x seconds), as sfair reads it from the plugin's state.
hmrf_usage()
{
	"$SFAIR" -P -o Account,Used | awk -F"|" -v acct="$1" -v col="Used:$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$1 == acct { v = $c } END { print v + 0 }'
}

# hmrf_running ACCOUNT: number of running jobs of the account.
hmrf_running() { squeue -h -t R -A "$1" -o %i | wc -l; }

# hmrf_wait_none_running SECONDS
hmrf_wait_none_running()
{
	local deadline=$((SECONDS + $1))
	while [ $SECONDS -lt $deadline ]; do
		[ -z "$(squeue -h -t R,CG -o %i)" ] && return 0
		sleep 0.3
	done
	return 1
}

# hmrf_submit N ACCOUNT PARTITION CPUS MEM_MB SECONDS
hmrf_submit()
{
	local i
	for ((i = 0; i < $1; i++)); do
		sbatch -Q -A "$2" -p "$3" -n "$4" --mem="$5" -t 1 -o /dev/null \
			--wrap "sleep $6" >/dev/null || return 1
	done
}

# hmrf_submit_exact N ACCOUNT PARTITION CPUS MEM_MB SECONDS STARTS: like
# hmrf_submit, but each job ends SECONDS after the start slurmctld records
# for it (whole seconds), so that every job's accounted run time is
# SECONDS and not SECONDS plus the second it happened to start in, as long
# as slurmctld records the end within a second of the job's exit (not so
# for 85 jobs ending at once beside another cluster: 1.2-2.2 s,
# 2026-12-01; exiting half a second early made 30-job steps 19 s).  The
# job reads its start from the file STARTS, which the test writes once the
# jobs run (hmrf_write_starts).  Not each job asking slurmctld itself: 85
# clients at once on two cores answered up to 10 s late and the jobs ran
# up to 16 s for 6 (2026-12-01), which changed what the books charged.
# The job waits for its line without a process a poll (dash's builtins)
# but for one sleep each half second.
hmrf_submit_exact()
{
	local i
	for ((i = 0; i < $1; i++)); do
		sbatch -Q -A "$2" -p "$3" -n "$4" --mem="$5" -t 1 -o /dev/null \
			--wrap "s=
while [ -z \"\$s\" ]; do
	while read -r j t _; do
		[ \"\$j\" = \"\$SLURM_JOB_ID\" ] && s=\$t
	done 2>/dev/null <'$7'
	[ -n \"\$s\" ] || sleep 0.5
done
r=\$(( (s + $6) * 1000000000 - \$(date +%s%N) ))
[ \$r -gt 0 ] && sleep \$((r / 1000000000)).\$(printf %09d \$((r % 1000000000)))
exit 0" \
			>/dev/null || return 1
	done
}

# hmrf_write_starts STARTS: the running jobs' starts ("JOBID EPOCH
# ACCOUNT" lines) into the file STARTS, replaced whole, for
# hmrf_submit_exact's jobs.
hmrf_write_starts()
{
	SLURM_TIME_FORMAT=%s squeue -h -t R -o "%i %S %a" >"$1.new" &&
		mv "$1.new" "$1"
}
