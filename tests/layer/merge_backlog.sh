#!/bin/sh
# Sessions end faster than post's merge thread, at SCHED_IDLE, merges them:
# the app runs unpaced on one CPU (taskset), so the merge thread gets
# almost none of it, and toggles recording every 10000 frames (up to 30
# sessions of 10000 frames: toggles a loaded machine delivers late may
# merge). Once the merge thread's queue is full (XL_HOOK_QUEUE, 8), a
# session is left for `xrlm merge`, said in xrlm-post.log, and its files
# are complete; the writer never merges one itself (before, it did: for
# seconds it drained no ring, at the normal policy, with the merge's
# threads beside the app's, and the next session lost up to 94% of its
# frames).
. "$(dirname "$0")/lib.sh"
setup
sessions=30
every=10000
export XRTEST_FRAME_RATE=0
if ! taskset -c "$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')" \
	"$XRLM_TEST_APP" --graphics headless --calls frame --frames $((2 * sessions * every)) \
	--toggle-every $every >"$XRLM_TEST_WORK/app.log" 2>&1; then
	cat "$XRLM_TEST_WORK/app.log" >&2
	fail "xrlm-test-app exited non-zero"
fi

pres=$(ls "$OUT"/frames-*-pre.csv | wc -l)
# More than the queue and the one merge running, with room for those
# merged before the queue filled.
[ "$pres" -ge 12 ] || fail "$pres sessions recorded, fewer than 12: the queue cannot have filled"
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
# Every session post recorded a row of is merged by the merge thread (or
# failed there: pre's and post's rows, thinned by full rings on the one
# CPU, may have no frame in common), or named in the log as left, with
# complete files and no merged file.
for post in "$OUT"/frames-*-post.csv; do
	[ "$(data_rows "$post" | wc -l)" -gt 0 ] || continue
	tag=${post#"$OUT"/frames-}
	tag=${tag%-post.csv}
	if grep -q "session $tag: not merged in the application" "$OUT/xrlm-post.log"; then
		[ ! -e "$OUT/frames-merged-$tag.csv" ] ||
			fail "session $tag was said left unmerged, but has a merged file"
		for f in "$post" "$OUT/frames-$tag-pre.csv"; do
			tail -n 1 "$f" | grep -q '^# session_end dropped_queue_full=' ||
				fail "session $tag was left unmerged, but $f is incomplete"
		done
	elif [ ! -f "$OUT/frames-merged-$tag.csv" ]; then
		grep -q "post: merge $tag: .*error" "$OUT/xrlm-post.log" ||
			fail "session $tag is neither merged, nor failed its merge, nor said left"
	fi
done
note "ok"
