#!/bin/sh
# The application forks while recording, and the child exits through
# exit() at once (as a helper process does), running the layers'
# destructor in a copy of the monitored instance. The child must exit
# promptly (it hung joining a copy of the parent's writer thread), write
# nothing (the parent's rows once, not twice) and log nothing; the parent
# records and merges its session as if nothing happened.
# Usage: fork.sh headless|vulkan2
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=90 XRLM_RECORD=1
frames=200
# The app waits up to 10 s for its child and fails if it hung.
run_app --graphics "$1" --frames $frames --fork-at 50

[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
for side in pre post; do
	f=$(ls "$OUT"/frames-*-$side.csv)
	rows=$(data_rows "$f" | wc -l)
	unique=$(data_rows "$f" | cut -d, -f1 | sort -u | wc -l)
	[ "$rows" -eq $frames ] && [ "$unique" -eq $frames ] ||
		fail "$side: $rows rows, $unique display times, not $frames each (the child wrote rows?)"
	[ "$(grep -c '^# session_end ' "$f")" -eq 1 ] || fail "$side: not one footer"
	! grep -q "process exiting" "$OUT/xrlm-$side.log" || fail "the child's exit touched the $side log"
done
merged=$(ls "$OUT"/frames-merged-*.csv)
[ "$(sed -n 's/^# frame_count=//p' "$merged")" -eq $frames ] || fail "the merged file lacks frames"
note "$1: a forked child's exit() returned at once; the parent's $frames frames recorded once"
