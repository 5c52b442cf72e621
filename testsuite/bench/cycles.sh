# SPDX-License-Identifier: GPL-2.0-or-later
# cycles.sh - sourced by the benchmarks that time slurmctld's scheduling
# cycles from sdiag (bench-select-cycle.sh, bench-scale.sh), with the
# cluster's SLURM_CONF set.
#
#   cycles_samples SECONDS >FILE   one "main US" or "bf US" line a cycle
#   cycles_quartiles KIND <FILE    "n q1 median q3" of main or bf

# One line "main_total main_last bf_total bf_last" from sdiag.
_cycles_reading()
{
	sdiag 2>/dev/null | awk '
		/^Main schedule statistics/ { sec = "main" }
		/^Backfilling stats/ { sec = "bf" }
		/^[[:space:]]*Last cycle:/ { last[sec] = $3 }
		/^[[:space:]]*Total cycles:/ { n[sec] = $3 }
		END { printf "%d %d %d %d\n", n["main"], last["main"], n["bf"], last["bf"] }'
}

# sdiag is read every second; a "Last cycle" is a sample when the cycle
# count went up by exactly one since the last reading (two or more cycles
# between readings are counted, not sampled).
cycles_samples()
{
	local end=$((SECONDS + $1)) pm=-1 pb=-1 m ml b bl
	while [ $SECONDS -lt $end ]; do
		read -r m ml b bl < <(_cycles_reading)
		[ "$pm" -ge 0 ] && [ "$m" = $((pm + 1)) ] && echo "main $ml"
		[ "$pb" -ge 0 ] && [ "$b" = $((pb + 1)) ] && echo "bf $bl"
		pm=$m pb=$b
		sleep 1
	done
}

cycles_quartiles()
{
	awk -v k="$1" '$1 == k { print $2 }' | sort -n | awk '{ v[++n] = $1 }
		END { if (!n) { print "0 - - -"; exit }
		      printf "%d %d %d %d\n", n, v[int((n + 3) / 4)], v[int((n + 1) / 2)], v[int((3 * n + 3) / 4)] }'
}
