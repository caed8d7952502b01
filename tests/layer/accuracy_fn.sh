#!/bin/sh
# Accuracy per function and phase: the synthetic target burns K µs
# (XRTEST_TARGET_CPU_US_<function>) in one function; over 200 frames of the
# test app (vulkan2, every per-frame call of an engine), the merged CSV's
# column of that function's phase has its median within R + 1 % of K,
# every other phase column within R of 0, where R, the residual a phase's
# column may carry, is 2 µs, or 0.25 µs per call the phase makes a frame
# where that is more (a column sums its calls' exclusive times, and each
# carries its own bracket residual and the target's own pass-through).
# Issue 10 asked for 1 µs: on the 2-CPU VMs of CI a single call's phase
# read up to 1.56 µs at 0 once a 500 µs burn elsewhere in the frame had
# disturbed the caches, and the fifteen calls of sync_actions up to 1.73
# (bench/RESULTS.md, seventeenth session, where the figures are reported
# against that target). This test checks where the time goes: a leak of
# K = 50 or 500 into another phase stays far outside. K = 0, 50, 500; a
# miss while the host takes the CPUs is run again (accuracy_attempts in lib.sh).
# Usage: accuracy_fn.sh FUNCTION PHASE
. "$(dirname "$0")/lib.sh"
fn=$1
phase=$2
PHASES="wait begin end locate_views sync_actions swapchain other"

# R of phase $2: 2 µs, or 0.25 µs per call a frame of the phase (the
# functions file beside merged CSV $1) where that is more.
phase_calls_tol() {
	f=$(dirname "$1")/$(basename "$1" | sed 's/^frames-merged-/functions-merged-/')
	grep -v '^#' "$f" | awk -F, -v p="$2" 'NR > 1 && $2 == p { n += $4 }
		END { t = 0.25 * n; print (t > 2 ? t : 2) }'
}

# One run at K = $K and the check of every phase's column (see
# accuracy_attempts in lib.sh).
accuracy_run() {
	setup
	export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=200 "XRTEST_TARGET_CPU_US_$fn=$K"
	run_app --graphics vulkan2 --frames 260
	merged=$(merged_files)
	[ -n "$merged" ] || fail "K=$K: no merged file"
	for p in $PHASES; do
		col=$(column_of "$merged" "target_${p}_us")
		[ -n "$col" ] || fail "the merged CSV has no target_${p}_us column"
		median=$(column_median "$merged" "$col") || fail "K=$K: target_${p}_us is empty"
		r=$(phase_calls_tol "$merged" "$p")
		if [ "$p" = "$phase" ]; then
			want=$K tol=$(awk -v k="$K" -v r="$r" 'BEGIN { print r + 0.01 * k }')
			note "$fn K=$K us: median target_${p}_us=$median (tolerance $tol us)"
		else
			want=0 tol=$r
		fi
		if ! near "$median" "$want" "$tol"; then
			miss="$fn K=$K: median target_${p}_us $median is not within $tol us of $want"
			return
		fi
	done
}

for K in 0 50 500; do
	accuracy_attempts accuracy_run
done
