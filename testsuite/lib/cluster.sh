# SPDX-License-Identifier: GPL-2.0-or-later
# cluster.sh - start and stop a real Slurm cluster on this machine: one
# munged on its own socket, one slurmctld and N `slurmd -N name` daemons,
# all on loopback, all files under one run directory.  Tests, the demo and
# the benchmarks source this file; testsuite/horae-cluster is its CLI.
#
# Use:
#   . testsuite/lib/cluster.sh
#   hc_init /tmp/horae-mytest          # run directory; derives ports from it
#   HC_NODES=$'n1 4 4000 gen1\nn2 8 8000 gen2'   # name cpus memMB features
#   HC_PROFILE=horae                   # or "stock" for Slurm's own plugins
#   hc_start || exit 1                 # writes slurm.conf, waits for idle
#   trap hc_stop EXIT                  # always tear down (also on ^C)
#
# Settings (set them before hc_start):
#   HC_NODES        node lines "NAME CPUS MEM_MB [FEATURES]"; default: 4
#                   nodes of mixed sizes and features gen1..gen4
#   HC_PROFILE      horae (default): priority/hmrf, select/eunomia and
#                   job_submit/justice; stock: priority/multifactor,
#                   select/cons_tres, no job_submit plugin
#   HC_PRIORITY, HC_SELECT, HC_JOBSUBMIT   override one plugin of the profile
#                   (HC_JOBSUBMIT=none for no job_submit plugin)
#   HC_PLUGINDIR    directory of our built plugins (default $HORAE_PLUGINDIR)
#   HC_EXTRA_CONF   lines appended to slurm.conf
#   HC_HMRF_CONF    content of hmrf.conf (priority/hmrf's settings); unset:
#                   no file, the plugin's defaults
#   HC_EUNOMIA_CONF content of eunomia.conf (select/eunomia's settings)
#   HC_JUSTICE_CONF content of justice.conf (job_submit/justice's settings)
#   HC_STATE_FROM   a directory whose files hc_start puts in the
#                   StateSaveLocation before slurmctld starts (a saved
#                   state to start from)
#   HC_ACCOUNTING   1: also run MariaDB and slurmdbd (on loopback, files
#                   under the run directory) and account through them
#   HC_ACCOUNTS     with HC_ACCOUNTING, the accounts to create with
#                   sacctmgr: "name:fairshare ..." (user root joins each)
#   HC_DEBUG        SlurmctldDebug (default: info)
#   HC_IDLE_WAIT    seconds hc_start waits for every node to be idle
#                   (default 60; hundreds of slurmd take longer)
#   HC_KEEP         1: keep a test's run directories (logs, state) even
#                   when every check passed
#   HC_BACKUP       1: a primary and a backup slurmctld (SlurmctldHost
#                   horae-ctl-a at 127.0.0.1 and horae-ctl-b at 127.0.0.2,
#                   SlurmctldTimeout=5, one StateSaveLocation).  Each runs
#                   in a UTS and mount namespace of its own: its host name,
#                   an /etc/hosts that names both, and its own directory
#                   RUNDIR/ctld-a or ctld-b (pid file, slurmctld.log) seen
#                   at RUNDIR/ctld; CommunicationParameters=NoCtldInAddrAny
#                   makes each listen on its own address.  Start the backup
#                   with hc_start_backup, stop either with hc_kill_ctld.
#   HC_CTLD_DETACHED 1: slurmctld detaches (no -D), as under systemd; its
#                   PID is followed through its pid file
#
# Every daemon is started in its own session and its PID recorded under
# $HC_RUNDIR/pids; hc_stop stops those PIDs, then any process that still
# holds a file or its working directory under $HC_RUNDIR (slurmstepd, job
# processes), and nothing else.  Two clusters with different run
# directories use different ports, sockets and files.

HC_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HC_TESTSUITE=${HORAE_TESTSUITE:-$(dirname "$HC_LIB_DIR")}
HC_SBIN=${HC_SBIN:-/usr/sbin}
HC_STOCK_PLUGINDIR=${HC_STOCK_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
# munge is Debian's whichever Slurm runs.
HC_MUNGED=${HC_MUNGED:-/usr/sbin/munged}

hc_log() { echo "# cluster: $*" >&2; }

# A test's run directories go when every check passed, unless HC_KEEP=1.
_hc_may_remove() { [ "$TAP_FAILED" = 0 ] && [ "${HC_KEEP:-0}" != 1 ]; }

# hc_test_setup NAME: for an integration test with one cluster (tap.sh
# sourced): skip unless root with our plugins built, make a run directory
# HC_TEST_DIR, and on exit tear the cluster down and, when every check
# passed, remove the directory.
hc_test_setup()
{
	tap_require_root
	[ -n "${HORAE_PLUGINDIR:-}" ] ||
		tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"
	HC_TEST_DIR=$(tap_rundir "$1")
	hc_init "$HC_TEST_DIR" || exit 1
	trap 'hc_stop; _hc_may_remove && rm -rf "$HC_TEST_DIR"' EXIT
	trap 'exit 130' INT TERM
}

# hc_group_setup NAME...: for a test comparing clusters side by side
# (tap.sh sourced): skip unless root with our plugins built, make one run
# directory per NAME in the array HC_GROUP (same order), and on exit tear
# every cluster down and, when every check passed, remove the
# directories.  Start each with hc_init "${HC_GROUP[i]}" and hc_start.
hc_group_setup()
{
	local name

	tap_require_root
	[ -n "${HORAE_PLUGINDIR:-}" ] ||
		tap_skip_all "HORAE_PLUGINDIR not set (run through make check)"
	HC_GROUP=()
	for name in "$@"; do
		HC_GROUP+=("$(tap_rundir "$name")")
	done
	trap '_hc_group_stop; _hc_may_remove && rm -rf "${HC_GROUP[@]}"' EXIT
	trap 'exit 130' INT TERM
}

_hc_group_stop()
{
	local d
	for d in "${HC_GROUP[@]}"; do
		hc_init "$d" >/dev/null 2>&1 && hc_stop
	done
}

# hc_pair_setup NAME_A NAME_B: hc_group_setup for two, as HC_PAIR_A and
# HC_PAIR_B.
hc_pair_setup()
{
	hc_group_setup "$1" "$2"
	HC_PAIR_A=${HC_GROUP[0]}
	HC_PAIR_B=${HC_GROUP[1]}
}

# hc_init RUNDIR: choose the run directory and the ports; export SLURM_CONF.
hc_init()
{
	local dir=$1

	[ -n "$dir" ] || { hc_log "hc_init: no run directory"; return 1; }
	mkdir -p "$dir" || return 1
	HC_RUNDIR=$(cd "$dir" && pwd)
	# munged runs as user munge and must reach its directory inside.
	chmod 0755 "$HC_RUNDIR" || return 1
	# munged's socket path must fit in sun_path (108 bytes).
	if [ ${#HC_RUNDIR} -gt 80 ]; then
		hc_log "run directory path too long for a socket: $HC_RUNDIR"
		return 1
	fi
	HC_CONF=$HC_RUNDIR/slurm.conf
	HC_CLUSTER=h$(printf '%s' "$HC_RUNDIR" | cksum | cut -d' ' -f1)
	HC_CLUSTER=${HC_CLUSTER:0:10}
	export SLURM_CONF=$HC_CONF
	mkdir -p "$HC_RUNDIR/pids"
	# A previous run in the same directory that was killed outright may
	# have left daemons behind: they are ours to stop.
	_hc_stop_recorded
	return 0
}

_hc_default_nodes()
{
	printf '%s\n' "n1 4 4000 gen1" "n2 4 8000 gen2" "n3 8 8000 gen3" \
		"n4 8 16000 gen4"
}

_hc_nodes() { printf '%s\n' "${HC_NODES:-$(_hc_default_nodes)}" | grep -v '^[[:space:]]*$'; }

_hc_port_free()
{
	! ss -Htln "( sport = :$1 )" 2>/dev/null | grep -q .
}

# The offset from SlurmctldPort of node I's port (1..N): I, past the two
# the database and slurmdbd take (98 and 99) from the 98th node on.
_hc_node_offset() { if [ "$1" -lt 98 ]; then echo "$1"; else echo $(($1 + 2)); fi; }

# Port slots are claimed here (a file per slot naming the run directory)
# between the choice and the daemons' bind: two clusters that start at the
# same moment (t0037's two sides, two suites side by side) would otherwise
# both find a slot free and the later daemon could not bind.
HC_PORT_CLAIMS=${HC_PORT_CLAIMS:-/tmp/horae-port-claims}

# _hc_slot_taken P SPAN: ports P..P+SPAN-1 overlap those another cluster
# claimed and may still bind (its run directory exists and the claim is
# younger than 10 minutes).  A claim holds "RUNDIR SPAN".
_hc_slot_taken()
{
	local p=$1 span=$2 f q owner qspan now
	now=$(date +%s)
	for f in "$HC_PORT_CLAIMS"/[0-9]*; do
		[ -f "$f" ] || continue
		q=${f##*/}
		read -r owner qspan <"$f" 2>/dev/null || continue
		[ "$owner" != "$HC_RUNDIR" ] && [ -d "$owner" ] || continue
		[ $((now - $(stat -c %Y "$f" 2>/dev/null || echo 0))) -lt 600 ] ||
			continue
		[ $((q + ${qspan:-100})) -le "$p" ] ||
			[ $((p + span)) -le "$q" ] || return 0
	done
	return 1
}

# _hc_release_ports: drop this run directory's claims.
_hc_release_ports()
{
	local f
	[ -d "$HC_PORT_CLAIMS" ] || return 0
	for f in "$HC_PORT_CLAIMS"/[0-9]*; do
		[ -f "$f" ] && [ "$(cut -d' ' -f1 "$f" 2>/dev/null)" = \
			"$HC_RUNDIR" ] && rm -f "$f"
	done
	return 0
}

# Ports derive from the run directory; the first slot that no other
# cluster claimed and whose ports are all free wins, so two clusters never
# share a port.  Slots lie below the kernel's ephemeral range, where no
# outgoing connection can take them meanwhile; a cluster of more than 97
# nodes spans more than one slot.
_hc_pick_ports()
{
	local fd rc
	mkdir -p "$HC_PORT_CLAIMS" && chmod 1777 "$HC_PORT_CLAIMS" ||
		{ hc_log "cannot create $HC_PORT_CLAIMS"; return 1; }
	exec {fd}>>"$HC_PORT_CLAIMS/lock" ||
		{ hc_log "cannot open $HC_PORT_CLAIMS/lock"; return 1; }
	flock "$fd"
	_hc_release_ports
	_hc_pick_ports_locked
	rc=$?
	[ $rc = 0 ] &&
		echo "$HC_RUNDIR $HC_PORT_SPAN" >"$HC_PORT_CLAIMS/$HC_CTLD_PORT"
	exec {fd}>&-
	return $rc
}

_hc_pick_ports_locked()
{
	local n h slot p ok i j k eph slots span offsets=
	n=$(_hc_nodes | wc -l)
	for ((j = 1; j <= n; j++)); do offsets+=" $(_hc_node_offset "$j")"; done
	span=$(($(_hc_node_offset "$n") + 1))
	[ "$span" -ge 100 ] || span=100
	h=$(printf '%s' "$HC_RUNDIR" | cksum | cut -d' ' -f1)
	read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
	slots=$(((eph - 10000 - span) / 100 + 1))
	[ "$slots" -ge 20 ] || { hc_log "ephemeral ports start at $eph: no room below for $n nodes"; return 1; }
	for ((i = 0; i < slots; i++)); do
		slot=$(((h + i) % slots))
		p=$((10000 + slot * 100))
		_hc_slot_taken "$p" "$span" && continue
		ok=1
		for k in 0 $offsets 98 99; do
			_hc_port_free $((p + k)) || { ok=0; break; }
		done
		if [ $ok = 1 ]; then
			HC_CTLD_PORT=$p HC_PORT_SPAN=$span
			return 0
		fi
	done
	hc_log "no free port range for $n nodes"
	return 1
}

_hc_profile()
{
	case "${HC_PROFILE:-horae}" in
	horae)
		_p_prio=priority/hmrf _p_sel=select/eunomia
		_p_js=justice ;;
	stock)
		_p_prio=priority/multifactor _p_sel=select/cons_tres _p_js= ;;
	*)
		hc_log "unknown HC_PROFILE '$HC_PROFILE' (horae or stock)"
		return 1 ;;
	esac
	_p_prio=${HC_PRIORITY:-$_p_prio}
	_p_sel=${HC_SELECT:-$_p_sel}
	_p_js=${HC_JOBSUBMIT:-$_p_js}
	[ "$_p_js" = none ] && _p_js=
	return 0
}

# hc_write_conf: write $HC_CONF from the template and the settings.
hc_write_conf()
{
	local plugindir=$HC_STOCK_PLUGINDIR ours=${HC_PLUGINDIR:-${HORAE_PLUGINDIR:-}}
	local acct hosts ctld_dir timeout
	local i=0 name cpus mem feat line

	_hc_profile || return 1
	_hc_pick_ports || return 1
	if [ -n "$ours" ]; then
		[ -d "$ours" ] || { hc_log "plugin dir $ours missing"; return 1; }
		plugindir=$plugindir:$ours
	fi
	if [ "${HC_ACCOUNTING:-0}" = 1 ]; then
		acct="AccountingStorageType=accounting_storage/slurmdbd\\nAccountingStorageHost=127.0.0.1\\nAccountingStoragePort=$((HC_CTLD_PORT + 99))\\nAccountingStoragePass=$HC_RUNDIR/munge/munge.socket.2"
	else
		acct="AccountingStorageType=accounting_storage/none"
	fi
	if [ "${HC_BACKUP:-0}" = 1 ]; then
		hosts="SlurmctldHost=horae-ctl-a(127.0.0.1)\\nSlurmctldHost=horae-ctl-b(127.0.0.2)\\nCommunicationParameters=NoCtldInAddrAny"
		ctld_dir=$HC_RUNDIR/ctld timeout=5
		mkdir -p "$HC_RUNDIR/ctld" "$HC_RUNDIR/ctld-a" "$HC_RUNDIR/ctld-b"
		printf '127.0.0.1\tlocalhost horae-ctl-a\n127.0.0.2\thorae-ctl-b\n' \
			>"$HC_RUNDIR/ctld/hosts"
	else
		hosts="SlurmctldHost=$(hostname -s)(127.0.0.1)"
		ctld_dir=$HC_RUNDIR/log timeout=60
	fi
	sed -e "s|@RUNDIR@|$HC_RUNDIR|g" -e "s|@CLUSTER@|$HC_CLUSTER|g" \
	    -e "s|@ACCOUNTING@|$acct|" -e "s|@CTLD_HOSTS@|$hosts|" \
	    -e "s|@CTLD_DIR@|$ctld_dir|g" -e "s|@CTLD_TIMEOUT@|$timeout|" \
	    -e "s|@CTLD_PORT@|$HC_CTLD_PORT|g" \
	    -e "s|@PLUGINDIR@|$plugindir|g" -e "s|@SELECT@|$_p_sel|g" \
	    -e "s|@PRIORITY@|$_p_prio|g" -e "s|@DEBUG@|${HC_DEBUG:-info}|g" \
	    "$HC_TESTSUITE/etc/slurm.conf.in" >"$HC_CONF.new" || return 1
	{
		[ -n "$_p_js" ] && echo "JobSubmitPlugins=$_p_js"
		while read -r name cpus mem feat; do
			i=$((i + 1))
			line="NodeName=$name NodeAddr=127.0.0.1 NodeHostname=localhost"
			line+=" Port=$((HC_CTLD_PORT + $(_hc_node_offset "$i"))) CPUs=$cpus RealMemory=$mem"
			[ -n "$feat" ] && line+=" Features=$feat"
			echo "$line State=UNKNOWN"
		done < <(_hc_nodes)
		echo "PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
		[ -n "${HC_EXTRA_CONF:-}" ] && printf '%s\n' "$HC_EXTRA_CONF"
	} >>"$HC_CONF.new"
	mv "$HC_CONF.new" "$HC_CONF"
	rm -f "$HC_RUNDIR/hmrf.conf" "$HC_RUNDIR/eunomia.conf" \
		"$HC_RUNDIR/justice.conf"
	if [ -n "${HC_HMRF_CONF:-}" ]; then
		printf '%s\n' "$HC_HMRF_CONF" >"$HC_RUNDIR/hmrf.conf"
	fi
	if [ -n "${HC_EUNOMIA_CONF:-}" ]; then
		printf '%s\n' "$HC_EUNOMIA_CONF" >"$HC_RUNDIR/eunomia.conf"
	fi
	if [ -n "${HC_JUSTICE_CONF:-}" ]; then
		printf '%s\n' "$HC_JUSTICE_CONF" >"$HC_RUNDIR/justice.conf"
	fi
}

# The command line of a process, NULs as spaces; empty if it is gone.
_hc_cmdline() { { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null; }

# True when PID is alive and its command line names our run directory (or,
# for slurmdbd, which takes no config path, its environment names our
# slurm.conf), so a recycled PID is never signalled.
_hc_ours()
{
	[ -n "$1" ] || return 1
	_hc_cmdline "$1" | grep -qF "$HC_RUNDIR" ||
		{ tr '\0' '\n' <"/proc/$1/environ"; } 2>/dev/null |
		grep -qxF "SLURM_CONF=$HC_CONF"
}

_hc_record() { echo "$2" >"$HC_RUNDIR/pids/$1.pid"; }

_hc_start_munge()
{
	local d=$HC_RUNDIR/munge pid
	mkdir -p "$d"
	if [ ! -s "$d/munge.key" ]; then
		dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2>/dev/null
	fi
	chown -R munge:munge "$d"
	chmod 0711 "$d"
	chmod 0400 "$d/munge.key"
	runuser -u munge -- "$HC_MUNGED" --socket="$d/munge.socket.2" \
		--key-file="$d/munge.key" --pid-file="$d/munged.pid" \
		--log-file="$d/munged.log" --seed-file="$d/munged.seed" \
		--num-threads=4 || { hc_log "munged failed:"; cat "$d/munged.log" >&2; return 1; }
	for _ in $(seq 50); do
		pid=$(cat "$d/munged.pid" 2>/dev/null)
		[ -n "$pid" ] && [ -S "$d/munge.socket.2" ] && break
		sleep 0.1
	done
	_hc_ours "$pid" || { hc_log "munged did not start"; return 1; }
	_hc_record munged "$pid"
}

# MariaDB in RUNDIR/db on port CTLD+98, with a user for slurmdbd.  Its
# temporary files go to RUNDIR/tmp, not /tmp: a mariadbd that starts
# removes every "#sql*" file in its tmpdir, and so would break another
# cluster's mariadb-install-db running at the same moment.
_hc_start_mariadb()
{
	local d=$HC_RUNDIR/db port=$((HC_CTLD_PORT + 98)) pid
	mkdir -p "$HC_RUNDIR/tmp"
	if [ ! -d "$d/mysql" ]; then
		mkdir -p "$d"
		mariadb-install-db --no-defaults --user=root --datadir="$d" \
			--tmpdir="$HC_RUNDIR/tmp" \
			--auth-root-authentication-method=socket \
			>"$HC_RUNDIR/log/mariadb-install.log" 2>&1 ||
			{ hc_log "mariadb-install-db failed: $(grep -m1 ERROR "$HC_RUNDIR/log/mariadb-install.log")"; return 1; }
	fi
	setsid /usr/sbin/mariadbd --no-defaults --user=root --datadir="$d" \
		--tmpdir="$HC_RUNDIR/tmp" \
		--socket="$HC_RUNDIR/mysql.sock" --port="$port" \
		--bind-address=127.0.0.1 --pid-file="$HC_RUNDIR/mariadb.pid" \
		--log-error="$HC_RUNDIR/log/mariadb.log" --skip-name-resolve \
		--innodb-buffer-pool-size=64M </dev/null >/dev/null 2>&1 &
	_hc_record mariadb $!
	for _ in $(seq 100); do
		[ -S "$HC_RUNDIR/mysql.sock" ] && break
		sleep 0.1
	done
	mysql --no-defaults -S "$HC_RUNDIR/mysql.sock" -u root -e \
		"CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'horae';
		 GRANT ALL ON *.* TO 'slurm'@'127.0.0.1';" ||
		{ hc_log "MariaDB did not start: $(tail -3 "$HC_RUNDIR/log/mariadb.log")"; return 1; }
}

# slurmdbd on port CTLD+99 over that MariaDB; its conf beside slurm.conf.
_hc_start_slurmdbd()
{
	local conf=$HC_RUNDIR/slurmdbd.conf port=$((HC_CTLD_PORT + 99))
	cat >"$conf" <<DBD
AuthType=auth/munge
AuthInfo=socket=$HC_RUNDIR/munge/munge.socket.2
DbdAddr=127.0.0.1
DbdHost=$(hostname -s)
DbdPort=$port
SlurmUser=root
LogFile=$HC_RUNDIR/log/slurmdbd.log
PidFile=$HC_RUNDIR/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((HC_CTLD_PORT + 98))
StorageUser=slurm
StoragePass=horae
StorageLoc=slurm_acct_db
DBD
	chmod 600 "$conf"
	_hc_daemon slurmdbd "$HC_SBIN/slurmdbd" -D
	for _ in $(seq 150); do
		_hc_port_free "$port" || return 0
		_hc_ours "$(cat "$HC_RUNDIR/pids/slurmdbd.pid")" ||
			{ hc_log "slurmdbd died: $(tail -3 "$HC_RUNDIR/log/slurmdbd.log")"; return 1; }
		sleep 0.2
	done
	hc_log "slurmdbd did not listen on $port"
	return 1
}

# The cluster, its accounts (HC_ACCOUNTS "name:fairshare ..."), and root in
# each of them.
_hc_make_accounts()
{
	local a names=
	sacctmgr -i -Q add cluster "$HC_CLUSTER" >/dev/null ||
		{ hc_log "sacctmgr add cluster failed"; return 1; }
	# One sacctmgr call per fairshare value, not per account (a
	# benchmark makes 1,000 of them).
	local fs list
	for fs in $(printf '%s\n' ${HC_ACCOUNTS:-} | sed 's/.*://' | sort -u); do
		list=$(printf '%s\n' ${HC_ACCOUNTS:-} | awk -F: -v f="$fs" \
			'$2 == f { printf "%s%s", (n++ ? "," : ""), $1 }')
		sacctmgr -i -Q add account "$list" cluster="$HC_CLUSTER" \
			fairshare="$fs" >/dev/null ||
			{ hc_log "sacctmgr add account $list failed"; return 1; }
	done
	for a in ${HC_ACCOUNTS:-}; do
		names+=${names:+,}${a%%:*}
	done
	[ -z "$names" ] || sacctmgr -i -Q add user root account="$names" \
		cluster="$HC_CLUSTER" >/dev/null ||
		{ hc_log "sacctmgr add user failed"; return 1; }
}

# _hc_daemon NAME CMD...: start CMD in its own session, record its PID.
_hc_daemon()
{
	local name=$1
	shift
	setsid "$@" </dev/null >>"$HC_RUNDIR/log/$name.out" 2>&1 &
	_hc_record "$name" $!
}

# hc_start_slurmctld [ARGS]: start slurmctld (with HC_BACKUP=1, the
# primary) in the foreground of its own session, ARGS added.  With
# HC_CTLD_DETACHED=1 it detaches as a site's does, and its PID is the one
# in its own SlurmctldPidFile, whichever process that is (from 23.11 a
# reconfigure hands over to a new slurmctld; a detached one falls back to
# the old when the new cannot start, one in the foreground dies).
hc_start_slurmctld()
{
	if [ "${HC_BACKUP:-0}" = 1 ]; then
		_hc_ctld_in_ns a slurmctld "$@"
		return
	fi
	if [ "${HC_CTLD_DETACHED:-0}" = 1 ]; then
		rm -f "$HC_RUNDIR/log/slurmctld.pid"
		ln -sfn "$HC_RUNDIR/log/slurmctld.pid" \
			"$HC_RUNDIR/pids/slurmctld.pid"
		setsid "$HC_SBIN/slurmctld" -f "$HC_CONF" "$@" </dev/null \
			>>"$HC_RUNDIR/log/slurmctld.out" 2>&1
		return
	fi
	_hc_daemon slurmctld "$HC_SBIN/slurmctld" -D -f "$HC_CONF" "$@"
}

# hc_start_backup [ARGS]: with HC_BACKUP=1, start the backup slurmctld.
hc_start_backup() { _hc_ctld_in_ns b slurmctld-b "$@"; }

# _hc_ctld_in_ns a|b NAME [ARGS]: slurmctld as host horae-ctl-a or -b, in
# new UTS and mount namespaces (host name, /etc/hosts and RUNDIR/ctld its
# own; nothing else of the machine changes); its PID recorded as NAME.
_hc_ctld_in_ns()
{
	local which=$1 name=$2
	shift 2
	# shellcheck disable=SC2016
	_hc_daemon "$name" unshare --uts --mount --propagation private -- \
		sh -c 'hostname "$1" && mount --bind "$2/ctld/hosts" /etc/hosts &&
			mount --bind "$2/ctld-$3" "$2/ctld" && shift 3 &&
			exec "$@"' sh "horae-ctl-$which" "$HC_RUNDIR" "$which" \
		"$HC_SBIN/slurmctld" -D -f "$HC_CONF" "$@"
}

hc_start_slurmd()
{
	local name
	for name in $(_hc_nodes | awk '{print $1}'); do
		mkdir -p "$HC_RUNDIR/spool/$name"
		_hc_daemon "slurmd.$name" "$HC_SBIN/slurmd" -D -N "$name" \
			-f "$HC_CONF"
	done
}

# hc_stop_slurmd: stop the recorded slurmd daemons (SIGTERM; their jobs'
# slurmstepd processes keep running, as in a service restart).
hc_stop_slurmd()
{
	local f pids=()
	for f in "$HC_RUNDIR"/pids/slurmd.*.pid; do
		[ -e "$f" ] || continue
		_hc_ours "$(cat "$f")" && pids+=("$(cat "$f")")
		rm -f "$f"
	done
	_hc_term 15 "${pids[@]}"
}

# hc_start: write slurm.conf, start everything from empty state (no jobs,
# no saved plugin state), wait until nodes are idle.  On failure it stops
# what it started, so a failed start leaves nothing running.  To restart
# slurmctld on its saved state, use hc_kill_ctld and hc_start_slurmctld.
hc_start()
{
	[ -n "$HC_RUNDIR" ] || { hc_log "call hc_init first"; return 1; }
	rm -rf "$HC_RUNDIR"/{state,spool}
	mkdir -p "$HC_RUNDIR"/{log,state,spool}
	if [ -n "${HC_STATE_FROM:-}" ]; then
		cp -rp "$HC_STATE_FROM"/. "$HC_RUNDIR/state/" ||
			{ hc_log "cannot copy $HC_STATE_FROM"; return 1; }
	fi
	hc_write_conf || return 1
	if ! _hc_start_all; then
		hc_stop
		return 1
	fi
	hc_log "up: $(_hc_nodes | wc -l) nodes, slurmctld on port $HC_CTLD_PORT, conf $HC_CONF"
}

_hc_start_all()
{
	_hc_start_munge || return 1
	if [ "${HC_ACCOUNTING:-0}" = 1 ]; then
		_hc_start_mariadb && _hc_start_slurmdbd && _hc_make_accounts ||
			return 1
	fi
	hc_start_slurmctld
	# slurmd daemons that cannot register linger ~10 s on SIGTERM: start
	# them only once slurmctld answers, and fail fast if it died.
	if ! hc_wait_ctld 30; then
		hc_log "slurmctld in $HC_RUNDIR did not start; its log ends:"
		tail -n 15 "$(hc_ctld_log)" >&2 2>/dev/null
		return 1
	fi
	hc_start_slurmd
	if ! hc_wait_idle "${HC_IDLE_WAIT:-60}"; then
		hc_log "cluster in $HC_RUNDIR did not come up; slurmctld log:"
		tail -n 30 "$(hc_ctld_log)" >&2 2>/dev/null
		tail -n 10 "$HC_RUNDIR/log/slurmctld.out" >&2 2>/dev/null
		return 1
	fi
}

# hc_wait_ctld SECONDS: until slurmctld answers a ping; false at once if
# it exits.
hc_wait_ctld()
{
	local deadline=$((SECONDS + ${1:-30})) pid
	pid=$(cat "$HC_RUNDIR/pids/slurmctld.pid" 2>/dev/null)
	while [ $SECONDS -lt $deadline ]; do
		# Just started, the process may not have exec'd yet (its
		# command line is still the shell's; under valgrind that
		# lasts): gone is dead, not-yet-ours is not.
		hc_ctld_alive || [ -d "/proc/$pid" ] || return 1
		scontrol ping 2>/dev/null | grep -q 'is UP' && return 0
		sleep 0.2
	done
	return 1
}

# hc_ctld_log: the (primary) slurmctld's log file.
hc_ctld_log()
{
	if [ "${HC_BACKUP:-0}" = 1 ]; then
		echo "$HC_RUNDIR/ctld-a/slurmctld.log"
	else
		echo "$HC_RUNDIR/log/slurmctld.log"
	fi
}

# hc_ctld_alive: true while the recorded slurmctld runs.
hc_ctld_alive() { _hc_ours "$(cat "$HC_RUNDIR/pids/slurmctld.pid" 2>/dev/null)"; }

# hc_wait_idle SECONDS: wait until every node is idle and responding.  A
# node slurmctld has not yet heard from shows as idle* right after a
# start: jobs then wait for its registration, up to a backfill pass (27 s
# seen in t0010, whose books counted that wait as entitlement).
hc_wait_idle()
{
	local deadline=$((SECONDS + ${1:-60})) states n
	n=$(_hc_nodes | wc -l)
	while [ $SECONDS -lt $deadline ]; do
		hc_ctld_alive || { hc_log "slurmctld is not running"; return 1; }
		states=$(sinfo -h -N -o '%t' 2>/dev/null | sort | uniq -c)
		if [ "$(sinfo -h -N -t idle -o '%N %t' 2>/dev/null |
			awk '$2 !~ /\*/ { print $1 }' | sort -u | wc -l)" = "$n" ]; then
			return 0
		fi
		sleep 0.3
	done
	hc_log "nodes not idle after ${1:-60}s: $states"
	return 1
}

# hc_undrain NODES: drained idle nodes back in service at once, and a main
# scheduling pass asked for.  Not `state=resume`: on a drained node that
# makes slurmctld ask slurmd to register again, and when slurmd's answer
# to the ping is handled before its registration (node_did_resp first),
# nothing asks the main scheduler for a pass: the queue waits for backfill
# (bf_interval, 30 s) or the periodic pass (60 s).  Seen in t0010 as no
# job started 21-27 s after a resume.  `state=idle` clears DRAIN and makes
# the node available within its own RPC, which asks for a pass.
hc_undrain() { scontrol update nodename="$1" state=idle; }

# hc_wait_jobs_done SECONDS: wait until the queue is empty.
hc_wait_jobs_done()
{
	local deadline=$((SECONDS + ${1:-60}))
	while [ $SECONDS -lt $deadline ]; do
		[ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	return 1
}

# hc_as UID CMD...: run CMD as user UID (its group too, no others), with
# this cluster's SLURM_CONF.
hc_as()
{
	local uid=$1
	shift
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		env SLURM_CONF="$SLURM_CONF" "$@"
}

# hc_kill_ctld [SIGNAL [NAME]]: signal the recorded slurmctld (NAME
# slurmctld-b: the backup; default SIGKILL) and wait until it is gone.
hc_kill_ctld()
{
	local pid
	pid=$(cat "$HC_RUNDIR/pids/${2:-slurmctld}.pid" 2>/dev/null)
	_hc_ours "$pid" || return 0
	kill -"${1:-KILL}" "$pid" 2>/dev/null
	for _ in $(seq 100); do
		_hc_ours "$pid" || return 0
		sleep 0.1
	done
	return 1
}

# Stop the PIDs recorded under pids/, slurm daemons first, munged last.
_hc_stop_recorded()
{
	local f pid pids=() late=() munge=
	[ -d "$HC_RUNDIR/pids" ] || return 0
	for f in "$HC_RUNDIR"/pids/*.pid; do
		[ -e "$f" ] || continue
		pid=$(cat "$f")
		if _hc_ours "$pid"; then
			case "$f" in
			*/munged.pid) munge=$pid ;;
			*/slurmdbd.pid | */mariadb.pid) late+=("$pid") ;;
			*) pids+=("$pid") ;;
			esac
		fi
	done
	_hc_term 10 "${pids[@]}"
	_hc_term 10 "${late[@]}"
	_hc_sweep
	[ -n "$munge" ] && _hc_term 5 "$munge"
	rm -f "$HC_RUNDIR"/pids/*.pid
}

# _hc_term GRACE PID...: SIGTERM, wait up to GRACE seconds, then SIGKILL
# what is left.
_hc_term()
{
	local grace=$1 pid left
	shift
	[ $# -gt 0 ] || return 0
	kill -TERM "$@" 2>/dev/null
	for _ in $(seq $((grace * 10))); do
		left=
		for pid in "$@"; do
			[ -d "/proc/$pid" ] && left=1
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	kill -KILL "$@" 2>/dev/null
	sleep 0.2
}

# PIDs of processes (not us, not our ancestors) that belong to this cluster
# but were not started by us: slurmstepd and job processes.  They hold a
# file or their working directory under the run directory, or carry our
# cluster's name in their job environment.
_hc_holders()
{
	local pid me=" $$ $BASHPID " a=$$
	# Our ancestors, not init: a slurmstepd whose slurmd is gone has
	# init for its parent and must not pass for one of our children.
	while [ "$a" -gt 1 ] 2>/dev/null; do
		a=$(awk '{print $4}' "/proc/$a/stat" 2>/dev/null) || break
		[ "$a" -gt 1 ] 2>/dev/null && me+="$a "
	done
	# One find and one grep over /proc (a loop of readlink and grep per
	# process took seconds at every stop); the pipeline's own processes,
	# our children, are left out with us.
	{
		find /proc/[0-9]*/cwd /proc/[0-9]*/fd -maxdepth 1 \
			-lname "$HC_RUNDIR/*" 2>/dev/null
		grep -lzxF "SLURM_CLUSTER_NAME=$HC_CLUSTER" \
			/proc/[0-9]*/environ 2>/dev/null
	} | cut -d/ -f3 | sort -un | while read -r pid; do
		case "$me" in *" $pid "*) continue ;; esac
		a=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null) || continue
		case "$me" in *" $a "*) continue ;; esac
		echo "$pid"
	done
}

# A slurmstepd a stopping slurmd forked at the last moment can appear
# after a pass has looked (seen with 256 nodes): a pass that found
# something is followed by another, up to three.
_hc_sweep()
{
	local left munge pass
	munge=$(cat "$HC_RUNDIR/pids/munged.pid" 2>/dev/null)
	for pass in 1 2 3; do
		left=$(_hc_holders | grep -vx "${munge:-none}")
		[ -n "$left" ] || return 0
		# What is left has lost its slurmd: there is nobody to wait
		# for.
		# shellcheck disable=SC2086
		_hc_term 1 $left
		sleep 0.5
	done
}

# hc_stop: stop every process of this cluster.  Safe to call twice.
hc_stop()
{
	[ -n "${HC_RUNDIR:-}" ] || return 0
	# Cancelled jobs let slurmstepd end their processes the normal way.
	if hc_ctld_alive && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
		timeout 5 scancel --full --quiet \
			$(squeue -h -o %i 2>/dev/null) 2>/dev/null
		hc_wait_jobs_done 10
	fi
	_hc_stop_recorded
	_hc_sweep
	_hc_release_ports
}
