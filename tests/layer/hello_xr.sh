#!/bin/sh
# Debian's hello_xr on lavapipe through the monitor, with a real third-party
# layer as the target and core_validation below post: at least 300 merged
# rows, GPU values for at least 95 % of them, the gated GPU mode on Vulkan
# (hello_xr's Vulkan 1.0 instance), and no validation error that the same chain without the monitor
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
# Usage: hello_xr.sh Vulkan|Vulkan2|OpenGL TARGET_LAYER [VAR=VALUE...]
#   VAR=VALUE: settings for the run (e.g. the synthetic target's knobs).
. "$(dirname "$0")/lib.sh"
graphics=$1
target=$2
shift 2

setup
for setting in "$@"; do
	export "$setting"
done
export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=330 XRLM_RECORD=1
run_hello_xr "$graphics" "$PRE:$target:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/monitored"
merged=$(merged_files)
[ -n "$merged" ] || fail "no merged file"
n=$(header_value "$merged" frame_count)
note "hello_xr -g $graphics, target $target: $n merged frames"
[ "$n" -ge 300 ] || fail "only $n merged frames"
grep -q "^# target_layer=$target\$" "$OUT"/frames-*-pre.csv || fail "the target is not named"
gpu=$(header_value "$merged" gpu_frame_count)
note "$gpu frames with a GPU value ($(sed -n 's/^# gpu_mode=//p' "$OUT"/gpu-*-pre.csv) mode)"
awk -v g="$gpu" -v f="$n" 'BEGIN { exit !(g >= 0.95 * f) }' || fail "only $gpu of $n frames have a GPU value"
# hello_xr asks for a Vulkan 1.0 instance: auto still runs gated (the event
# gate). OpenGL has no gated mode.
if [ "$graphics" != OpenGL ]; then
	grep -q "^# gpu_mode=gated$" "$OUT"/gpu-*-pre.csv || fail "hello_xr's session did not run in gated mode"
	grep -q "gated mode (event gate)" "$OUT/xrlm-pre.log" || fail "the pre log does not name the event gate"
fi
if [ -s "$XRLM_TEST_WORK/monitored/errors" ]; then
	head -n 5 "$XRLM_TEST_WORK/monitored/errors" >&2
	fail "core_validation reported errors with the monitor in the chain"
fi
# OpenGL has no known false positive: core_validation says nothing at all.
if [ "$graphics" = OpenGL ] && [ -s "$XRLM_TEST_WORK/monitored/core_validation.txt" ]; then
	head -n 5 "$XRLM_TEST_WORK/monitored/core_validation.txt" >&2
	fail "core_validation reported something with the monitor in the chain"
fi

# The same chain without the monitor reports the same findings (none).
export XRTEST_EXIT_AFTER_FRAMES=30
run_hello_xr "$graphics" "$target:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/baseline"
tolerated=$(grep -c "$KNOWN_FALSE_POSITIVE" "$XRLM_TEST_WORK/monitored/core_validation.txt" || true)
baseline=$(grep -c "$KNOWN_FALSE_POSITIVE" "$XRLM_TEST_WORK/baseline/core_validation.txt" || true)
[ "$tolerated" -eq "$baseline" ] ||
	fail "the known false positive appears $tolerated times with the monitor, $baseline without"
note "core_validation: no errors (known api_dump false positive: $tolerated with, $baseline without the monitor)"
