#!/bin/sh
# scripts/demo refuses a frame count it cannot finish (0 never ends the
# runtime's session) before it installs or builds anything.
set -eu
. "$(dirname "$0")/lib.sh"
log=$XRLM_TEST_WORK/demo.log
for bad in '' 0 00 -5 abc 1.5 1000000001 99999999999999999999; do
	set +e
	timeout 10 sh "$XRLM_TEST_SOURCE/scripts/demo" "$bad" >"$log" 2>&1
	status=$?
	set -e
	[ $status -eq 2 ] || fail "scripts/demo '$bad' exited $status, not 2: $(cat "$log")"
	[ "$(wc -l <"$log")" -eq 1 ] && grep -q "FRAMES must be a whole number from 1" "$log" ||
		fail "scripts/demo '$bad': not one clear line: $(cat "$log")"
done
set +e
timeout 10 sh "$XRLM_TEST_SOURCE/scripts/demo" 5 6 >"$log" 2>&1
status=$?
set -e
[ $status -eq 2 ] || fail "two arguments were accepted"
sh "$XRLM_TEST_SOURCE/scripts/demo" --help >"$log" || fail "--help failed"
grep -q "Usage: scripts/demo \[FRAMES\]" "$log" || fail "--help printed no usage"
echo "-- scripts/demo refuses bad frame counts with one line"
