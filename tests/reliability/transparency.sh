#!/bin/sh
# Transparency: hello_xr with api_dump as the target and core_validation
# below post behaves the same with and without the monitor: exit status 0
# both times, the same calls with the same arguments and results in
# api_dump's log (pointers, handles, times and other per-run numbers
# masked), the same hello_xr output apart from our own lines, and no
# core_validation finding. The only calls the monitor adds are its own
# look-ups at instance creation (xrGetInstanceProcAddr of the functions it
# wraps, and one xrGetInstanceProperties for its log), listed below.
# Usage: transparency.sh Vulkan|Vulkan2
. "$(dirname "$0")/rel_lib.sh"
graphics=$1
DUMP=XR_APILAYER_LUNARG_api_dump
CV=XR_APILAYER_LUNARG_core_validation

# run LAYERS DIR: hello_xr (stdin a FIFO held open: it quits at end of file).
run() {
	mkdir -p "$2"
	rm -f "$2/stdin" && mkfifo "$2/stdin"
	exec 3<>"$2/stdin"
	rc=0
	XR_ENABLE_API_LAYERS=$1 XR_API_DUMP_EXPORT_TYPE=text XR_API_DUMP_FILE_NAME=$2/api_dump.txt \
		XR_CORE_VALIDATION_EXPORT_TYPE=text XR_CORE_VALIDATION_FILE_NAME=$2/cv.txt \
		LD_PRELOAD=${XRLM_TEST_PRELOAD:-} ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
		timeout 120 hello_xr -g "$graphics" <&3 >"$2/hello_xr.log" 2>&1 || rc=$?
	exec 3>&-
	[ $rc -eq 0 ] || fail "hello_xr exited $rc with $1: $(tail -n 5 "$2/hello_xr.log")"
	# The one known third-party false positive (see tests/layer/hello_xr.sh).
	touch "$2/cv.txt"
	! grep VALID_ERROR "$2/cv.txt" | grep -v VUID-xrStructureTypeToString-value-parameter >&2 ||
		fail "core_validation reported errors with $1"
	# One line per call. Every number and address is per run; names, types
	# and enums are not. api_dump prints some fields from uninitialised
	# memory (unprintable bytes): those values are masked too. So is a
	# structure type it could not name: when core_validation refuses its
	# xrStructureTypeToString (the false positive above), it prints whatever
	# was in its buffer, sometimes nothing at all, and sometimes a newline
	# byte with more after it: a line that starts neither a call
	# ("XrResult ...") nor an indented field is the rest of such a value,
	# and is dropped.
	LC_ALL=C sed -E '/^(XrResult | )/!d
		/[^[:print:]	]/s/=.*/= UNPRINTABLE/
		/^ *XrStructureType /{/= XR_TYPE_/!s/^( *XrStructureType [^ =]+).*/\1 = UNPRINTABLE/}
		s/(0x)+[0-9a-fA-F]+/ADDR/g; s/[0-9]+/N/g' \
		"$2/api_dump.txt" | awk '/^XrResult / && NR > 1 { print line; line = "" }
		{ sub(/^ +/, ""); line = line (line == "" ? "" : " | ") $0 } END { print line }' >"$2/calls"
	# Both layers must have run, or the comparisons below compare nothing:
	# api_dump logged every frame's xrEndFrame, core_validation said hello.
	n=$(grep -c '^XrResult xrEndFrame ' "$2/calls" || true)
	[ "$n" -ge "$XRTEST_EXIT_AFTER_FRAMES" ] ||
		fail "api_dump logged $n xrEndFrame calls of $XRTEST_EXIT_AFTER_FRAMES with $1"
	grep -q "^Core Validation output type: text" "$2/hello_xr.log" ||
		fail "core_validation did not run with $1"
	# stdout and stderr interleave differently from run to run: compare sorted.
	grep -v '^\[xrlm\|^xrlm \|^\[xrlm-test' "$2/hello_xr.log" |
		sed -E 's/0x[0-9a-fA-F]+/ADDR/g; s/[0-9]+/N/g' | sort >"$2/out"
}

setup
export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=120 XRLM_RECORD=1
run "$DUMP:$CV" "$XRLM_TEST_WORK/plain"
run "$PRE:$DUMP:$POST:$CV" "$XRLM_TEST_WORK/monitored"
[ -n "$(merged_files)" ] || fail "the monitor recorded nothing"

cmp -s "$XRLM_TEST_WORK/plain/out" "$XRLM_TEST_WORK/monitored/out" || {
	diff "$XRLM_TEST_WORK/plain/out" "$XRLM_TEST_WORK/monitored/out" | head -n 20 >&2
	fail "hello_xr's output differs with the monitor"
}
# The monitor's own calls, made through the chain while it sets up.
OWN='^XrResult xrGetInstanceProcAddr \| XrInstance instance = ADDR \| const char\* name = (xrDestroyInstance|xrEndFrame|xrWaitFrame|xrGetInstanceProperties|xrCreateSession|xrDestroySession|xrCreateVulkanInstanceKHR|xrCreateVulkanDeviceKHR|xrGetVulkanGraphicsDeviceKHR|xrGetVulkanGraphicsDevice2KHR) \| PFN_xrVoidFunction\* function = ADDR$|^XrResult xrGetInstanceProperties \| XrInstance instance = ADDR \| XrInstanceProperties\* instanceProperties = ADDR$'
diff "$XRLM_TEST_WORK/plain/calls" "$XRLM_TEST_WORK/monitored/calls" >"$XRLM_TEST_WORK/calls.diff" || true
grep '^[<>]' "$XRLM_TEST_WORK/calls.diff" | sed 's/^> //' | grep -Ev "$OWN" >"$XRLM_TEST_WORK/calls.extra" || true
if [ -s "$XRLM_TEST_WORK/calls.extra" ]; then
	head -n 10 "$XRLM_TEST_WORK/calls.extra" >&2
	fail "api_dump saw different calls with the monitor ('<' without, '>' with)"
fi
note "hello_xr -g $graphics: $(wc -l <"$XRLM_TEST_WORK/plain/calls") calls identical with the monitor, plus its own $(grep -c '^>' "$XRLM_TEST_WORK/calls.diff" || true) look-ups; same output, exit 0"
