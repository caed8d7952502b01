#!/bin/sh
# Threads come and go: the test app with --threads new runs each iteration
# (events and one frame) on a thread of its own, started once the previous
# one has exited; 200 of them in one recording session, far more than the
# layers' rings (XL_RING_THREADS = 32, layer/xl_ring.h). A ring goes back
# to the pool once its thread has exited and the writer has drained it, so
# every thread gets one: each side's files hold all 200 frames, each on
# its own thread, with that thread's other frame calls, and no drop is
# counted (before, the 33rd thread on recorded nothing).
# Usage: threads_new.sh headless|vulkan2
. "$(dirname "$0")/lib.sh"
graphics=$1
setup
# Paced (the runtime's 90 Hz): the writer drains every 2 ms, far more often
# than a thread exits; no drop is then expected, on any machine.
export XRLM_RECORD=1 XRLM_RECORD_FRAMES=200
run_app --graphics "$graphics" --frames 250 --threads new

merged=$(merged_files)
[ "$(echo "$merged" | wc -l)" -eq 1 ] && [ -n "$merged" ] || fail "expected one merged file, got: $merged"
count=$(header_value "$merged" frame_count)
[ "$count" -eq 200 ] || fail "frame_count is $count, not 200"
for side in pre post; do
	frames=$(ls "$OUT"/frames-*-$side.csv)
	calls=$(ls "$OUT"/calls-*-$side.csv)
	rows=$(data_rows "$frames" | wc -l)
	[ "$rows" -eq 200 ] || fail "$side recorded $rows frames, not 200: $(tail -n 1 "$frames")"
	for f in "$frames" "$calls"; do
		[ "$(tail -n 1 "$f")" = "# session_end dropped_queue_full=0" ] ||
			fail "$side: $(basename "$f") counts drops: $(tail -n 1 "$f")"
	done
	# Each frame on a thread of its own (TIDs are not reused this soon).
	data_rows "$frames" | cut -d, -f2 | sort -u >"$XRLM_TEST_WORK/$side.tids"
	tids=$(wc -l <"$XRLM_TEST_WORK/$side.tids")
	[ "$tids" -ge 200 ] || fail "$side: the 200 frames came from $tids threads, not 200"
	# Each of those threads' xrWaitFrame and xrBeginFrame are recorded too,
	# but the first's: the recording starts at its xrEndFrame.
	data_rows "$frames" | tail -n +2 | cut -d, -f2 | sort -u >"$XRLM_TEST_WORK/$side.later"
	data_rows "$calls" | awk -F, '$1 == "xrWaitFrame" || $1 == "xrBeginFrame" { n[$2]++ }
		END { for (t in n) if (n[t] >= 2) print t }' | sort >"$XRLM_TEST_WORK/$side.framed"
	missing=$(comm -23 "$XRLM_TEST_WORK/$side.later" "$XRLM_TEST_WORK/$side.framed" | wc -l)
	[ "$missing" -eq 0 ] ||
		fail "$side: $missing frame threads lack their xrWaitFrame/xrBeginFrame rows"
	# No frame of the session was dropped for want of a ring (the log's
	# per-session count; the footers count every drop together).
	grep -q " 0 no ring free)" "$OUT/xrlm-$side.log" ||
		fail "$side log: $(grep "no ring free" "$OUT/xrlm-$side.log")"
done
same_frames "$(ls "$OUT"/frames-*-pre.csv)"
note "200 frames on 200 threads, one after another: all recorded on both sides, none dropped"
