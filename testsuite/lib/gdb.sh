# SPDX-License-Identifier: GPL-2.0-or-later
# gdb.sh - hold one thread of a running daemon still with gdb while its
# other threads run on (non-stop mode), for the tests that show what
# slurmctld does while the plugin's thread is at a given place.  gdb reads
# its commands from a pipe (fd 7), so that it handles the threads' events
# while the test's steps run (a gdb `shell` command would not).
#
#   gdb_attach DIR PID      gdb on PID, its pipe and output in DIR, every
#                           thread running again; GDB_PID is gdb's PID
#   gdb_stop_in FUNC N      break on FUNC (breakpoint N) and wait until a
#                           thread stops there (40 s at most)
#   gdb_threads TAG         gdb's `info threads`, on one line
#   gdb_detach              breakpoints deleted, detached, gdb gone
#
# A test kills "$GDB_PID" in its EXIT trap, in case it stops half way.

GDB_PID=
GDB_DIR=

# gdb_waitfor PATTERN SECONDS: until gdb has printed PATTERN.
gdb_waitfor()
{
	local i
	for ((i = 0; i < $2 * 4; i++)); do
		grep -q "$1" "$GDB_DIR/gdb.out" && return 0
		sleep 0.25
	done
	return 1
}

gdb_threads()
{
	printf 'echo %s_BEGIN\\n\ninfo threads\necho %s_END\\n\n' "$1" "$1" >&7
	gdb_waitfor "$1_END" 30 &&
		sed -n "/$1_BEGIN/,/$1_END/p" "$GDB_DIR/gdb.out" | tr '\n' ' '
}

gdb_attach()
{
	local i t
	GDB_DIR=$1
	rm -f "$GDB_DIR/gdb.in" "$GDB_DIR/gdb.out"
	mkfifo "$GDB_DIR/gdb.in" || return 1
	gdb -q -nx <"$GDB_DIR/gdb.in" >"$GDB_DIR/gdb.out" 2>&1 &
	GDB_PID=$!
	exec 7>"$GDB_DIR/gdb.in"
	printf 'set pagination off\nset width 0\nset confirm off\nset non-stop on\nattach %s\n' "$2" >&7
	# Attaching stops every thread, each reported on its own; `continue
	# -a` resumes only those gdb has seen stop, and one it has not yet
	# would stay stopped.  So ask until gdb sees none running (up to
	# 30 s), whatever the machine's load.
	gdb_waitfor "Attaching to" 30
	for i in $(seq 60); do
		t=$(gdb_threads "ATTACH$i")
		[ -n "$t" ] && ! echo "$t" | grep -q '(running)' && break
		sleep 0.5
	done
	printf 'continue -a &\n' >&7
}

gdb_stop_in()
{
	printf 'break %s\ncontinue -a &\n' "$1" >&7
	gdb_waitfor "hit Breakpoint $2" 40
}

gdb_detach()
{
	printf 'delete\ndetach\nquit\n' >&7
	exec 7>&-
	wait "$GDB_PID"
	GDB_PID=
}
