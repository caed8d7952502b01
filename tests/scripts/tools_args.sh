#!/bin/sh
# scripts/run-tests, run-fuzz and run-sanitizers answer --help and refuse what
# they cannot run with before doing anything: run-tests installs no
# package and builds nothing for --help, an unknown option or a second
# directory; run-fuzz refuses 0 seconds (libFuzzer's "no limit") and a
# FUZZ_JOBS that is not a whole number from 1 to 1024.
set -eu
. "$(dirname "$0")/lib.sh"
out=$XRLM_TEST_WORK/out err=$XRLM_TEST_WORK/err

# tool STATUS PATTERN SCRIPT ARGS...: SCRIPT ARGS exits STATUS, PATTERN on
# its stdout (0) or as its one stderr line (else), in a few seconds.
tool() {
	want=$1 pattern=$2 script=$3
	shift 3
	set +e
	timeout 20 sh "$XRLM_TEST_SOURCE/scripts/$script" "$@" >"$out" 2>"$err"
	status=$?
	set -e
	[ $status -eq "$want" ] || fail "$script $*: exited $status, not $want: $(cat "$err")"
	if [ "$want" -eq 0 ]; then
		grep -q -- "$pattern" "$out" || fail "$script $*: stdout lacks '$pattern': $(cat "$out")"
	else
		[ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$pattern" "$err" ||
			fail "$script $*: not one stderr line matching '$pattern': $(cat "$err")"
	fi
}

tool 0 "^usage: scripts/run-tests" run-tests --help
tool 0 "^usage: scripts/run-tests" run-tests -h
tool 2 "unknown option '--bogus'" run-tests --bogus
tool 2 "one BUILD_DIR at most" run-tests a b
# The other two long-running tools say what they do, and run-sanitizers
# takes no option for its build directory (it made "--help/build-asan").
tool 0 "^Usage: scripts/run-sanitizers" run-sanitizers --help
tool 2 "unknown option '--bogus'" run-sanitizers --bogus
tool 2 "one BUILD_PARENT at most" run-sanitizers a b
tool 0 "scripts/run-fuzz \[SECONDS_PER_TARGET\]" run-fuzz --help
for bad in 0 00 abc -5; do
	tool 2 "must be a whole number above 0" run-fuzz "$bad"
done
# FUZZ_JOBS, before anything is configured or built (a compiler that
# cannot work makes a script that goes on fail at once).
export CC=false
for bad in abc 0 00 010 -1 +2 1.5 '' ' 2' 1025 99999999999999999999; do
	export FUZZ_JOBS="$bad"
	tool 2 "^run-fuzz: FUZZ_JOBS must be a whole number from 1 to 1024, not '$bad'$" run-fuzz 1
done
unset CC FUZZ_JOBS
