#!/bin/sh
# A normal exit while recording: the app calls exit() without
# xrDestroyInstance (or xrDestroySession). The layers' destructor
# (layer_at_exit) still finishes both sides' files and the merge.
# Usage: exit_without_destroy.sh headless|vulkan2
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
run_app --graphics "$1" --frames 500 --exit-without-destroy

[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
pre=$(ls "$OUT"/frames-*-pre.csv)
rows=$(data_rows "$pre" | wc -l)
[ "$rows" -ge 500 ] || fail "only $rows rows of 500+ frames"
for side in pre post; do
	grep -q '^# session_end dropped_queue_full=0$' "$OUT"/frames-*-$side.csv ||
		fail "the $side file was not finished"
	one_line "$OUT/xrlm-$side.log" "process exiting with the instance alive"
done
note "$1: exit() without xrDestroyInstance still gave a merged file of $rows frames"
