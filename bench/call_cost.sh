#!/bin/sh
# Issue 10 item 7: what the monitor adds to one wrapped call, idle and
# recording, at a 30-call mix per frame and 1000 Hz (xrlm-bench-frames
# calls: each frame's 30 calls timed as one block, the app sleeping to the
# next millisecond between frames). Each configuration is its own process,
# interleaved none/pass/idle/rec/recframe REPS times; a repetition's figure is
# the median of its frames' per-call times; a configuration's cost is the
# paired difference against "none" of the same repetition, per side half
# the pair's; the table gives the median and p25-p75 over repetitions.
# "recframe" records with XRLM_FUNCTIONS=frame (5 of the 30 calls recorded).
#
#   BUILD=... WORK=... bench/call_cost.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-7}
rm -f "$WORK/calls" "$WORK/calls_drops"
for i in $(seq "$reps"); do
	for cfg in none pass idle rec recframe; do
		out=$(with_config $cfg "$FRAMES_BIN" calls --frames 3000 --block 1 --warmup 300 2>/dev/null)
		echo "$i $cfg $(echo "$out" | field p50) $(echo "$out" | field p10)" >>"$WORK/calls"
		# The calls files' footers: records dropped on a full ring.
		[ "$cfg" = none ] || [ "$cfg" = pass ] || [ "$cfg" = idle ] ||
			sed -n 's/^# session_end dropped_queue_full=//p' "$WORK"/out/calls-*.csv >>"$WORK/calls_drops"
	done
done

diff_of() {
	paired_diff "$WORK/calls" "$@"
}
quiet() {
	paired_quiet "$WORK/calls" "$1" "$2" frames
}
fmt() {
	fmt_quartiles
}
base=$(awk '$2 == "none" { print $3 }' "$WORK/calls" | quartiles | fmt)
drops=$(awk '{ s += $1 } END { print s + 0 }' "$WORK/calls_drops")
row "7 one call of the mix, no layers (30 calls a frame, 1000 Hz, headless)" "$base" "—" "—" "baseline: the loader and the test runtime"
row "7e one pass-through layer (target, knobs 0), per call" "$(diff_of pass 1 | quartiles | fmt)" "—" "—" "what any layer costs per call; $(quiet pass 1)"
row "7a idle, per wrapped call per side ((b)−(a))/2" "$(diff_of idle 2 | quartiles | fmt)" "≤ 5 ns" "—" "includes the loader's hop into each layer; $(quiet idle 2)"
row "7b recording every call, per call per side ((c)−(a))/2" "$(diff_of rec 2 | quartiles | fmt)" "≤ 100 ns" "~170 ns (2 QPC + ETW + mutex queue)" "dropped records: $drops (all runs); $(quiet rec 2)"
row "7c recording XRLM_FUNCTIONS=frame, per call per side" "$(diff_of recframe 2 | quartiles | fmt)" "—" "—" "5 of the 30 calls recorded (wait, begin, end, 2 xrLocateViews), the rest not wrapped; $(quiet recframe 2)"
