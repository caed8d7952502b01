#!/bin/sh
# Recording takes no page fault on the application's frame thread: the
# writers back their rings' pages ahead of the threads that record
# (layer/xl_ring.h, xl_ring_pool_populate), and xrCreateSession waits for
# their first pass when recording starts at the first frame. The app counts
# its frame thread's page faults in the measured frames (--stats,
# frame_faults=); every frame measured here is in the rings' first lap,
# where each page of 73 records would otherwise be touched first by the
# frame thread. The same runs without the layers take none (the app writes
# its own sample arrays before the loop), so any fault more is the layers'.
# Two runs: paced at 500 Hz after a 50-frame warm-up (the writers keep
# ahead of the threads), and unpaced from the third frame (the app creates
# its session ~1 ms after its instance: the rings must be backed by then).
# vulkan2 adds the GPU timestamps and the gate.
# Usage: frame_faults.sh headless|vulkan2
. "$(dirname "$0")/lib.sh"
graphics=$1

faults_of() {
	sed -n 's/^run .* frame_faults=\([0-9]*\).*/\1/p' "$XRLM_TEST_WORK/app.log"
}

# check RATE FRAMES WARMUP: the layers' faults over FRAMES - WARMUP frames.
check() {
	export XRTEST_FRAME_RATE=$1
	unset XRLM_RECORD
	rm -f "$OUT"/*
	XR_ENABLE_API_LAYERS= run_app --graphics "$graphics" --frames "$2" --warmup "$3" --stats
	base=$(faults_of)
	[ -n "$base" ] || fail "no frame_faults in the app's run line"
	export XRLM_RECORD=1
	run_app --graphics "$graphics" --frames "$2" --warmup "$3" --stats
	rec=$(faults_of)
	[ -n "$rec" ] || fail "no frame_faults in the app's run line"
	calls=$(data_rows "$(ls "$OUT"/calls-*-post.csv)" | wc -l)
	[ "$calls" -ge 12000 ] || fail "post recorded only $calls calls: the test needs most of a ring's first lap"
	note "$graphics at $1 Hz: frame thread page faults over $(($2 - $3)) frames: $base without the layers, $rec recording ($calls calls a side)"
	# The layers' own would be ~200 a side; the slack is for the kernel's
	# (e.g. NUMA balancing's hinting faults, which take pages from any thread).
	[ "$rec" -le $((base + 20)) ] || fail "recording cost the frame thread $((rec - base)) page faults"
	[ "$base" -le 50 ] || fail "the app alone took $base page faults in its frame loop: the test cannot tell the layers' apart"
}

setup
check 500 650 50
check 0 500 2
