#!/bin/sh
# Sessions end faster than post's merge thread, at SCHED_IDLE, merges them:
# the app runs unpaced on one CPU (taskset), so the merge thread gets
# almost none of it, and toggles recording every 10000 frames (20 sessions
# of 10000 frames). Once the merge thread's queue is full (XL_HOOK_QUEUE,
# 8), a session is left for `xrlm merge`, said in xrlm-post.log, and its
# files are complete; the writer never merges one itself (before, it did:
# for seconds it drained no ring, at the normal policy, with the merge's
# threads beside the app's, and the next session lost up to 94% of its
# frames). Every session is either merged or named in the log as left,
# and `xrlm merge DIR` merges those left.
. "$(dirname "$0")/lib.sh"
setup
sessions=20
every=10000
export XRTEST_FRAME_RATE=0
if ! taskset -c "$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')" \
	"$XRLM_TEST_APP" --graphics headless --calls frame --frames $((2 * sessions * every)) \
	--toggle-every $every >"$XRLM_TEST_WORK/app.log" 2>&1; then
	cat "$XRLM_TEST_WORK/app.log" >&2
	fail "xrlm-test-app exited non-zero"
fi

pres=$(ls "$OUT"/frames-*-pre.csv | wc -l)
[ "$pres" -eq $sessions ] || fail "$pres sessions recorded, not $sessions"
for f in "$OUT"/frames-*-pre.csv "$OUT"/frames-*-post.csv; do
	tail -n 1 "$f" | grep -q '^# session_end dropped_queue_full=' || fail "$f has no footer"
done
merged=$(merged_files | wc -l)
left=$(grep -c 'not merged in the application' "$OUT/xrlm-post.log" || true)
note "$merged sessions merged in the application, $left left for xrlm merge"
# With the merge thread starved, at most its queue and the one it runs
# (and any it finished before the queue filled) are merged.
[ "$left" -gt 0 ] ||
	fail "no session was left unmerged: the writer merged those beyond the merge thread's queue itself ($merged merged)"
# Every session post recorded a row of is merged, or named in the log as
# left (then with no merged file).
for post in "$OUT"/frames-*-post.csv; do
	[ "$(data_rows "$post" | wc -l)" -gt 0 ] || continue
	tag=${post#"$OUT"/frames-}
	tag=${tag%-post.csv}
	if grep -q "session $tag: not merged in the application" "$OUT/xrlm-post.log"; then
		[ ! -e "$OUT/frames-merged-$tag.csv" ] ||
			fail "session $tag was said left unmerged, but has a merged file"
	else
		[ -f "$OUT/frames-merged-$tag.csv" ] || fail "session $tag is neither merged nor said left"
	fi
done
"$XRLM_TEST_XRLM" merge "$OUT" >"$XRLM_TEST_WORK/merge.log" 2>&1 ||
	{ cat "$XRLM_TEST_WORK/merge.log" >&2; fail "xrlm merge DIR failed"; }
[ "$(merged_files | wc -l)" -eq $((merged + left)) ] || fail "xrlm merge DIR did not merge every session left"
note "ok"
