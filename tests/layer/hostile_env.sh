#!/bin/sh
# Bad input never stops the application: an unusable output directory and
# malformed settings each get a clear line and a safe default, and the app
# runs all frames with exit status 0.
. "$(dirname "$0")/lib.sh"
export XRTEST_FRAME_RATE=0

setup
echo "not a directory" >"$XRLM_TEST_WORK/file"
export XRLM_RECORD=1 XRLM_OUTPUT_DIR=$XRLM_TEST_WORK/file/sub
run_app --graphics headless --frames 100
grep -q "cannot be used" "$XRLM_TEST_WORK/app.log" || fail "no message about the unusable directory"

setup
export XRLM_RECORD=banana XRLM_RECORD_FRAMES=-5 XRLM_RECORD_S=abc XRLM_RECORD_DELAY_S=1e999 \
	XRLM_SIGNAL=KILL
run_app --graphics headless --frames 50
for v in XRLM_RECORD= XRLM_RECORD_FRAMES= XRLM_RECORD_S= XRLM_RECORD_DELAY_S= XRLM_SIGNAL=; do
	grep -q "setting ignored: $v" "$OUT/xrlm-pre.log" || fail "no log line for bad $v"
done
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "recorded although XRLM_RECORD was invalid (default off)"
note "bad settings logged, defaults used, app unaffected"
