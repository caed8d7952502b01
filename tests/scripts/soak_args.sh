#!/bin/sh
# scripts/soak refuses arguments it cannot run with in one line (status 2)
# before it makes its temporary directory; a run too short to judge
# resident memory says so (not "memory grew"); no run leaves its
# temporary directory behind.
set -eu
: "${XRLM_TEST_SOURCE:?}" "${XRLM_TEST_WORK:?}" "${XRLM_TEST_BUILD:?}"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
rm -rf "$XRLM_TEST_WORK" && mkdir -p "$XRLM_TEST_WORK/tmp"
log=$XRLM_TEST_WORK/soak.log
export TMPDIR=$XRLM_TEST_WORK/tmp

# soak STATUS PATTERN ARGS...: scripts/soak ARGS exits STATUS with one
# stderr line matching PATTERN and leaves nothing in $TMPDIR.
soak() {
	want=$1 pattern=$2
	shift 2
	set +e
	timeout 60 sh "$XRLM_TEST_SOURCE/scripts/soak" "$@" >/dev/null 2>"$log"
	status=$?
	set -e
	[ $status -eq "$want" ] || fail "scripts/soak $* exited $status, not $want: $(cat "$log")"
	[ "$(wc -l <"$log")" -eq 1 ] && grep -q -- "$pattern" "$log" ||
		fail "scripts/soak $*: not one line matching '$pattern': $(cat "$log")"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "scripts/soak $* left $(ls -A "$TMPDIR")"
}

b=$XRLM_TEST_BUILD
for bad in '' 0 010 -5 abc 1.5 100000000001 99999999999999999999; do
	soak 2 "FRAMES must be a whole number from 1" "$b" "$bad"
	soak 2 "EVERY must be a whole number from 1" "$b" 200 "$bad"
done
soak 2 "must be a multiple of 2 x EVERY (200)" "$b" 300 100
soak 2 "must be a multiple of 2 x EVERY" "$b" 100 100
soak 2 "BUILD_DIR must be a build directory" "$XRLM_TEST_WORK/none" 200 100
soak 2 "BUILD_DIR must be a build directory" "$XRLM_TEST_SOURCE" 200 100
soak 2 "three arguments at most" "$b" 200 100 1
# One session of 100 frames ends within a second or two: fewer than 4 memory samples.
soak 1 "too short to judge resident memory (" "$b" 200 100
echo "-- scripts/soak refuses bad arguments with one line and leaves no directory"
