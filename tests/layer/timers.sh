#!/bin/sh
# XRLM_RECORD_DELAY_S and XRLM_RECORD_S at 90 Hz, judged by the times of
# the frames (the app's --frame-log: its CLOCK_MONOTONIC, the layers'
# clock, right around each xrEndFrame), not by how many there were: on a
# busy machine the app misses periods (the counts 90 +- 10 and 180 +- 10
# failed at a load of 15 to 25 on two CPUs; 36 frames in the limit's
# second beside ten busy loops). Recording starts and stops inside pre's
# xrEndFrame, at the first one after the writer saw the time come; so,
# for the frames recorded, f to l of the app's frames 0 to n-1:
#  - a 1 s delay: xrEndFrame(f) returned 1 s or more after xrEndFrame(0)
#    was called (exact: the delay counts from inside xrEndFrame(0)), and
#    xrEndFrame(f-1) was called less than 1 s + SLACK after xrEndFrame(0)
#    returned (the writer looks at the clock every 20 ms; SLACK, 250 ms,
#    is for its lateness on a busy machine: 22 ms at most seen beside ten
#    busy loops with the test at nice 19);
#  - a 1 s limit: xrEndFrame(l+1) returned 1 s or more after xrEndFrame(f)
#    was called, and xrEndFrame(l) was called less than 1 s + SLACK after
#    xrEndFrame(f) returned;
#  - the frames recorded are f to l, every one, and with a delay alone l
#    is the last frame;
#  - a delay of 0 records every frame, unpaced too (as XRLM_RECORD=1 does);
#  - XRLM_RECORD_FRAMES limits each of several toggled sessions.
. "$(dirname "$0")/lib.sh"

DELAY_NS=1000000000
LIMIT_NS=1000000000
SLACK_NS=250000000

# recorded VAR=VALUE...: 270 headless frames at 90 Hz (unless the knobs say
# otherwise) with these knobs and --frame-log; sets $merged.
recorded() {
	setup
	export XRTEST_FRAME_RATE=90 "$@"
	run_app --graphics headless --frames 270 --frame-log "$XRLM_TEST_WORK/frames.log"
	merged=$(merged_files)
	[ -n "$merged" ] || fail "no merged file"
	[ "$(echo "$merged" | wc -l)" -eq 1 ] || fail "more than one merged file: $merged"
}

# spans: from the merged file's display times and the app's frame log, the
# recorded frames and the spans above (ns; -1 where the frame is not there):
#   first last frames rows holes start_lo start_hi stop_lo stop_hi
spans() {
	data_rows "$merged" | cut -d, -f1 >"$XRLM_TEST_WORK/recorded"
	awk -F, '
		BEGIN { n = 0 } # a number: mawk takes an unset index for ""
		NR == FNR { rec[$1] = 1; rows++; next }
		FNR > 1 { d[n] = $1; b[n] = $2; a[n] = $3; n++ }
		END {
			f = -1
			for (i = 0; i < n; i++)
				if (d[i] in rec) { if (f < 0) f = i; l = i; found++ }
			if (f < 0) { print -1, -1, n, rows, 0, -1, -1, -1, -1; exit }
			holes = (l - f + 1) - found + (rows - found)
			start_lo = a[f] - b[0]
			start_hi = f > 0 ? b[f - 1] - a[0] : -1
			stop_lo = l + 1 < n ? a[l + 1] - b[f] : -1
			stop_hi = b[l] - a[f]
			printf "%d %d %d %d %d %.0f %.0f %.0f %.0f\n", f, l, n, rows, holes, start_lo, start_hi, stop_lo, stop_hi
		}
	' "$XRLM_TEST_WORK/recorded" "$XRLM_TEST_WORK/frames.log"
}

# ms NS: NS in milliseconds, for the notes.
ms() {
	awk -v v="$1" 'BEGIN { printf "%.1f", v / 1e6 }'
}

# check_delay: the start, from spans' fields (set -- first last ...).
check_delay() {
	[ "$1" -ge 1 ] || fail "recording started at frame $1, not after a delay"
	[ "$6" -ge $DELAY_NS ] || fail "recording started $(ms "$6") ms after the first frame, before the 1 s delay"
	[ "$7" -lt $((DELAY_NS + SLACK_NS)) ] ||
		fail "recording started at frame $1: frame $(($1 - 1)) was still not recorded $(ms "$7") ms after the first (delay 1 s)"
}

recorded XRLM_RECORD_DELAY_S=1 XRLM_RECORD_S=1
set -- $(spans)
note "delay 1 s + limit 1 s: frames $1 to $2 of $3 recorded ($4 rows, $5 holes);" \
	"start: $(ms "$6") ms >= 1000, $(ms "$7") ms < 1250; stop: $(ms "$8") ms >= 1000, $(ms "$9") ms < 1250"
[ "$5" -eq 0 ] || fail "the frames recorded are not $1 to $2 of the app's, every one"
check_delay "$@"
[ "$8" -ge 0 ] || fail "recorded to the last frame ($2): not stopped after 1 s"
[ "$8" -ge $LIMIT_NS ] || fail "recording stopped $(ms "$8") ms after it started, before the 1 s limit"
[ "$9" -lt $((LIMIT_NS + SLACK_NS)) ] || fail "frame $2 was recorded $(ms "$9") ms after the start (limit 1 s)"

recorded XRLM_RECORD_DELAY_S=1
set -- $(spans)
note "delay 1 s, no limit: frames $1 to $2 of $3 recorded ($4 rows, $5 holes);" \
	"start: $(ms "$6") ms >= 1000, $(ms "$7") ms < 1250"
[ "$5" -eq 0 ] || fail "the frames recorded are not $1 to $2 of the app's, every one"
check_delay "$@"
[ "$2" -eq $(($3 - 1)) ] || fail "recording stopped at frame $2 of $3 with no limit"

recorded XRLM_RECORD_DELAY_S=0 XRTEST_FRAME_RATE=0
n=$(header_value "$merged" frame_count)
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
