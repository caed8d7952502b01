#!/bin/sh
# Accuracy per function and phase: the synthetic target burns K µs
# (XRTEST_TARGET_CPU_US_<function>) in one function; over 200 frames of the
# test app (vulkan2, every per-frame call of an engine), the merged CSV's
# column of that function's phase has its median within 1 µs + 1 % of K,
# every other phase column within 1 µs of 0. K = 0, 50, 500 in turn.
# Usage: accuracy_fn.sh FUNCTION PHASE
. "$(dirname "$0")/lib.sh"
fn=$1
phase=$2
PHASES="wait begin end locate_views sync_actions swapchain other"

# Column number of $2 in the header of merged CSV $1.
column_of() {
	grep -v '^#' "$1" | head -n 1 | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

for K in 0 50 500; do
	setup
	export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=200 "XRTEST_TARGET_CPU_US_$fn=$K"
	run_app --graphics vulkan2 --frames 260
	merged=$(merged_files)
	[ -n "$merged" ] || fail "K=$K: no merged file"
	for p in $PHASES; do
		col=$(column_of "$merged" "target_${p}_us")
		[ -n "$col" ] || fail "the merged CSV has no target_${p}_us column"
		median=$(column_median "$merged" "$col") || fail "K=$K: target_${p}_us is empty"
		if [ "$p" = "$phase" ]; then
			want=$K tol=$(awk -v k="$K" 'BEGIN { print 1 + 0.01 * k }')
			note "$fn K=$K us: median target_${p}_us=$median (tolerance $tol us)"
		else
			want=0 tol=1
		fi
		near "$median" "$want" "$tol" ||
			fail "$fn K=$K: median target_${p}_us $median is not within $tol us of $want"
	done
done
