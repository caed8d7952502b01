#!/bin/sh
# Regression test of a fixed bug (see GUARANTEES.md, "Bugs these tests
# found"): a session that ended while its file was dirty left the writer's
# dirty flag set; the next due flush then ran on the closed file, failed, and
# logged "flushing ... failed: <stale errno>; recording stopped" (and
# requested a stop) although nothing failed. Closing a session now clears
# the flag (layer/xl_writer.c).
# Here: one session of 100 frames at 1 kHz, then 1.1 s more frames with
# recording off (a flush falls due after the close); no side may claim a
# write failure.
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=1000 XRLM_RECORD=1 XRLM_RECORD_FRAMES=100
run_app --graphics headless --frames 1200
[ "$(check_all_sessions)" -eq 1 ] || fail "not one session"
if grep -h "failed" "$OUT"/xrlm-*.log >&2; then
	fail "a side reported a write failure that did not happen"
fi
note "no false write error"
