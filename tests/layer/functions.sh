#!/bin/sh
# XRLM_FUNCTIONS picks the functions recorded in the calls files: "frame"
# (the frame-loop phases), a list of names and phases, a bad name logged
# once per side and ignored, nothing valid = the default all. xrEndFrame is
# always recorded, and frame ids are counted even when xrWaitFrame is not.
. "$(dirname "$0")/lib.sh"
export XRTEST_FRAME_RATE=0

# recorded: the functions in both sides' calls files, one line, sorted.
recorded() {
	for side in pre post; do
		data_rows "$(ls "$OUT"/calls-*-$side.csv)" | cut -d, -f1 | sort -u | tr '\n' ' '
		echo
	done | sort -u
}

# check WANT: both sides recorded exactly the functions WANT (sorted, one line).
check() {
	got=$(recorded)
	[ "$got" = "$1" ] || fail "XRLM_FUNCTIONS=${XRLM_FUNCTIONS-}: recorded '$got', expected '$1'"
}

# check_all: every function was recorded: those of the frame loop and the others alike.
check_all() {
	for fn in xrWaitFrame xrEndFrame xrPollEvent; do
		recorded | grep -q "\<$fn\>" || fail "XRLM_FUNCTIONS=${XRLM_FUNCTIONS-}: $fn not recorded"
	done
}

FRAME_LOOP="xrWaitFrame xrBeginFrame xrEndFrame xrLocateViews xrSyncActions xrGetActionStateBoolean xrGetActionStateFloat xrGetActionStateVector2f xrGetActionStatePose xrAcquireSwapchainImage xrWaitSwapchainImage xrReleaseSwapchainImage"

setup
export XRLM_RECORD=1 XRLM_FUNCTIONS=frame
run_app --graphics vulkan2 --frames 40
for fn in $(recorded); do
	echo " $FRAME_LOOP " | grep -q " $fn " || fail "XRLM_FUNCTIONS=frame recorded $fn"
done
for fn in xrWaitFrame xrBeginFrame xrEndFrame xrLocateViews xrAcquireSwapchainImage; do
	recorded | grep -q "\<$fn\>" || fail "XRLM_FUNCTIONS=frame: $fn not recorded"
done
grep -q "functions recorded: 12 of" "$OUT/xrlm-pre.log" || fail "the log does not say how many functions are recorded"

setup
export XRLM_RECORD=1 XRLM_FUNCTIONS=" xrPollEvent , begin"
run_app --graphics vulkan2 --frames 40
check "xrBeginFrame xrEndFrame xrPollEvent "
# xrWaitFrame is not recorded, yet still counts the frames.
data_rows "$(ls "$OUT"/calls-*-pre.csv)" | awk -F, '$1 == "xrBeginFrame" { if (n && $5 != last + 1) exit 1; last = $5; n++ } END { exit n < 30 }' ||
	fail "xrBeginFrame's frame ids do not count frames when xrWaitFrame is not recorded"

setup
# A blank inside an item (a list without its commas) is no name either.
export XRLM_RECORD=1 XRLM_FUNCTIONS="xrNotAFunction,swapchain,nonsense,wait begin"
run_app --graphics vulkan2 --frames 40
check "xrAcquireSwapchainImage xrEndFrame xrReleaseSwapchainImage xrWaitSwapchainImage "
for side in pre post; do
	[ "$(grep -c 'setting ignored: XRLM_FUNCTIONS' "$OUT/xrlm-$side.log")" -eq 1 ] ||
		fail "$side does not log the bad names exactly once"
	grep -q 'XRLM_FUNCTIONS: .*"xrNotAFunction", "nonsense", "wait begin"$' "$OUT/xrlm-$side.log" ||
		fail "$side's log does not name the three bad names"
done

setup
export XRLM_RECORD=1 XRLM_RECORD_FRAMES=30 XRLM_FUNCTIONS=xrNotAFunction
run_app --graphics headless --frames 40
check_all
grep -q 'XRLM_FUNCTIONS: .*"xrNotAFunction"; using the default all' "$OUT/xrlm-pre.log" ||
	fail "nothing valid: the log does not say the default all is used"

setup
export XRLM_RECORD=1 XRLM_RECORD_FRAMES=30 XRLM_FUNCTIONS=
run_app --graphics headless --frames 40
check_all
grep -q 'XRLM_FUNCTIONS is empty; using the default all' "$OUT/xrlm-pre.log" ||
	fail "an empty XRLM_FUNCTIONS is not reported"
note "XRLM_FUNCTIONS: frame, names and phases, bad names, empty"
