#!/bin/sh
# Lifecycle: four xrCreateInstance..xrDestroyInstance cycles in one process
# (--cycles 4), each session destroyed while recording (XRLM_RECORD=1, no
# limit: xrDestroySession/xrDestroyInstance end it).
#  - each layer library is unloaded as often as it is loaded (LD_DEBUG=files).
#    Debian's loader 1.0.20 keeps them loaded between instances and unloads
#    them at exit, so each cycle re-initialises the layer's state in a
#    library that stays mapped; a loader that reloads them is covered too;
#  - after each xrDestroyInstance the process has exactly the threads
#    (/proc/self/task) and descriptors (/proc/self/fd) it has without the
#    monitor: nothing leaked;
#  - each cycle's session has its own tag and complete, merged files;
#  - each cycle installs the toggle signal (the last one gave it back).
# Both runs use --threads 2: a sanitizer runtime that starts its own thread
# with the first pthread_create (TSan) then does so in both.
# With "kept", the app calls xrDestroyInstance with its session alive
# (--keep-session), and every reference to the Vulkan loader the layers
# took is given back all the same (an LD_PRELOAD shim counts them).
# Usage: lifecycle.sh headless|vulkan|vulkan2 [kept]
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=0
CYCLES=4

keep=
[ "${2:-}" != kept ] || keep=--keep-session
# The shim must come before an ASan build's runtime, whose own dlopen would
# otherwise be found first (the app, instrumented, loads that runtime).
[ -z "$keep" ] || [ "${XRLM_TEST_SANITIZE:-}" != address ] ||
	export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
unset XR_ENABLE_API_LAYERS
run_app --graphics "$1" --frames 100 --cycles $CYCLES --threads 2 $keep
grep '^cycle ' "$XRLM_TEST_WORK/app.log" >"$XRLM_TEST_WORK/baseline"
[ "$(wc -l <"$XRLM_TEST_WORK/baseline")" -eq $CYCLES ] || fail "no cycle lines without the monitor"

export XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST XRLM_RECORD=1
preload=
[ -z "$keep" ] || preload=$XRLM_TEST_DL_COUNT
LD_PRELOAD=$preload LD_DEBUG=files run_app --graphics "$1" --frames 100 --cycles $CYCLES --threads 2 $keep
grep '^cycle ' "$XRLM_TEST_WORK/app.log" >"$XRLM_TEST_WORK/monitored"
if ! cmp -s "$XRLM_TEST_WORK/baseline" "$XRLM_TEST_WORK/monitored"; then
	paste "$XRLM_TEST_WORK/baseline" "$XRLM_TEST_WORK/monitored" >&2
	fail "threads or descriptors differ from a run without the monitor (left: without)"
fi
for side in pre post; do
	lib=libXrApiLayer_xrlm_monitor_$side.so
	inits=$(grep -c "calling init: .*$lib" "$XRLM_TEST_WORK/app.log" || true)
	finis=$(grep -c "calling fini: .*$lib" "$XRLM_TEST_WORK/app.log" || true)
	[ "$inits" -ge 1 ] && [ "$inits" -eq "$finis" ] || fail "$lib: loaded $inits times, unloaded $finis times"
done
[ "$(check_all_sessions)" -eq $CYCLES ] || fail "not one session per cycle"
# Each instance installs the toggle signal and gives it back at its end:
# the next one finds the default, not a handler of ours left behind.
n=$(grep -c "toggle signal: USR2 (12)" "$OUT/xrlm-pre.log" || true)
[ "$n" -eq $CYCLES ] || fail "the toggle signal was installed $n times, not once a cycle: $(grep 'toggle signal' "$OUT/xrlm-pre.log")"
[ "$(grep -l '^# session_end dropped_queue_full=0$' "$OUT"/frames-*-p*.csv | wc -l)" -eq $((2 * CYCLES)) ] ||
	fail "a session destroyed while recording has an unfinished file"
if [ -n "$keep" ]; then
	counts=$(sed -n 's/^\[dl-count\] libvulkan //p' "$XRLM_TEST_WORK/app.log")
	opened=$(echo "$counts" | sed -n 's/.*opened=\([0-9]*\).*/\1/p')
	closed=$(echo "$counts" | sed -n 's/.*closed=\([0-9]*\).*/\1/p')
	[ "${opened:-0}" -ge "$CYCLES" ] || fail "the shim saw ${opened:-no} references taken, not one a cycle at least"
	[ "$opened" = "$closed" ] || fail "references to the Vulkan loader taken $opened times, given back $closed"
	note "sessions kept alive into xrDestroyInstance: $opened references to the Vulkan loader taken, all given back"
fi
note "$1: $CYCLES cycles, libraries loaded/unloaded $inits time(s), $(tail -n 1 "$XRLM_TEST_WORK/monitored" | cut -d' ' -f3-) as without the monitor, $CYCLES sessions merged"
