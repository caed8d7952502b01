#!/bin/sh
# The toggle signal is never taken from the application: with SIGUSR2
# already ignored by the process (a shell's `trap '' USR2` survives exec),
# the layer leaves it alone, says so on stderr naming XRLM_SIGNAL, and a
# SIGUSR2 then neither toggles nor kills; XRLM_SIGNAL=RTMIN+3 works instead.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=90
(trap '' USR2; exec "$XRLM_TEST_APP" --graphics headless --frames 120) >"$XRLM_TEST_WORK/app.log" 2>&1 &
app=$!
wait_for_line "$XRLM_TEST_WORK/app.log" "XRLM_SIGNAL"
kill -USR2 "$app"
wait "$app" || fail "the app did not survive its own ignored SIGUSR2"
grep -q "toggle signal USR2 (12) is already ignored by the application" "$XRLM_TEST_WORK/app.log" ||
	fail "no message saying the signal was left alone"
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "an ignored signal toggled recording"

setup
export XRTEST_FRAME_RATE=90 XRLM_SIGNAL=RTMIN+3
(trap '' USR2; exec "$XRLM_TEST_APP" --graphics headless --frames 120) >"$XRLM_TEST_WORK/app.log" 2>&1 &
app=$!
wait_for_line "$OUT/xrlm-pre.log" "toggle signal: RTMIN+3"
kill -s RTMIN+3 "$app" 2>/dev/null || kill -37 "$app"
sleep 0.5
kill -s RTMIN+3 "$app" 2>/dev/null || kill -37 "$app"
wait "$app" || fail "the app exited non-zero"
[ -n "$(merged_files)" ] || fail "XRLM_SIGNAL=RTMIN+3 did not toggle recording"
note "an application's signal is left alone; another one can be chosen"
