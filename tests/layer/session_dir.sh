#!/bin/sh
# Sessions as a whole, with the real layers: one finished session and one
# killed mid-recording (kill -9) in the same directory.
#  - while the app runs, `xrlm ls` says the session may be recording and
#    `xrlm merge DIR` leaves it alone;
#  - killed once both its per-side files hold 500 rows on disk: after the
#    kill, `xrlm ls` shows it unmerged and `xrlm merge DIR` merges it (and
#    only it), one line, 500 frames or more;
#  - `xrlm ls` then shows both merged, with their frame counts; `xrlm xlsx`
#    turns the recovered file into a workbook.
. "$(dirname "$0")/lib.sh"

# The data rows of per-side file $1 written whole (with their line end).
whole_rows() {
	grep -v '^#' "$1" 2>/dev/null | tail -n +2 | wc -l
}

setup
export XRTEST_FRAME_RATE=1000 XRLM_RECORD=1
xrlm=$XRLM_TEST_XRLM
log=$XRLM_TEST_WORK/xrlm.log

XRLM_RECORD_FRAMES=50 run_app --graphics headless --frames 100
first=$(merged_files)
[ -n "$first" ] || fail "the finished session has no merged file"

"$XRLM_TEST_APP" --graphics headless --frames 10000000 >"$XRLM_TEST_WORK/app.log" 2>&1 &
app=$!
wait_for_line "$OUT/xrlm-post.log" "session $app-.*: recording to"
tag=$(ls "$OUT" | sed -n "s/^frames-\($app-[0-9T-]*\)-pre\.csv$/\1/p")
[ -n "$tag" ] || fail "no per-side file of the running app"
"$xrlm" ls "$OUT" >"$log" 2>&1 || fail "xrlm ls failed: $(cat "$log")"
grep -q "^$tag .*recording? (pid $app is running)$" "$log" || fail "running session not shown as such: $(cat "$log")"
"$xrlm" merge "$OUT" >"$log" 2>&1 || fail "xrlm merge DIR failed: $(cat "$log")"
grep -q "^$tag: skipped: pid $app is still running" "$log" || fail "the running session was not skipped: $(cat "$log")"
# Killed once both sides have 500 whole rows on disk (the writers flush
# every 0.5 s), not after a fixed second: beside other work the app
# misses its 1 ms periods and the writers run late, and the session held
# 278 frames after that second under load. Up to 60 s.
i=0
until [ "$(whole_rows "$OUT/frames-$tag-pre.csv")" -ge 500 ] &&
	[ "$(whole_rows "$OUT/frames-$tag-post.csv")" -ge 500 ]; do
	i=$((i + 1))
	[ $i -le 1200 ] || fail "fewer than 500 rows on disk after 60 s: $(whole_rows "$OUT/frames-$tag-pre.csv") pre, $(whole_rows "$OUT/frames-$tag-post.csv") post"
	kill -0 "$app" 2>/dev/null || fail "the app ended before it was killed: $(cat "$XRLM_TEST_WORK/app.log")"
	sleep 0.05
done
kill -9 "$app"
wait "$app" || true

"$xrlm" ls "$OUT" >"$log" 2>&1 || fail "xrlm ls failed: $(cat "$log")"
grep -q "^$tag .* not merged (xrlm merge DIR)$" "$log" || fail "killed session not shown unmerged: $(cat "$log")"
"$xrlm" merge "$OUT" >"$log" 2>"$XRLM_TEST_WORK/merge.err" ||
	fail "xrlm merge DIR failed: $(cat "$log" "$XRLM_TEST_WORK/merge.err")"
[ "$(wc -l <"$log")" -eq 1 ] || fail "expected one line, got: $(cat "$log")"
n=$(sed -n "s|^$tag: merged \([0-9]*\) frames into $OUT/frames-merged-$tag.csv$|\1|p" "$log")
[ -n "$n" ] && [ "$n" -ge 500 ] || fail "killed session not merged (or few frames): $(cat "$log")"
[ "$(header_value "$OUT/frames-merged-$tag.csv" frame_count)" -eq "$n" ] || fail "frame count differs"

"$xrlm" ls "$OUT" >"$log" 2>&1 || fail "xrlm ls failed: $(cat "$log")"
[ "$(grep -c 'merged, ' "$log")" -eq 2 ] || fail "not both sessions merged: $(cat "$log")"
grep -q "^$tag .*merged, $n frames$" "$log" || fail "ls does not show the recovered count: $(cat "$log")"
grep -q " merged, 50 frames$" "$log" || fail "ls does not show the finished session: $(cat "$log")"
"$xrlm" xlsx "$OUT/frames-merged-$tag.csv" >"$log" 2>&1 || fail "xrlm xlsx failed: $(cat "$log")"
[ -s "$OUT/frames-merged-$tag.xlsx" ] || fail "no workbook"
note "killed session ($n frames) recovered by xrlm merge DIR; ls shows both sessions merged"
