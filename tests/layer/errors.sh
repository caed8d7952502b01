#!/bin/sh
# Transparency of errors: tl_errors (bad handles to frame-loop, space,
# swapchain, action and event functions; a name no function has; a
# function of an extension not enabled; the names pre and post pass each
# other) gets exactly the same results through pre:target:post,
# recording, as through the target alone: XR_ERROR_HANDLE_INVALID (-12)
# and XR_ERROR_FUNCTION_UNSUPPORTED (-7) among them. The bad-handle
# calls that reach the monitor are recorded with their error as the result.
# Usage: errors.sh PATH/TO/tl_errors
. "$(dirname "$0")/lib.sh"
errors=$1
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
XR_ENABLE_API_LAYERS=$TARGET "$errors" >"$XRLM_TEST_WORK/plain.txt" 2>"$XRLM_TEST_WORK/plain.err" ||
	fail "tl_errors failed without the monitor: $(cat "$XRLM_TEST_WORK/plain.err")"
"$errors" >"$XRLM_TEST_WORK/monitored.txt" 2>"$XRLM_TEST_WORK/monitored.err" ||
	fail "tl_errors failed with the monitor: $(cat "$XRLM_TEST_WORK/monitored.err")"
cmp -s "$XRLM_TEST_WORK/plain.txt" "$XRLM_TEST_WORK/monitored.txt" ||
	fail "results differ with the monitor ('<' without, '>' with): $(diff "$XRLM_TEST_WORK/plain.txt" "$XRLM_TEST_WORK/monitored.txt")"
grep -q "^xrGetInstanceProcAddr(xrNotAFunctionOfAnyVersion) = -7, NULL\$" "$XRLM_TEST_WORK/plain.txt" ||
	fail "an unknown name did not give XR_ERROR_FUNCTION_UNSUPPORTED: $(cat "$XRLM_TEST_WORK/plain.txt")"
grep -q "^xrGetInstanceProcAddr(xrGetVisibilityMaskKHR) = -7, NULL\$" "$XRLM_TEST_WORK/plain.txt" ||
	fail "a function of an extension not enabled did not give XR_ERROR_FUNCTION_UNSUPPORTED"
grep -q "^xrGetInstanceProcAddr(xrlmPrivateAttachControl) = -7, NULL\$" "$XRLM_TEST_WORK/plain.txt" ||
	fail "the monitor's private names are not unknown without it"
[ "$(grep -c "(bad .*) = -12\$" "$XRLM_TEST_WORK/plain.txt")" -eq 6 ] ||
	fail "not every bad handle gave XR_ERROR_HANDLE_INVALID: $(cat "$XRLM_TEST_WORK/plain.txt")"
# The loader 1.0.20 passes each of them down the chain, so both sides record them.
for side in pre post; do
	calls=$(ls "$OUT"/calls-*-$side.csv 2>/dev/null) || fail "$side recorded nothing"
	n=$(data_rows "$calls" | grep -c ',-12$' || true)
	[ "$n" -eq 6 ] || fail "$side recorded $n calls with XR_ERROR_HANDLE_INVALID, not 6"
done
note "same results with and without the monitor ($(grep -c . "$XRLM_TEST_WORK/plain.txt") lines); the 6 bad-handle calls recorded with -12 by both sides"
