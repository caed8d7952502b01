#!/bin/sh
# scripts/ctest-strict, which scripts/run-tests and run-sanitizers run:
# a tiny CMake project's tests, one passing, one skipped (exit 77 with
# SKIP_RETURN_CODE), one failing, in the combinations that matter, and a
# slow one stopped by a signal. ctest alone exits 0 with a skipped test;
# ctest-strict must not.
set -eu
: "${XRLM_TEST_SOURCE:?}" "${XRLM_TEST_WORK:?}"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
strict=$XRLM_TEST_SOURCE/scripts/ctest-strict
W=$XRLM_TEST_WORK
rm -rf "$W" && mkdir -p "$W/src"
cat >"$W/src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(strict NONE)
enable_testing()
add_test(NAME good COMMAND sh -c "exit 0")
add_test(NAME skips COMMAND sh -c "echo needs root; exit 77")
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME bad COMMAND sh -c "exit 1")
add_test(NAME slow COMMAND sh -c "touch started; exec sleep 30")
CM
cmake -S "$W/src" -B "$W/b" >"$W/cmake.log" 2>&1 || fail "cannot configure: $(cat "$W/cmake.log")"
cd "$W/b"

# run EXPECTED_STATUS ARGS...: ctest-strict ARGS exits EXPECTED_STATUS.
run() {
	want=$1
	shift
	set +e
	"$strict" "$@" >"$W/out" 2>&1
	status=$?
	set -e
	[ $status -eq "$want" ] || fail "ctest-strict $* exited $status, not $want: $(cat "$W/out")"
}

ctest -R '^skips$' >/dev/null 2>&1 || fail "the premise: ctest alone fails a skipped test"
run 0 -R '^good$'
run 1 -R '^(good|skips)$'
grep -q "ctest-strict: these tests did not run, so they did not pass: skips" "$W/out" ||
	fail "the skipped test is not named: $(cat "$W/out")"
XRLM_TESTS_ALLOW_SKIP=1 run 0 -R '^(good|skips)$'
grep -q "accepted (XRLM_TESTS_ALLOW_SKIP=1): skips" "$W/out" || fail "an accepted skip is not said"
run 8 -R '^(good|bad)$'
XRLM_TESTS_ALLOW_SKIP=1 run 8 -E '^slow$'

# A signal to the process group (a terminal's Ctrl+C, a CI job's
# cancellation) while ctest runs: ctest-strict dies by it (128 + n) and its
# log goes too (dash runs no EXIT trap when a signal kills the shell).
mkdir -p "$W/tmp"
for sig in INT:130 TERM:143 HUP:129; do
	rm -f started
	TMPDIR=$W/tmp setsid env --default-signal=INT "$strict" -R '^slow$' >"$W/out" 2>&1 &
	group=$!
	i=0
	until [ -e started ]; do
		i=$((i + 1))
		[ $i -le 200 ] || { kill -9 -"$group"; fail "the slow test never started: $(cat "$W/out")"; }
		sleep 0.05
	done
	[ -n "$(ls -A "$W/tmp")" ] || fail "ctest-strict made no log in TMPDIR"
	kill -"${sig%:*}" -"$group"
	status=0
	wait "$group" || status=$?
	[ $status -eq "${sig#*:}" ] || fail "${sig%:*}: ctest-strict exited $status, not ${sig#*:}: $(cat "$W/out")"
	[ -z "$(ls -A "$W/tmp")" ] || fail "${sig%:*}: ctest-strict left $(ls -A "$W/tmp") in TMPDIR"
done
echo "-- ctest-strict fails on a skipped test unless told, keeps ctest's failures, and leaves no log when a signal ends it"
