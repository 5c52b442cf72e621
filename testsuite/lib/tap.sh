# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - TAP output for the integration tests, with the closing line
# "N passed, N failed" that people and CI read.
#
#   . lib/tap.sh
#   tap_check "sinfo lists 4 nodes" test "$(sinfo -h -N | wc -l)" = 4
#   tap_ok "name" "$cond_status" ["diagnostic on failure"]
#   tap_done                         # prints the plan and the summary; exits

TAP_N=0
TAP_FAILED=0
TAP_SKIPPED=0

# tap_ok NAME STATUS [DIAG]: STATUS 0 passes.
tap_ok()
{
	TAP_N=$((TAP_N + 1))
	if [ "$2" = 0 ]; then
		echo "ok $TAP_N - $1"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N - $1"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/#   /'
	fi
	return "$2"
}

# tap_expect NAME STATUS WHY: an expectation we do not meet (or that the
# system under comparison does not show): "ok" when STATUS is 0, else
# "not ok ... # TODO WHY", which TAP and automake count as an expected
# failure, visible in every log but not failing the run.
tap_expect()
{
	TAP_N=$((TAP_N + 1))
	if [ "$2" = 0 ]; then
		echo "ok $TAP_N - $1"
	else
		echo "not ok $TAP_N - $1 # TODO $3"
	fi
}

# tap_check NAME CMD...: run CMD; its exit status decides.
tap_check()
{
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	tap_ok "$name" "$rc" "$out"
}

tap_diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# tap_skip NAME REASON: a check that cannot apply here, and why (TAP's
# SKIP: counted as skipped, not passed).
tap_skip()
{
	TAP_N=$((TAP_N + 1))
	TAP_SKIPPED=$((TAP_SKIPPED + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

# tap_skip_all REASON: the whole test cannot run here.  Exit 0: the TAP
# driver counts the "1..0 # SKIP" plan as a skip, and any other exit
# status (77 included, which only the plain driver reads as a skip) as
# an error.
tap_skip_all()
{
	echo "1..0 # SKIP $1"
	exit 0
}

# tap_core_only: the test is of the core or horae-sim alone, which never
# touch Slurm, so one release's suite of a horae-check that runs several
# runs it for all (horae-check sets HORAE_CORE_TESTED_BY in the others).
tap_core_only()
{
	[ -z "${HORAE_CORE_TESTED_BY:-}" ] ||
		tap_skip_all "Slurm-independent (the core and horae-sim only): run once, in this horae-check's Slurm $HORAE_CORE_TESTED_BY suite"
}

tap_done()
{
	echo "1..$TAP_N"
	if [ "$TAP_SKIPPED" = 0 ]; then
		echo "$((TAP_N - TAP_FAILED)) passed, $TAP_FAILED failed"
	else
		echo "$((TAP_N - TAP_FAILED - TAP_SKIPPED)) passed, $TAP_FAILED failed, $TAP_SKIPPED skipped"
	fi
	[ "$TAP_FAILED" = 0 ]
	exit
}

# tap_require_root: skip unless root and the Slurm daemons are installed.
tap_require_root()
{
	[ "$(id -u)" = 0 ] || tap_skip_all "needs root (starts slurmctld, slurmd and munged)"
	[ -x "${HC_SBIN:-/usr/sbin}/slurmctld" ] &&
		[ -x "${HC_SBIN:-/usr/sbin}/slurmd" ] &&
		[ -x /usr/sbin/munged ] ||
		tap_skip_all "slurmctld, slurmd or munged not installed (run contribs/horae-deps)"
}

# tap_rundir NAME: a fresh, short run directory for a test cluster.
tap_rundir() { mktemp -d "/tmp/horae-$1.XXXXXX"; }
