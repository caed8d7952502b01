#!/bin/sh
# XRLM_FUNCTIONS picks the functions recorded in the calls files: "frame"
# (the frame-loop phases), a list of names and phases, a bad name logged
# once per side and ignored, nothing valid = the default all. xrEndFrame is
# always recorded, and frame ids are counted even when xrWaitFrame or
# xrBeginFrame is not.
# A list of any length is read whole.
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

# check_phases WANT: both calls files and the merged file say the phases
# WANT are wholly recorded; the merged rows have values in those phases'
# columns only, and a target_total_us only when every phase is.
check_phases() {
	for f in "$OUT"/calls-*-pre.csv "$OUT"/calls-*-post.csv "$(merged_files)"; do
		[ "$(header_value "$f" phases_recorded)" = "$1" ] ||
			fail "XRLM_FUNCTIONS=${XRLM_FUNCTIONS-}: $f says phases_recorded='$(header_value "$f" phases_recorded)', expected '$1'"
	done
	m=$(merged_files)
	for ph in wait begin end locate_views sync_actions swapchain other total; do
		want=blank
		case ",$1," in *",$ph,"*) want=value ;; esac
		[ "$ph" = total ] && [ "$1" = "$ALL_PHASES" ] && want=value
		# Rows 2 on: the first frame began before the recording.
		got=$(data_rows "$m" | tail -n +2 | cut -d, -f"$(column_of "$m" "target_${ph}_us")" |
			awk '{ n[$0 == "" ? "blank" : "value"]++ } END { print (n["blank"] && n["value"]) ? "both" : n["blank"] ? "blank" : "value" }')
		[ "$got" = "$want" ] ||
			fail "XRLM_FUNCTIONS=${XRLM_FUNCTIONS-}: target_${ph}_us is $got, expected $want"
	done
}

ALL_PHASES=wait,begin,end,locate_views,sync_actions,swapchain,other

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
# The other phase is not recorded: its column and the total are unknown, not 0.
check_phases wait,begin,end,locate_views,sync_actions,swapchain

setup
# The functions never recorded are not counted as recorded: the two whose
# hooks record nothing, the four the loader answers itself.
export XRLM_RECORD=1 XRLM_FUNCTIONS="xrDestroyInstance,xrGetInstanceProcAddr,xrCreateInstance,xrEnumerateApiLayerProperties,xrEnumerateInstanceExtensionProperties,xrInitializeLoaderKHR"
run_app --graphics vulkan2 --frames 20
check "xrEndFrame "
grep -q "functions recorded: 1 of" "$OUT/xrlm-pre.log" ||
	fail "XRLM_FUNCTIONS=$XRLM_FUNCTIONS: the log counts functions that are never recorded: $(grep 'functions recorded' "$OUT/xrlm-pre.log")"
# xrBeginFrame is not recorded, yet still gives xrEndFrame its frame:
# each frame's id is the one before it + 1, on both sides.
for side in pre post; do
	data_rows "$(ls "$OUT"/calls-*-$side.csv)" | awk -F, '$1 == "xrEndFrame" { if (n && $5 != last + 1) exit 1; last = $5; n++ } END { exit n < 15 }' ||
		fail "$side: xrEndFrame's frame ids do not count frames when xrBeginFrame is not recorded"
done

setup
export XRLM_RECORD=1 XRLM_FUNCTIONS=" xrPollEvent , begin"
run_app --graphics vulkan2 --frames 40
check "xrBeginFrame xrEndFrame xrPollEvent "
check_phases begin,end
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
check_phases "$ALL_PHASES"
grep -q 'XRLM_FUNCTIONS: .*"xrNotAFunction"; using the default all' "$OUT/xrlm-pre.log" ||
	fail "nothing valid: the log does not say the default all is used"

setup
export XRLM_RECORD=1 XRLM_RECORD_FRAMES=30 XRLM_FUNCTIONS=
run_app --graphics headless --frames 40
check_all
grep -q 'XRLM_FUNCTIONS is empty; using the default all' "$OUT/xrlm-pre.log" ||
	fail "an empty XRLM_FUNCTIONS is not reported"
setup
# A list of any length is read whole: 60 names (over 1400 bytes, past any
# fixed buffer of 1024) and, last, the one that must be recorded.
list=
for i in $(seq 60); do list="$list xrGetInstanceProperties ,"; done
export XRLM_RECORD=1 XRLM_FUNCTIONS="${list}xrPollEvent"
[ ${#XRLM_FUNCTIONS} -gt 1400 ] || fail "the long list is only ${#XRLM_FUNCTIONS} bytes"
run_app --graphics vulkan2 --frames 20
recorded | grep -q "\<xrPollEvent\>" ||
	fail "the last name of a ${#XRLM_FUNCTIONS}-byte XRLM_FUNCTIONS is not recorded: $(recorded)"
for side in pre post; do
	grep -q "functions recorded: 3 of" "$OUT/xrlm-$side.log" ||
		fail "$side: a long XRLM_FUNCTIONS: $(grep -E 'functions recorded|XRLM_FUNCTIONS' "$OUT/xrlm-$side.log")"
	! grep -q "setting ignored: XRLM_FUNCTIONS" "$OUT/xrlm-$side.log" ||
		fail "$side: a long list of good names is called bad: $(grep XRLM_FUNCTIONS "$OUT/xrlm-$side.log")"
done

# Every function but one is not "all": the log counts them.
setup
names=$(sed -n 's/^XL_FN([^,]*, \(xr[A-Za-z0-9]*\),.*/\1/p' "${XRLM_TEST_FN_LIST:?}" | grep -vx xrPollEvent |
	tr '\n' ',')
export XRLM_RECORD=1 XRLM_FUNCTIONS=${names%,}
run_app --graphics headless --frames 20
for side in pre post; do
	line=$(grep -o 'functions recorded: .*' "$OUT/xrlm-$side.log") || fail "$side: no functions line"
	set -- ${line#functions recorded: }
	[ "$#" -eq 3 ] && [ "$1" -eq $(($3 - 1)) ] ||
		fail "$side: every function but xrPollEvent selected, the log says: $line"
done
recorded | grep -q "\<xrPollEvent\>" && fail "xrPollEvent recorded, not selected"

note "XRLM_FUNCTIONS: frame, names and phases, bad names, empty, a long list, all but one"
