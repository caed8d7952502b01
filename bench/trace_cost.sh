#!/bin/sh
# Per-call cost of recording with live tracing on (XRLM_TRACE=csv,lttng, an
# LTTng session recording xrlm:*) next to recording alone: the same
# wait+begin+end blocks as frame_cost.sh (xrlm-bench-frames cost), none /
# rec / rec+trace interleaved REPS times in their own processes; the cost
# per side is the paired difference against "none", halved. Starts its own
# session daemon (LTTNG_HOME in $WORK), stops it at the end. Also counts
# the events LTTng lost (its consumer falling behind an unpaced app, in the
# default discard mode) and the records the rings dropped. As root the
# daemon owns /var/run/lttng: do not run it beside the trace_lttng tests.
#
#   BUILD=... WORK=... bench/trace_cost.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-9}
args="cost --frames 200000 --block 1000 --warmup 20000 --gap-ms 2"

lttng_session_start xrlm-bench ||
	{ row "trace cost" "not measured: lttng-sessiond did not start" "—" "—" "—"; exit 0; }

: >"$WORK/tcost"
drops=0
expected=0
i=0
while [ "$i" -lt "$reps" ]; do
	for cfg in none rec trace; do
		if [ $cfg = trace ]; then
			out=$(XRLM_TRACE=csv,lttng with_config rec "$FRAMES_BIN" $args 2>/dev/null)
		else
			out=$(with_config $cfg "$FRAMES_BIN" $args 2>/dev/null)
		fi
		echo "$i $cfg $(echo "$out" | field p50)" >>"$WORK/tcost"
		if [ $cfg != none ]; then
			d=$(sed -n 's/^# dropped_queue_full=//p' "$(merged_csv)" | head -n 1)
			drops=$((drops + ${d:-0}))
		fi
		if [ $cfg = trace ]; then
			# Each recorded call (every function now, not only xrEndFrame):
			# one xrlm:call and two xrlm:frame_marker per side.
			rows=$(cat "$WORK"/out/calls-*-pre.csv "$WORK"/out/calls-*-post.csv | grep -vc '^#')
			expected=$((expected + 3 * (rows - 2)))
		fi
	done
	i=$((i + 1))
done
lttng stop >/dev/null
lttng destroy >/dev/null
# babeltrace2 2.0's own "discarded N events" warnings wrap around: count instead.
events=$(babeltrace2 "$WORK/trace" 2>/dev/null | grep -c ' xrlm:\(call\|frame_marker\): ' || true)
lost=$((expected - events))

diff_of() {
	awk -v c="$1" '$2 == "none" { n[$1] = $3 } $2 == c { x[$1] = $3 }
		END { for (i in x) if (i in n) print (x[i] - n[i]) / 2 }' "$WORK/tcost"
}
fmt() {
	set -- $(cat)
	printf '%s ns (p25–p75 %s–%s, %s reps)' "$1" "$2" "$3" "$4"
}
row "11 recording, per side (frame_cost's 1c, this run)" "$(diff_of rec | quartiles | fmt)" "≤ 80 ns" "—" "CSV only"
row "11 recording + LTTng (session active), per side" "$(diff_of trace | quartiles | fmt)" "= recording" "ETW events" \
	"$events of $expected call and frame-marker events reached the trace ($lost lost by LTTng, discard mode); ring drops in both: $drops"
