#!/bin/sh
# Toggling by signal: start and stop twice in one process gives two
# sessions with distinct tags and two merged files, each matching
# `xrlm merge` byte for byte, with identical frames on both sides. Each
# toggle says so in one line on stderr (with the session tag), and every
# per-side file names its session in a "# session=" line.
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
	for side in pre post; do
		[ "$(header_value "$OUT/frames-$tag-$side.csv" session)" = "$tag" ] ||
			fail "frames-$tag-$side.csv does not say # session=$tag"
	done
	for what in started stopped; do
		n=$(grep -c "^xrlm pre: recording $what by signal: session $tag\$" "$XRLM_TEST_WORK/app.log" || true)
		[ "$n" -eq 1 ] || fail "$n stderr lines say session $tag was $what by signal, want 1"
	done
done
[ "$(grep -c "by signal" "$XRLM_TEST_WORK/app.log")" -eq 4 ] || fail "not one line per toggle"
