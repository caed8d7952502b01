#!/bin/sh
# Debian's hello_xr on lavapipe through the monitor, with a real third-party
# layer as the target and core_validation below post: at least 300 merged
# rows, GPU values for at least 95 % of them, and no validation error that the same chain without the monitor
# does not also report.
#
# Known third-party false positive, tolerated by name: api_dump itself calls
# xrStructureTypeToString(XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR), an alias of
# the XR_KHR_vulkan_enable value, and core_validation 1.0.20 flags that
# (VUID-xrStructureTypeToString-value-parameter) when only
# XR_KHR_vulkan_enable2 is enabled. It appears without the monitor too.
#
# OpenGL runs on an X display: under tests/common/with_xvfb.sh, with
# XRLM_TEST_VIDMODE_SHIM set (see tests/runtime/hello_xr.sh).
#
# Usage: hello_xr.sh Vulkan|Vulkan2|OpenGL TARGET_LAYER
. "$(dirname "$0")/lib.sh"
graphics=$1
target=$2
KNOWN_FALSE_POSITIVE=VUID-xrStructureTypeToString-value-parameter

# Runs hello_xr with layers $1 into directory $2; leaves core_validation's
# findings, minus the known false positive, in $2/errors.
run_hello_xr() {
	mkdir -p "$2"
	export XR_ENABLE_API_LAYERS=$1
	export XR_API_DUMP_EXPORT_TYPE=text XR_API_DUMP_FILE_NAME=$2/api_dump.txt
	export XR_CORE_VALIDATION_EXPORT_TYPE=text XR_CORE_VALIDATION_FILE_NAME=$2/core_validation.txt
	# hello_xr quits when its stdin reaches end of file: give it a FIFO held open.
	rm -f "$2/stdin" && mkfifo "$2/stdin"
	exec 3<>"$2/stdin"
	# OpenGL on Xvfb: the VidMode shim (tests/runtime/rt_vidmode_shim.c) goes in too.
	env ${XRLM_TEST_VIDMODE_SHIM:+LD_PRELOAD=${LD_PRELOAD:+$LD_PRELOAD }$XRLM_TEST_VIDMODE_SHIM} \
		timeout 60 hello_xr -g "$graphics" <&3 >"$2/hello_xr.log" 2>&1 ||
		fail "hello_xr failed: $(tail -n 20 "$2/hello_xr.log")"
	exec 3>&-
	# core_validation announces itself, and writes its report only when it has findings.
	grep -q "Core Validation output type" "$2/hello_xr.log" || fail "core_validation was not loaded"
	touch "$2/core_validation.txt"
	grep -i "error" "$2/core_validation.txt" | grep -v "$KNOWN_FALSE_POSITIVE" | sort -u >"$2/errors" || true
}

setup
export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=330 XRLM_RECORD=1
run_hello_xr "$PRE:$target:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/monitored"
merged=$(merged_files)
[ -n "$merged" ] || fail "no merged file"
n=$(header_value "$merged" frame_count)
note "hello_xr -g $graphics, target $target: $n merged frames"
[ "$n" -ge 300 ] || fail "only $n merged frames"
grep -q "^# target_layer=$target\$" "$OUT"/frames-*-pre.csv || fail "the target is not named"
gpu=$(header_value "$merged" gpu_frame_count)
note "$gpu frames with a GPU value ($(sed -n 's/^# gpu_mode=//p' "$OUT"/gpu-*-pre.csv) mode)"
awk -v g="$gpu" -v f="$n" 'BEGIN { exit !(g >= 0.95 * f) }' || fail "only $gpu of $n frames have a GPU value"
if [ -s "$XRLM_TEST_WORK/monitored/errors" ]; then
	head -n 5 "$XRLM_TEST_WORK/monitored/errors" >&2
	fail "core_validation reported errors with the monitor in the chain"
fi

# The same chain without the monitor reports the same findings (none).
export XRTEST_EXIT_AFTER_FRAMES=30
run_hello_xr "$target:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/baseline"
tolerated=$(grep -c "$KNOWN_FALSE_POSITIVE" "$XRLM_TEST_WORK/monitored/core_validation.txt" || true)
baseline=$(grep -c "$KNOWN_FALSE_POSITIVE" "$XRLM_TEST_WORK/baseline/core_validation.txt" || true)
[ "$tolerated" -eq "$baseline" ] ||
	fail "the known false positive appears $tolerated times with the monitor, $baseline without"
note "core_validation: no errors (known api_dump false positive: $tolerated with, $baseline without the monitor)"
