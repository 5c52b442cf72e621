#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t0019: with slurmdbd, a site's usage limits and sshare work under
# priority/hmrf as under priority/multifactor, in the same run: each
# cluster (multifactor first, then hmrf) has an account `capped` with
# GrpTRESMins=cpu=2 (two CPU-minutes) on a node of 2 CPUs.  Two jobs of 2
# CPUs for 33 s each use 132 CPU-s (2.2 CPU-minutes); the limit lets both
# start (usage below it) and must hold the third, pending with
# AssocGrpCPUMinutesLimit.  sshare must show capped's raw usage close to
# what ran (measured: multifactor 133, hmrf 131 CPU-s of 132).  Under hmrf
# the association usage these read used to stay 0 (issue 20).
#
# Both clusters also run one job of account `billed` in QOS `double`
# (UsageFactor=2) on partition `billed` (TRESBillingWeights=CPU=2): 2
# CPUs for 10 s must add 2 x 2 x 2 x 10 = 80 to the association's and the
# QOS's raw usage, as multifactor charges (UsageFactor x billing x time).
#
# Under hmrf, sfair then runs as on a login node: a copy of slurm.conf
# whose StateSaveLocation is not on this host, so sfair cannot read the
# plugins' files and asks slurmctld over sshare's RPC instead.  It must
# show what sshare shows (RawUsage, FairShare), user rows with -u/-a, the
# cluster with -M, and refuse what needs the files with a clear message.
#
# And as on a configless login node: no slurm.conf on the host (a mount
# namespace of its own hides /etc/slurm and /run, and gives munged's
# socket its default place there), SLURM_CONF unset, slurm.conf fetched
# from slurmctld as every Slurm command fetches it (SLURM_CONF_SERVER
# here; DNS SRV records at a site).  sfair must learn StateSaveLocation
# from slurmctld and read the plugins' files there, show sshare's figures
# with --ctld, say that --check-config needs a file named, and exit 2,
# not libslurm's 1, when no slurmctld answers.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/lib/tap.sh"
. "$HERE/lib/cluster.sh"
tap_require_root
[ -n "${HORAE_PLUGINDIR:-}" ] || tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"

RUN=33
dirs=()
trap 'hc_stop; [ "$TAP_FAILED" = 0 ] && rm -rf "${dirs[@]}"' EXIT
trap 'exit 130' INT TERM

# wait_state JOB STATE SECONDS
wait_state()
{
	local i
	for ((i = 0; i < $3 * 2; i++)); do
		[ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = "$2" ] && return 0
		[ "$2" = GONE ] && [ -z "$(squeue -h -j "$1" -o %T 2>/dev/null)" ] &&
			return 0
		sleep 0.5
	done
	return 1
}

# run PRIORITY: one cluster, the three jobs, the checks.
run()
{
	local prio=$1 name=${1#priority/} j1 j2 j3 reason raw mins
	dirs+=("$(tap_rundir "t0019-$name")")
	hc_init "${dirs[-1]}" || return 1
	HC_ACCOUNTING=1 HC_ACCOUNTS="capped:1 billed:1" HC_NODES="n1 2 2000" \
	HC_PRIORITY=$prio HC_SELECT=select/cons_tres HC_JOBSUBMIT=none \
	HC_EXTRA_CONF=$'AccountingStorageEnforce=associations,limits\nPriorityCalcPeriod=1\nSlurmctldParameters=enable_configless\nPartitionName=billed Nodes=ALL TRESBillingWeights=CPU=2 State=UP' \
	HC_HMRF_CONF=$'Period=1s' \
		hc_start || { tap_ok "$name: a cluster with slurmdbd started" 1; hc_stop; return 1; }
	tap_ok "$name: a cluster with slurmdbd started" 0
	sacctmgr -i -Q modify account capped set GrpTRESMins=cpu=2 >/dev/null
	tap_ok "$name: sacctmgr set capped's GrpTRESMins=cpu=2" $?
	sleep 2 # slurmctld hears of it from slurmdbd
	j1=$(sbatch --parsable -A capped -n 2 -t 1 -o /dev/null --wrap "sleep $RUN")
	wait_state "$j1" GONE $((RUN + 30))
	tap_ok "$name: job 1 (2 CPUs, ${RUN} s) ran and ended" $?
	j2=$(sbatch --parsable -A capped -n 2 -t 1 -o /dev/null --wrap "sleep $RUN")
	wait_state "$j2" GONE $((RUN + 30))
	tap_ok "$name: job 2 started below the limit, ran and ended" $?
	j3=$(sbatch --parsable -A capped -n 1 -t 1 -o /dev/null --wrap "sleep 1")
	sleep 5
	reason=$(squeue -h -j "$j3" -o "%T %r" 2>/dev/null)
	tap_diag "$name: job 3: $reason"
	[ "$reason" = "PENDING AssocGrpCPUMinutesLimit" ]
	tap_ok "$name: job 3 is held by the limit ($reason)" $?
	raw=$(sshare -h -n -P -A capped -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /capped/ { print $2; exit }')
	tap_diag "$name: sshare -l: $(sshare -l -P -A capped 2>&1 | tr '\n' ' ')"
	echo "t0019 $name: job 3 '$reason', RawUsage $raw" >&2
	awk -v r="${raw:-0}" -v want=$((2 * 2 * RUN)) \
		'BEGIN { exit !(r >= 0.9 * want && r <= 1.3 * want) }'
	tap_ok "$name: sshare's RawUsage of capped is what ran ($raw CPU-s; $((4 * RUN)) ran)" $?
	scancel "$j3" 2>/dev/null
	billed "$name"
	[ "$name" = hmrf ] && login "$raw"
	hc_stop
}

# billed NAME: UsageFactor and TRESBillingWeights in the raw usage (see
# the top).
billed()
{
	local name=$1 j raw qraw want=80
	sacctmgr -i -Q add qos double UsageFactor=2 >/dev/null &&
		sacctmgr -i -Q modify user root where account=billed set qos+=double >/dev/null
	tap_ok "$name: sacctmgr made QOS double (UsageFactor=2) billed's" $?
	sleep 2 # slurmctld hears of it from slurmdbd
	j=$(sbatch --parsable -A billed -q double -p billed -n 2 -t 1 -o /dev/null --wrap "sleep 10")
	wait_state "$j" GONE 60
	tap_ok "$name: billed's job ran and ended" $?
	sleep 2 # one recalculation after its end
	raw=$(sshare -h -n -P -A billed -o Account,RawUsage 2>/dev/null |
		awk -F'|' '$1 ~ /billed/ { print $2; exit }')
	qraw=$(scontrol show assoc_mgr flags=qos qos=double 2>/dev/null |
		grep -o 'UsageRaw=[0-9.]*' | head -1 | cut -d= -f2)
	echo "t0019 $name: billed RawUsage $raw, QOS double UsageRaw $qraw" >&2
	awk -v r="${raw:-0}" -v w=$want 'BEGIN { exit !(r >= 0.9 * w && r <= 1.3 * w) }'
	tap_ok "$name: billed's RawUsage counts UsageFactor and billing ($raw; $want for 10 s)" $?
	awk -v r="${qraw:-0}" -v w=$want 'BEGIN { exit !(r >= 0.9 * w && r <= 1.3 * w) }'
	tap_ok "$name: so does QOS double's raw usage ($qraw)" $?
}

# login RAW: sfair from a "login node" (see the top), against sshare's RAW.
login()
{
	local conf=${dirs[-1]}/login/slurm.conf out err rc fs sfs width
	local sfair=$HORAE_BINDIR/sfair
	mkdir -p "${conf%/*}"
	sed 's|^StateSaveLocation=.*|StateSaveLocation=/nonexistent/horae-t0019|' \
		"$HC_CONF" >"$conf"
	out=$(SLURM_CONF=$conf "$sfair" -P -n -A capped \
		-o Account,RawUsage,FairShare 2>"$conf.err")
	rc=$?
	err=$(cat "$conf.err")
	tap_diag "login: sfair: $out / $err"
	[ $rc = 0 ] && [ "${out%%|*}" = capped ]
	tap_ok "login: sfair without StateSaveLocation shows capped from slurmctld (exit $rc: $out)" $?
	grep -q "StateSaveLocation is not on this host.*slurmctld reports" \
		<<<"$err"
	tap_ok "login: sfair says where its figures come from and what is left out" $?
	awk -F'|' -v r="${1:-0}" '{ exit !(r > 0 && $2 >= 0.99 * r && $2 <= 1.01 * r) }' <<<"$out"
	tap_ok "login: sfair's RawUsage is sshare's (sfair $(cut -d'|' -f2 <<<"$out"), sshare $1)" $?
	# sshare prints FairShare on user rows only: compare capped|root's.
	fs=$(SLURM_CONF=$conf "$sfair" -P -n -a -A capped \
		-o Account,User,FairShare 2>/dev/null |
		awk -F'|' '$1 ~ /capped/ && $2 == "root" { print $3; exit }')
	sfs=$(sshare -n -P -a -A capped -o Account,User,FairShare 2>/dev/null |
		awk -F'|' '$1 ~ /capped/ && $2 == "root" { print $3; exit }')
	awk -v a="$fs" -v b="$sfs" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d < 1e-6 && d > -1e-6) }'
	tap_ok "login: sfair's FairShare of capped|root is sshare's (H-MRF's standing: $fs, $sfs)" $?
	out=$(SLURM_CONF=$conf "$sfair" -P -n -a -o Account,User 2>&1)
	grep -qx "capped|root" <<<"$out" && grep -qx "capped|" <<<"$out"
	tap_ok "login: -a adds the user rows (capped|root) to the account's ($(tr '\n' ' ' <<<"$out"))" $?
	out=$(SLURM_CONF=$conf "$sfair" -P -n -u root -o Account,User 2>&1)
	grep -qx "capped|root" <<<"$out" && grep -qx "capped|" <<<"$out"
	tap_ok "login: -u root adds root's rows ($(tr '\n' ' ' <<<"$out"))" $?
	out=$(SLURM_CONF=$conf "$sfair" -P -n -u nobody -o Account,User 2>&1)
	! grep -q "|root" <<<"$out" && grep -qx "capped|" <<<"$out"
	tap_ok "login: -u nobody shows no root rows ($(tr '\n' ' ' <<<"$out"))" $?
	width=$(SLURM_CONF=$conf "$sfair" -a 2>/dev/null | awk '{ if (length > w) w = length } END { print w + 0 }')
	[ "$width" -gt 0 ] && [ "$width" -le 100 ]
	tap_ok "login: the default table fits 100 columns ($width)" $?
	out=$(SLURM_CONF=$conf "$sfair" --json 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["meta"]["source"], [a["account"] for a in d["associations"]])')
	[[ "$out" == "slurmctld ["*"'capped'"* ]]
	tap_ok "login: --json says the source is slurmctld ($out)" $?
	out=$(SLURM_CONF=$conf "$sfair" -P -n -M "$HC_CLUSTER" -A capped -o Account 2>&1)
	[ "$out" = capped ]
	tap_ok "login: -M $HC_CLUSTER asks that cluster's slurmctld ($out)" $?
	out=$(SLURM_CONF=$conf "$sfair" -M nosuch 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "nosuch" <<<"$out"
	tap_ok "login: -M nosuch exits 2 naming it (exit $rc: $(tr '\n' ' ' <<<"$out"))" $?
	out=$(SLURM_CONF=$conf "$sfair" -D 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "not on this host" <<<"$out"
	tap_ok "login: -D exits 2: Justice's state is in the files (exit $rc)" $?
	out=$(SLURM_CONF=$conf "$sfair" -o Account,Beta 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "Beta is in the plugins' files" <<<"$out"
	tap_ok "login: -o Beta exits 2 saying Beta needs the files (exit $rc)" $?
	out=$("$sfair" --ctld -P -n -A capped -o Account,RawUsage 2>&1)
	[ "${out%%|*}" = capped ]
	tap_ok "--ctld on the controller asks slurmctld too ($out)" $?
	configless_checks "$1"
}

# configless SERVER CMD...: CMD on a "host" with no slurm.conf (see the top).
configless()
{
	local server=$1
	shift
	env -u SLURM_CONF SLURM_CONF_SERVER="$server" unshare -m -- sh -c '
		if [ -d /etc/slurm ]; then mount -t tmpfs none /etc/slurm || exit 97; fi
		mount -t tmpfs none /run && mkdir /run/munge &&
			mount --bind "$1" /run/munge || exit 97
		shift
		exec "$@"' sh "$HC_RUNDIR/munge" "$@"
}

# configless_checks RAW: sfair configless, against sshare's RAW.
configless_checks()
{
	local sfair=$HORAE_BINDIR/sfair ctld=127.0.0.1:$HC_CTLD_PORT out rc
	out=$(configless "$ctld" "$sfair" -P -n -A capped -o Account,Beta 2>&1)
	rc=$?
	tap_diag "configless: sfair: $out"
	[ $rc = 0 ] && grep -Eq '^capped\|[0-9.]+$' <<<"$out"
	tap_ok "configless: sfair learns StateSaveLocation from slurmctld and reads Beta in the plugins' files (exit $rc: $out)" $?
	out=$(configless "$ctld" "$sfair" --ctld -P -n -A capped -o Account,RawUsage 2>&1)
	awk -F'|' -v r="${1:-0}" '$1 == "capped" { ok = r > 0 && $2 >= 0.99 * r && $2 <= 1.01 * r } END { exit !ok }' <<<"$out"
	tap_ok "configless: --ctld shows sshare's RawUsage (sfair $out, sshare $1)" $?
	out=$(configless "$ctld" "$sfair" --check-config 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "no slurm.conf on this host (configless).*--check-config=FILE" <<<"$out"
	tap_ok "configless: --check-config exits 2 asking for a file (exit $rc: $out)" $?
	out=$(configless 127.0.0.1:1 "$sfair" 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "SLURM_CONF_SERVER" <<<"$out"
	tap_ok "configless: no slurmctld at SLURM_CONF_SERVER exits 2 saying so (exit $rc)" $? "$out"
}

run priority/multifactor
run priority/hmrf
tap_done
