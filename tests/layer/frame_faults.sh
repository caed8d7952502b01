#!/bin/sh
# Recording takes no page fault on the application's frame thread: the
# writers back their rings' pages ahead of the threads that record
# (layer/xl_ring.h, xl_ring_pool_populate). The app counts its frame
# thread's page faults after the warm-up (--stats, frame_faults=); the
# frames it measures are all in the rings' first lap (26 records a frame
# a side, 600 frames), where each page of 73 records would otherwise be
# touched first by the frame thread. The same run without the layers takes
# none (the app writes its own sample arrays before the loop), so any fault
# more here is the layers'. vulkan2 adds the GPU timestamps and the gate.
# Usage: frame_faults.sh headless|vulkan2
. "$(dirname "$0")/lib.sh"
graphics=$1

faults_of() {
	sed -n 's/^run .* frame_faults=\([0-9]*\).*/\1/p' "$XRLM_TEST_WORK/app.log"
}

setup
export XRTEST_FRAME_RATE=500
XR_ENABLE_API_LAYERS= run_app --graphics "$graphics" --frames 650 --warmup 50 --stats
base=$(faults_of)
[ -n "$base" ] || fail "no frame_faults in the app's run line"
export XRLM_RECORD=1
run_app --graphics "$graphics" --frames 650 --warmup 50 --stats
rec=$(faults_of)
[ -n "$rec" ] || fail "no frame_faults in the app's run line"
calls=$(data_rows "$(ls "$OUT"/calls-*-post.csv)" | wc -l)
[ "$calls" -ge 12000 ] || fail "post recorded only $calls calls: the test needs most of a ring's first lap"
note "$graphics: frame thread page faults over 600 frames: $base without the layers, $rec recording ($calls calls a side)"
# The layers' own would be ~220 a side; the slack is for the kernel's
# (e.g. NUMA balancing's hinting faults, which take pages from any thread).
[ "$rec" -le $((base + 20)) ] || fail "recording cost the frame thread $((rec - base)) page faults"
[ "$base" -le 50 ] || fail "the app alone took $base page faults in its frame loop: the test cannot tell the layers' apart"
