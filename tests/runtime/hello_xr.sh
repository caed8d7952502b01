#!/bin/sh
# hello_xr against the test runtime, with api_dump and core_validation in
# the chain: it must run FRAMES frames, exit 0 by itself (through
# XRTEST_EXIT_AFTER_FRAMES and the session state path), and core_validation
# must report nothing. XRTEST_COMPOSITOR_* from the environment are kept,
# and the GPU work's calibration must then show up in the log.
#
# OpenGL needs an X display (run it under tests/common/with_xvfb.sh) and,
# on Xvfb, XRLM_TEST_VIDMODE_SHIM: the library preloaded into hello_xr
# (rt_vidmode_shim.c).
#
# usage: hello_xr.sh Vulkan|Vulkan2|OpenGL RUNTIME_JSON [FRAMES]
#        hello_xr.sh --self-test TC_INVALID_CALL RUNTIME_JSON
#   --self-test: shows that the core_validation check fails on a real
#   report, by running a program that makes one invalid call.
set -eu
. "$(dirname "$0")/rt_lib.sh"

layers=/usr/share/openxr/1/api_layers/explicit.d
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-rt-hello.XXXXXX")
sleeper=
cleanup() {
	[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

export XR_API_LAYER_PATH="$layers"
export XR_CORE_VALIDATION_FILE_NAME="$work/core_validation.txt"

if [ "$1" = --self-test ]; then
	export XR_RUNTIME_JSON="$3" XR_ENABLE_API_LAYERS=XR_APILAYER_LUNARG_core_validation
	"$2" > "$work/log" 2>&1 || { cat "$work/log"; rt_fail "$2 failed"; }
	grep -q '^\[VALID_ERROR ' "$work/core_validation.txt" ||
		rt_fail "core_validation did not report the invalid call"
	if rt_core_validation_clean "$work/core_validation.txt" 2>/dev/null; then
		rt_fail "the core_validation check passed a report of an invalid call"
	fi
	echo "PASS: the check catches: $(grep -m1 '^\[VALID_ERROR ' "$work/core_validation.txt")"
	exit 0
fi

graphics=$1
frames=${3:-300}
export XR_RUNTIME_JSON="$2"
export XR_ENABLE_API_LAYERS=XR_APILAYER_LUNARG_api_dump:XR_APILAYER_LUNARG_core_validation
export XR_API_DUMP_EXPORT_TYPE=text XR_API_DUMP_FILE_NAME="$work/api_dump.txt"
export XRTEST_EXIT_AFTER_FRAMES="$frames" XRTEST_FRAME_RATE=90

# hello_xr quits when a key arrives on stdin: give it one that stays open
# (a FIFO held by a sleep we kill on the way out).
mkfifo "$work/stdin"
sleep 600 > "$work/stdin" &
sleeper=$!

rc=0
start=$(date +%s)
(
	[ -z "${XRLM_TEST_VIDMODE_SHIM:-}" ] ||
		export LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$XRLM_TEST_VIDMODE_SHIM"
	exec timeout 120 hello_xr -g "$graphics"
) < "$work/stdin" > "$work/hello_xr.log" 2>&1 || rc=$?
elapsed=$(($(date +%s) - start))
if [ "$rc" -ne 0 ]; then
	tail -40 "$work/hello_xr.log"
	rt_fail "hello_xr -g $graphics exited with $rc"
fi

grep -q '^Core Validation output type' "$work/hello_xr.log" ||
	rt_fail "core_validation was not in the chain"
ended=$(grep -c '^XrResult xrEndFrame$' "$work/api_dump.txt" || true)
[ "$ended" -ge "$frames" ] || rt_fail "api_dump saw $ended xrEndFrame calls, expected >= $frames"
grep -q "\[xrlm-test-runtime\] $frames frames done" "$work/hello_xr.log" ||
	rt_fail "the runtime did not end the session after $frames frames"
if [ "$graphics" = OpenGL ]; then
	grep -q '^XrResult xrGetOpenGLGraphicsRequirementsKHR$' "$work/api_dump.txt" &&
		grep -q '\[xrlm-test-runtime\] session created (OpenGL)' "$work/hello_xr.log" ||
		rt_fail "hello_xr did not run an OpenGL session"
	grep -q '\[xrlm-test-runtime\] GL swapchain .*: textures [1-9]' "$work/hello_xr.log" ||
		rt_fail "no OpenGL swapchain was created"
	grep -q '^XrResult xrEnumerateSwapchainImages$' "$work/api_dump.txt" ||
		rt_fail "hello_xr did not enumerate the swapchain images"
fi
grep -q 'XR_SESSION_STATE_IDLE->XR_SESSION_STATE_EXITING' "$work/hello_xr.log" ||
	rt_fail "hello_xr never saw EXITING"
if [ "${XRTEST_COMPOSITOR_GPU_US:-0}" != 0 ]; then
	grep '\[xrlm-test-runtime\] GPU calibration' "$work/hello_xr.log" ||
		rt_fail "XRTEST_COMPOSITOR_GPU_US is set but the GPU work was never calibrated"
fi
if grep '\[xrlm-test-runtime\] warning' "$work/hello_xr.log"; then
	rt_fail "the runtime warned"
fi
rt_core_validation_clean "$work/core_validation.txt" || rt_fail "core_validation reported problems"
echo "PASS: hello_xr -g $graphics: $ended frames in ${elapsed}s, exit 0, core_validation clean"
