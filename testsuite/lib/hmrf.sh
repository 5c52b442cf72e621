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

# hmrf_wait_stable SECONDS: until the number of running jobs stops growing
# (three equal readings 0.5 s apart).
hmrf_wait_stable()
{
	local deadline=$((SECONDS + $1)) last=-1 same=0 n
	while [ $SECONDS -lt $deadline ]; do
		n=$(squeue -h -t R -o %i | wc -l)
		if [ "$n" = "$last" ] && [ "$n" -gt 0 ]; then
			same=$((same + 1))
			[ $same -ge 3 ] && return 0
		else
			same=0
		fi
		last=$n
		sleep 0.5
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

# hmrf_submit_exact N ACCOUNT PARTITION CPUS MEM_MB SECONDS: like
# hmrf_submit, but each job ends exactly SECONDS after the start slurmctld
# records for it (whole seconds), so that every job's accounted run time
# is SECONDS and not SECONDS plus the second it happened to start in.
hmrf_submit_exact()
{
	local i
	for ((i = 0; i < $1; i++)); do
		sbatch -Q -A "$2" -p "$3" -n "$4" --mem="$5" -t 1 -o /dev/null \
			--wrap "s=\$(squeue -h -j \$SLURM_JOB_ID -o %S)
e=\$((\$(date -d \"\$s\" +%s) + $6))
sleep \$(awk -v e=\$e -v n=\$(date +%s.%N) 'BEGIN { d = e - n; print (d > 0 ? d : 0) }')" \
			>/dev/null || return 1
	done
}
