#!/bin/sh
# Accuracy of the CPU sandwich: with the synthetic target burning K µs in its
# xrEndFrame, the median target_us over 400 frames is within 1 µs + 1 % of K.
# For K = 0 (a pass-through layer) it is within 1 µs of zero: the pass-through
# floor is a few tens of nanoseconds. A miss while the host takes the CPUs
# is run again (accuracy_attempts in lib.sh).
# Usage: accuracy.sh K
. "$(dirname "$0")/lib.sh"
K=$1

# One run of 400 frames and its check (see accuracy_attempts in lib.sh).
accuracy_run() {
	setup
	export XRTEST_FRAME_RATE=0 XRTEST_TARGET_CPU_US="$K" XRLM_RECORD=1
	run_app --graphics headless --frames 400
	merged=$(merged_files)
	[ "$(echo "$merged" | wc -l)" -eq 1 ] && [ -n "$merged" ] || fail "expected one merged file, got: $merged"
	count=$(header_value "$merged" frame_count)
	[ "$count" -ge 390 ] || fail "frame_count=$count, expected about 400"
	median=$(column_median "$merged" 6)
	tol=$(awk -v k="$K" 'BEGIN { print 1 + 0.01 * k }')
	note "K=$K us: median target_us=$median over $count frames (tolerance $tol us)"
	near "$median" "$K" "$tol" || miss="median target_us $median is not within $tol us of $K"
}

accuracy_attempts accuracy_run
