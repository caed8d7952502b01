#!/bin/sh
# Recording control by environment: XRLM_RECORD=1 starts at the first frame,
# XRLM_RECORD_FRAMES stops after exactly N frames, and both sides record the
# very same frames. `xrlm merge` reproduces the layer's merged file exactly.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=100
run_app --graphics headless --frames 300

merged=$(merged_files)
[ "$(echo "$merged" | wc -l)" -eq 1 ] && [ -n "$merged" ] || fail "expected one merged file, got: $merged"
[ "$(header_value "$merged" frame_count)" -eq 100 ] || fail "frame_count is not 100"
pre=$(ls "$OUT"/frames-*-pre.csv)
same_frames "$pre"
[ "$(data_rows "$pre" | wc -l)" -eq 100 ] || fail "pre recorded $(data_rows "$pre" | wc -l) rows, not 100"
grep -q "^# target_layer=$TARGET\$" "$pre" || fail "pre CSV does not name the target layer"
grep -q '^# session_end dropped_queue_full=0$' "$pre" || fail "pre CSV footer missing or drops"
# The interface's header lines come first, in their order (README, Files; ours after them).
for side in pre post; do
	f=$(echo "$pre" | sed "s/-pre\.csv\$/-$side.csv/")
	head -n 6 "$f" | sed 's/=.*//' | tr '\n' ' ' >"$XRLM_TEST_WORK/keys"
	[ "$(cat "$XRLM_TEST_WORK/keys")" = "# clock # clock_freq # side # layer # target_layer # fn " ] ||
		fail "$side frames file: first header lines $(cat "$XRLM_TEST_WORK/keys")"
done

post=$(echo "$pre" | sed 's/-pre\.csv$/-post.csv/')
"$XRLM_TEST_XRLM" merge "$pre" "$post" -o "$XRLM_TEST_WORK/again.csv" >"$XRLM_TEST_WORK/merge.log" 2>&1 ||
	fail "xrlm merge failed: $(cat "$XRLM_TEST_WORK/merge.log")"
cmp "$merged" "$XRLM_TEST_WORK/again.csv" || fail "xrlm merge output differs from the layer's"
note "100 frames recorded on both sides; xrlm merge reproduces the merged file"
