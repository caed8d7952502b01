#!/bin/sh
# Crash safety: `kill -9` of the app mid-recording.
#  - each per-side CSV is valid up to its last flush: intact header, every
#    complete line a well-formed row, only the very last line may be cut;
#  - at most 1 s of frames is lost (the writer flushes every 0.5 s): the
#    last row on disk ended less than 1 s before the kill;
#  - `xrlm merge` recovers the pair, warning (not failing) on a cut row;
#  - the files of an earlier, finished session are not touched;
#  - the calls files are flushed as the frames files are.
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=1000 XRLM_RECORD=1

# An earlier, finished session; remember its files exactly.
XRLM_RECORD_FRAMES=200 run_app --graphics headless --frames 300
[ "$(check_all_sessions)" -eq 1 ] || fail "the earlier session is missing"
ls -l --time-style=full-iso "$OUT"/frames-* >"$XRLM_TEST_WORK/before.ls"
md5sum "$OUT"/frames-* >"$XRLM_TEST_WORK/before.md5"

start_app --graphics headless --frames 10000000
wait_for_line "$OUT/xrlm-post.log" "session $APP_PID-.*: recording to"
sleep 2.3
kill -9 "$APP_PID"
killed_at=$(mono_ns)
wait "$APP_PID" || true

ls -l --time-style=full-iso $(awk '{ print $2 }' "$XRLM_TEST_WORK/before.md5") >"$XRLM_TEST_WORK/after.ls"
cmp -s "$XRLM_TEST_WORK/before.ls" "$XRLM_TEST_WORK/after.ls" || fail "the earlier session's files changed (size or time)"
md5sum -c --quiet "$XRLM_TEST_WORK/before.md5" || fail "the earlier session's files changed"

pre=$(ls "$OUT"/frames-"$APP_PID"-*-pre.csv) || fail "no pre file for the killed session"
post=$(echo "$pre" | sed 's/-pre\.csv$/-post.csv/')
[ -f "$post" ] || fail "no post file for the killed session"
[ -z "$(ls "$OUT"/frames-merged-"$APP_PID"-* 2>/dev/null)" ] || fail "a merged file for a killed session?"

cut_rows=0
for f in "$pre" "$post"; do
	[ "$(sed -n 1p "$f")" = "# clock=CLOCK_MONOTONIC" ] &&
		[ "$(grep -v '^#' "$f" | head -n 1)" = "display_time,thread_id,t_entry,t_exit" ] ||
		fail "$f: header damaged"
	# Complete lines (ending in a newline) after the header: all rows.
	# The header is the "# " metadata lines and the column line.
	body=$(( $(grep -c '^#' "$f") + 2 ))
	complete=$(tail -n +"$body" "$f" | wc -l)
	bad=$(tail -n +"$body" "$f" | head -n "$complete" | grep -cvE '^-?[0-9]+,[0-9]+,[0-9]+,[0-9]+$' || true)
	[ "$bad" -eq 0 ] || fail "$f: $bad malformed complete lines"
	[ "$complete" -ge 1000 ] || fail "$f: only $complete rows after 2.3 s at 1 kHz"
	[ -z "$(tail -c 1 "$f")" ] || cut_rows=$((cut_rows + 1))
	last=$(tail -n +"$body" "$f" | head -n "$complete" | tail -n 1 | cut -d, -f4)
	lost_ms=$(( (killed_at - last) / 1000000 ))
	note "$(basename "$f"): $complete rows on disk, last one ended $lost_ms ms before the kill"
	[ "$lost_ms" -lt 1000 ] || fail "$f: $lost_ms ms of frames lost (at most 1 s allowed)"
done

# A cut row in a killed file is skipped with a warning; make one if the kill left none.
if [ $cut_rows -eq 0 ]; then
	head -c -7 "$pre" >"$XRLM_TEST_WORK/pre.tmp" && cat "$XRLM_TEST_WORK/pre.tmp" >"$pre"
	note "no row was cut by the kill: cut the pre file's last row"
fi
"$XRLM_TEST_XRLM" merge "$pre" "$post" -o "$XRLM_TEST_WORK/recovered.csv" >"$XRLM_TEST_WORK/merge.log" 2>&1 ||
	fail "xrlm merge of the killed session failed: $(cat "$XRLM_TEST_WORK/merge.log")"
grep -Eqi "warning: .*(no newline|truncated)" "$XRLM_TEST_WORK/merge.log" ||
	fail "no warning about the truncated row: $(cat "$XRLM_TEST_WORK/merge.log")"
n=$(header_value "$XRLM_TEST_WORK/recovered.csv" frame_count)
[ "$n" -ge 1000 ] || fail "only $n frames recovered"
note "xrlm merge recovered $n frames with a warning; the earlier session is untouched"

# The calls files are flushed with the frames files: at 90 Hz, with the
# frame loop's calls only (about 200 bytes a frame), a calls file fills
# its 64 KiB buffer only after seconds, so a kill 1.5 s in finds its rows
# on disk only if the periodic flush wrote them.
export XRTEST_FRAME_RATE=90
start_app --graphics headless --calls frame --frames 10000000
wait_for_line "$OUT/xrlm-post.log" "session $APP_PID-.*: recording to"
sleep 1.5
kill -9 "$APP_PID"
wait "$APP_PID" || true
for side in pre post; do
	calls=$(ls "$OUT"/calls-"$APP_PID"-*-"$side".csv) || fail "no $side calls file for the killed session"
	rows=$(grep -c '^xrEndFrame,' "$calls" || true)
	[ "$rows" -ge 1 ] || fail "$(basename "$calls"): no xrEndFrame row on disk 1.5 s after the start ($(wc -c <"$calls") bytes)"
	note "$(basename "$calls"): $rows xrEndFrame rows on disk at the kill"
done
