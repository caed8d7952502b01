#!/bin/sh
# Item 1 (a, b, c, e) and the clock floor: per-frame cost of wait/begin/end
# frames in blocks of 1000 (one clock read per block), for each
# configuration as its own process, interleaved none/pass/idle/rec/clock
# REPS times. Each repetition's figure is the median of its 200 blocks; a
# layer's cost is the paired difference against "none" of the same
# repetition; the table gives the median and p25-p75 over repetitions.
#
#   BUILD=... WORK=... bench/frame_cost.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-15}
args="cost --frames 200000 --block 1000 --warmup 20000 --gap-ms 2"

: >"$WORK/cost"
: >"$WORK/cost_drops"
i=0
while [ "$i" -lt "$reps" ]; do
	for cfg in none pass idle rec; do
		out=$(with_config $cfg "$FRAMES_BIN" $args 2>/dev/null)
		echo "$i $cfg $(echo "$out" | field p50) $(echo "$out" | field p10)" >>"$WORK/cost"
		[ $cfg = rec ] && grep -h '^# dropped_queue_full' "$(merged_csv)" >>"$WORK/cost_drops"
	done
	out=$("$FRAMES_BIN" clock --frames 2000000 --block 1000)
	echo "$i clock $(echo "$out" | field p50) $(echo "$out" | field p10)" >>"$WORK/cost"
	i=$((i + 1))
done

diff_of() {
	paired_diff "$WORK/cost" "$@"
}
quiet() {
	paired_quiet "$WORK/cost" "$1" "$2" blocks
}
fmt() {
	fmt_quartiles
}
base=$(awk '$2 == "none" { print $3 }' "$WORK/cost" | quartiles | fmt)
clock=$(awk '$2 == "clock" { print $3 }' "$WORK/cost" | quartiles | fmt)
drops=$(awk -F= '{ s += $2 } END { print s + 0 }' "$WORK/cost_drops" 2>/dev/null || echo "?")
row "1a frame, no layers (wait+begin+end, headless, unpaced)" "$base" "—" "—" "baseline"
row "1e one pass-through layer (target, knobs 0)" "$(diff_of pass 1 | quartiles | fmt)" "—" "—" "what any layer costs; $(quiet pass 1)"
row "1b idle, per side ((b)−(a))/2" "$(diff_of idle 2 | quartiles | fmt)" "≤ 5 ns" "\"sub-µs\"" "pair pre+post, no target; $(quiet idle 2)"
row "1c recording, per side ((c)−(a))/2" "$(diff_of rec 2 | quartiles | fmt)" "≤ 80 ns" "~170 ns (2 QPC + ETW + mutex queue)" "dropped records: $drops; $(quiet rec 2)"
row "1c floor: two clock_gettime reads" "$clock" "—" "~40 ns (2 QPC)" "physical floor of a bracket"
