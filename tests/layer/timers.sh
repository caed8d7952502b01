#!/bin/sh
# XRLM_RECORD_DELAY_S and XRLM_RECORD_S at 90 Hz: a 1 s delay and a 1 s
# limit record about 90 frames; a 1 s delay alone records all but ~90; a
# delay of 0 records every frame, unpaced too (as XRLM_RECORD=1 does); and
# XRLM_RECORD_FRAMES limits each of several toggled sessions.
. "$(dirname "$0")/lib.sh"

# recorded VAR=VALUE...: 270 headless frames at 90 Hz (unless the knobs say
# otherwise) with these knobs; prints
# the number of frames the merged file holds (run it in $(...): it exports).
recorded() {
	setup
	export XRTEST_FRAME_RATE=90 "$@"
	run_app --graphics headless --frames 270
	merged=$(merged_files)
	[ -n "$merged" ] || fail "no merged file"
	header_value "$merged" frame_count
}

n=$(recorded XRLM_RECORD_DELAY_S=1 XRLM_RECORD_S=1)
note "delay 1 s + limit 1 s: $n frames"
[ "$n" -ge 80 ] && [ "$n" -le 100 ] || fail "recorded $n frames, expected 90 +- 10"

n=$(recorded XRLM_RECORD_DELAY_S=1)
note "delay 1 s, no limit, 270 frames: $n frames"
[ "$n" -ge 170 ] && [ "$n" -le 190 ] || fail "recorded $n frames, expected 180 +- 10"

n=$(recorded XRLM_RECORD_DELAY_S=0 XRTEST_FRAME_RATE=0)
note "delay 0, unpaced, 270 frames: $n frames"
[ "$n" -eq 270 ] || fail "recorded $n frames of 270 with a delay of 0"

# XRLM_RECORD_FRAMES limits every session, not just the first: the app
# raises the toggle signal after frames 60, 120, 180 and 240 (between
# frames: deterministic), each starting a session that the limit ends
# after 20 frames. Each of the four holds 20 (a count carried over from
# the last session ended the next one at its first frame).
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD_FRAMES=20
run_app --graphics headless --frames 270 --toggle-every 60
merged=$(merged_files)
[ "$(echo "$merged" | wc -l)" -eq 4 ] || fail "expected four merged files, got: $merged"
for m in $merged; do
	n=$(header_value "$m" frame_count)
	[ "$n" -eq 20 ] || fail "$(basename "$m"): $n frames, not the limit's 20"
done
note "XRLM_RECORD_FRAMES=20, four toggled sessions: 20 frames each"
