#!/bin/sh
# The runtime's time is not the target's: post's bracket holds the whole
# call below it, so pre - post leaves the runtime out. The test runtime
# paces xrWaitFrame at 90 Hz (blocking there most of each frame) and
# busy-waits XRTEST_COMPOSITOR_CPU_US=2000 in every xrEndFrame; the
# synthetic target burns nothing. The merged file's target_us and
# target_wait_us then have their medians below 500 us, where a post
# bracket closed before the call down returned puts the runtime's 2000 us,
# or the ~9 ms of the wait, in them. Not a timing bound: preemption inside
# the runtime falls in both brackets and cancels, and a preempted target
# moves a median by its own share, far below 500 us.
. "$(dirname "$0")/lib.sh"
RUNTIME_US=2000
BOUND=500
setup
export XRTEST_FRAME_RATE=90 XRTEST_COMPOSITOR_CPU_US=$RUNTIME_US XRLM_RECORD=1 \
	XRLM_RECORD_FRAMES=100
run_app --graphics headless --frames 120

merged=$(merged_files)
[ "$(echo "$merged" | wc -l)" -eq 1 ] && [ -n "$merged" ] || fail "expected one merged file, got: $merged"
rows=$(data_rows "$merged" | wc -l)
[ "$rows" -ge 95 ] || fail "only $rows merged rows"
# The runtime did take its time in every xrEndFrame (a busy wait on the
# clock: never less), else this test would prove nothing.
pre=$(ls "$OUT"/frames-*-pre.csv)
short=$(data_rows "$pre" | awk -F, -v us=$RUNTIME_US '$4 - $3 < us * 1000 { n++ } END { print n + 0 }')
[ "$short" -eq 0 ] || fail "$short of pre's xrEndFrame brackets are shorter than the runtime's $RUNTIME_US us"
for c in target_us target_wait_us; do
	col=$(column_of "$merged" $c)
	[ -n "$col" ] || fail "the merged CSV has no $c column"
	median=$(column_median "$merged" "$col") || fail "$c is empty"
	note "$c median $median us (the runtime: $RUNTIME_US us in xrEndFrame, the rest of the frame in xrWaitFrame)"
	awk -v m="$median" -v b=$BOUND 'BEGIN { exit !(m < b) }' ||
		fail "$c median $median us: the runtime's time is counted as the target's"
done
