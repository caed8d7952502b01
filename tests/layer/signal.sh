#!/bin/sh
# Toggling by signal: start and stop twice in one process gives two
# sessions with distinct tags and two merged files, each matching
# `xrlm merge` byte for byte, with identical frames on both sides.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=90
"$XRLM_TEST_APP" --graphics headless --frames 450 >"$XRLM_TEST_WORK/app.log" 2>&1 &
app=$!
wait_for_line "$OUT/xrlm-pre.log" "toggle signal: USR2"
for t in 1 2 3 4; do
	sleep 0.6
	kill -USR2 "$app"
done
wait "$app" || fail "the app exited non-zero: $(cat "$XRLM_TEST_WORK/app.log")"

merged=$(merged_files)
[ "$(echo "$merged" | wc -l)" -eq 2 ] || fail "expected two merged files, got: $merged"
for m in $merged; do
	tag=$(basename "$m" .csv | sed 's/^frames-merged-//')
	pre=$OUT/frames-$tag-pre.csv
	same_frames "$pre"
	n=$(header_value "$m" frame_count)
	note "session $tag: $n frames"
	[ "$n" -ge 30 ] || fail "session $tag has only $n frames"
	"$XRLM_TEST_XRLM" merge "$pre" "$OUT/frames-$tag-post.csv" -o "$XRLM_TEST_WORK/$tag.csv" \
		>/dev/null 2>&1 || fail "xrlm merge failed for $tag"
	cmp "$m" "$XRLM_TEST_WORK/$tag.csv" || fail "xrlm merge differs from the layer's for $tag"
done
