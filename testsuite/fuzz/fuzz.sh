#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz: libFuzzer runs of every parser Horae owns, under AddressSanitizer
# (with leak detection) and UndefinedBehaviorSanitizer: TRES strings
# (tres), windows and durations (window), hmrf.conf, eunomia.conf and
# justice.conf (hmrf_conf, eunomia_conf, justice_conf), the state files
# and published documents (state), and horae-sim's JSON and SWF traces
# (trace).  Builds the targets of testsuite/fuzz/fuzz_*.c with clang
# straight from the sources of src/common and contribs/sim, seeds each
# from the repository's own examples (etc/*.conf, testsuite/cli/data,
# contribs/sim/test/data, and the simulator's generated traces when
# horae-sim is built) and from regress/TARGET (inputs that once crashed
# it), with dict/TARGET.dict, runs each for SECONDS, and prints per target
# "TARGET: N runs, no crash" or the crash file and the start of its
# report, then "fuzz: N targets, N crashed".  Exits 1 when a target
# crashed, leaked or hit undefined behaviour, 2 when the build failed.
#
#   fuzz.sh [SECONDS] [TARGET...]     (60 s each; all targets)
#
# The work directory keeps the build, each target's growing corpus (so a
# second run goes on where the first stopped), the logs and the crash
# artifacts, named TARGET-crash-SHA1 (leak-, timeout-, oom-).  Replay one
# with WORK/fuzz_TARGET FILE.  Environment:
#   HORAE_FUZZ_DIR   the work directory (/tmp/horae-fuzz)
#   HORAE_BUILDDIR   a configured build's testsuite directory, to find
#                    horae-sim (default: the repository's build/)
#   CC               the compiler (clang; it must have libFuzzer)
set -uo pipefail
FUZZ=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$FUZZ/../.." && pwd)
ALL=(tres window hmrf_conf eunomia_conf justice_conf state trace)

secs=${1:-60}
[ $# -gt 0 ] && shift
case $secs in
'' | *[!0-9]*) echo "fuzz: SECONDS must be a whole number, not '$secs'" >&2
	exit 2 ;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL[@]}")
for t in "${targets[@]}"; do
	[ -f "$FUZZ/fuzz_$t.c" ] ||
		{ echo "fuzz: no target '$t' (${ALL[*]})" >&2; exit 2; }
done
work=${HORAE_FUZZ_DIR:-/tmp/horae-fuzz}
CC=${CC:-clang}
command -v "$CC" >/dev/null ||
	{ echo "fuzz: $CC missing (contribs/horae-deps installs clang)" >&2
	  exit 2; }
mkdir -p "$work"/{obj,seeds,corpus,artifacts,logs,tmp} || exit 2

# --- build -------------------------------------------------------------------
# libhorae's sources as src/common/Makefile.am lists them, so a new module
# is fuzzed with the rest; a generated Makefile rebuilds only what changed.
common=$(sed -n '/^libhorae_la_SOURCES/,/[^\\]$/p' \
	"$TOP/src/common/Makefile.am" | tr ' \t\\' '\n\n\n' | grep '\.c$')
sim="sim_trace.c sim_json_check.c sim_swf.c sim_sacct.c"
# obj SOURCE: the rule of its object, instrumented for libFuzzer.
obj()
{
	local o

	o="obj/$(basename "${1%.c}").o"

	echo "$o: $1 Makefile"
	printf '\t$(CC) $(CFLAGS) -fsanitize=fuzzer-no-link,$(SAN) -MMD -c $< -o $@\n'
}
{
	echo "CC = $CC"
	echo "CFLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer" \
		"-fno-sanitize-recover=undefined" \
		"-I$TOP/src/common -I$TOP/contribs/sim" \
		"$(pkg-config --cflags json-c)"
	echo "SAN = address,undefined"
	echo "LIBS = $(pkg-config --libs json-c) -lm"
	printf 'all:'
	printf ' fuzz_%s' "${ALL[@]}"
	printf '\n'
	for f in $common; do obj "$TOP/src/common/$f"; done
	for f in $sim; do obj "$TOP/contribs/sim/$f"; done
	for t in "${ALL[@]}"; do
		obj "$FUZZ/fuzz_$t.c"
		echo "fuzz_$t: obj/fuzz_$t.o libsim.a libhorae.a"
		printf '\t$(CC) -fsanitize=fuzzer,$(SAN) -g -o $@ $^ $(LIBS)\n'
	done
	printf 'libhorae.a:'
	for f in $common; do printf ' obj/%s.o' "${f%.c}"; done
	printf '\n\trm -f $@ && ar rcs $@ $^\n'
	printf 'libsim.a:'
	for f in $sim; do printf ' obj/%s.o' "${f%.c}"; done
	printf '\n\trm -f $@ && ar rcs $@ $^\n'
	echo '-include obj/*.d'
} >"$work/Makefile.new"
# Kept when unchanged: every object depends on it (flags, paths).
if cmp -s "$work/Makefile.new" "$work/Makefile"; then
	rm "$work/Makefile.new"
else
	mv "$work/Makefile.new" "$work/Makefile"
fi
if ! make -s -C "$work" -j"$(nproc)" "${targets[@]/#/fuzz_}" \
	>"$work/logs/build.log" 2>&1; then
	tail -20 "$work/logs/build.log" >&2
	echo "fuzz: build failed (log: $work/logs/build.log)" >&2
	exit 2
fi

# --- seeds -------------------------------------------------------------------
# Copied afresh on each run (the corpus directory keeps what the fuzzer
# found); names are the examples' own, so a log's seed is easy to trace.
seed()
{
	local t=$1 f
	shift
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$work/seeds/$t/$(basename "$f")"
	done
}

# text T NAME: a seed from stdin.
text() { cat >"$work/seeds/$1/$2"; }

rm -rf "$work/seeds" && mkdir -p "$work/seeds"
for t in "${ALL[@]}"; do mkdir -p "$work/seeds/$t" "$work/corpus/$t"; done

confs=("$TOP"/etc/*.conf)
seed hmrf_conf "${confs[@]}"
seed eunomia_conf "${confs[@]}"
seed justice_conf "${confs[@]}"
states=$(find "$TOP/testsuite/cli/data" -type f)
for f in $states; do
	cp "$f" "$work/seeds/state/$(echo "${f#"$TOP"/testsuite/cli/data/}" |
		tr / -)"
done
# Inputs that once crashed a target, kept so the bug stays fixed.
for t in "${ALL[@]}"; do
	[ -d "$FUZZ/regress/$t" ] && seed "$t" "$FUZZ/regress/$t"/*
done
traces=("$TOP"/contribs/sim/test/data/*)
seed trace "${traces[@]}"
sim_bin=${HORAE_BUILDDIR:+$HORAE_BUILDDIR/../contribs/sim/horae-sim}
[ -x "${sim_bin:-}" ] || sim_bin=$TOP/build/contribs/sim/horae-sim
if [ -x "$sim_bin" ]; then
	# The generators' names as sim_gen.h lists them.
	for g in $(sed -n 's/^ \*   \([a-z][a-z0-9-]*\)  .*/\1/p' \
		"$TOP/contribs/sim/sim_gen.h"); do
		# 20 justice jobs have every shape the default 200 have, in
		# a tenth of the bytes the fuzzer would otherwise mutate.
		opt=()
		[ "$g" = justice ] && opt=(--gen-jobs=20)
		"$sim_bin" -g "$g" "${opt[@]}" --no-run \
			--write-trace="$work/seeds/trace/gen-$g.json" \
			>/dev/null 2>&1 ||
			echo "fuzz: warning: horae-sim -g $g failed; no seed" >&2
	done
else
	echo "fuzz: note: horae-sim not built; no generated trace seeds" >&2
fi
# TRES: each layout in the traces and state files with the vectors given
# against it; windows and durations: the values the examples configure.
n=0
for f in "$work"/seeds/trace/*.json "$work"/seeds/state/*; do
	layout=$(grep -o '"tres": *"[^"=]*"' "$f" | head -1 |
		sed 's/.*: *"\(.*\)"/\1/; s,\\/,/,g')
	[ -n "$layout" ] || continue
	grep -o '"\(tres\|task_tres\)": *"[^"]*=[^"]*"' "$f" | sort -u |
		head -20 | sed 's/.*: *"\(.*\)"/\1/' |
		while read -r vec; do
			printf '%s\n%s' "$layout" "$vec" >"$work/seeds/tres/$n-$(
				printf '%s' "$vec" | tr -c 'a-z0-9=' _)"
		done
	n=$((n + 1))
done
grep -hio '^tres=.*' "${confs[@]}" | cut -d= -f2- |
	while read -r layout; do
		printf '%s\n%s' "$layout" "cpu=4,mem=4G,node=1" |
			text tres "conf-$n"
	done
{
	grep -hiE '^(window|windowbucket|period|timeout|chargehorizon)=' \
		"${confs[@]}" | cut -d= -f2-
	cat "$work"/seeds/state/* | grep -o '"window":"[^"]*"' | cut -d'"' -f4
} | sort -u | while read -r v; do
	printf '%s' "$v" | text window "$(printf '%s' "$v" | tr -c 'a-z0-9' _)"
done

# --- runs --------------------------------------------------------------------
# fuzz_trace reads its inputs as sacct records against these nodes.
export SIM_TEST_NODES=$TOP/contribs/sim/test/data/nodes.txt
export TMPDIR=$work/tmp
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
crashed=0
for t in "${targets[@]}"; do
	log=$work/logs/$t.log
	dict=()
	[ -f "$FUZZ/dict/$t.dict" ] && dict=(-dict="$FUZZ/dict/$t.dict")
	"$work/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/$t-" "${dict[@]}" \
		"$work/corpus/$t" "$work/seeds/$t" >"$log" 2>&1
	rc=$?
	new=$(sed -n 's/.*Test unit written to //p' "$log")
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
	if [ $rc = 0 ] && [ -z "$new" ]; then
		echo "$t: ${runs:-0} runs, no crash"
		continue
	fi
	crashed=$((crashed + 1))
	echo "$t: CRASH (exit $rc): ${new:-no artifact} (log: $log)"
	# The report: from the sanitizer's first line (or the log's end) to
	# its summary, without the frames of libFuzzer and libc.
	{ grep -m1 -A20 -E '^==[0-9]+==|runtime error:|ERROR: libFuzzer' \
		"$log" || tail -12 "$log"; } |
		grep -vE '^ *$|in fuzzer::|in main |libc_start|in _start ' |
		sed '/SUMMARY:/q' | head -10 | sed 's/^/    /'
done
rm -rf "$work/tmp"/*
echo "fuzz: ${#targets[@]} targets, $crashed crashed"
[ $crashed = 0 ]
