#!/bin/sh
# Items 3 and 5: stop stall and memory. xrlm-bench-frames stall runs a
# session of N frames (blocks of 10 000 with 5 ms gaps, so the writers keep
# every frame), samples VmRSS/VmHWM at 10^4..N frames, then runs unpaced
# frames, each xrEndFrame bracketed, until post's merged CSV is in place
# (rec), or as many frames (none, idle: the machine's own noise). Configs
# interleaved none/idle/rec REPS times at N = 10^6, then one rec at 10^5
# to see what scales with the session's length.
#
#   BUILD=... WORK=... bench/stall_mem.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-3}
n=1000000
# The same --after everywhere: the program's duration array (pre-touched)
# must weigh the same in every configuration's memory.
# --after bounds the frames run after the stop: enough for the merge of a
# 10^6-frame session with every function's calls (a few seconds); a run
# whose merge was not in place by then says merged=0 and is counted below.
args="stall --block 10000 --gap-ms 5 --after ${STALL_AFTER:-16000000}"

: >"$WORK/stall"
i=0
while [ "$i" -lt "$reps" ]; do
	for cfg in none idle rec; do
		with_config $cfg env XRLM_RECORD_FRAMES=$n "$FRAMES_BIN" $args --frames $n \
			$([ $cfg = rec ] && echo "--wait-merge") 2>/dev/null | sed "s/^/$cfg /" >>"$WORK/stall"
	done
	i=$((i + 1))
done
with_config rec env XRLM_RECORD_FRAMES=100000 "$FRAMES_BIN" $args --frames 100000 \
	--wait-merge 2>/dev/null | sed "s/^/rec5 /" >>"$WORK/stall"

# Median over repetitions of KEY on the "CFG mem AT" (or "CFG stall") lines.
med() {
	grep "^$1 $2 " "$WORK/stall" | field "$3" | quartiles | cut -d' ' -f1
}
range() {
	grep "^$1 $2 " "$WORK/stall" | field "$3" | sort -g | sed -n '1p;$p' | tr '\n' ' '
}
us() { awk -v v="$1" 'BEGIN { printf "%.0f µs", v / 1000 }'; }
int() { printf %.0f "$1"; }
# "A - B" kB as MB.
mb() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f MB", (a - b) / 1024 }'; }

set -- $(range rec stall max_after_ns)
row "3 stop stall: longest xrEndFrame from the stop of a 10^6-frame session until its merge is in place" \
	"$(us "$(med rec stall max_after_ns)") (range $(us "$1")–$(us "$2"), $reps reps, merge in place within the window in $(grep -c '^rec stall .*merged=1' "$WORK/stall"); merge took $(int "$(med rec stall after_ms)") ms, $(int "$(med rec stall after_frames)") frames)" \
	"≤ 100 µs" "10–50 ms" \
	"frame thread blocked (voluntary switches, max over reps): $(grep '^rec switches' "$WORK/stall" | field voluntary | sort -g | tail -n 1); preempted (involuntary, median): $(grep '^rec switches' "$WORK/stall" | field involuntary | quartiles | cut -d' ' -f1)"
# Frames over 100 µs per million frames of the window, summed over reps.
per_m() {
	grep "^$1 stall " "$WORK/stall" | awk -v k="$2" -v f="$3" '{ for (i = 1; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k) o += kv[2]; if (kv[1] == f) n += kv[2] } }
		END { printf "%.1f per 10^6 frames (%d of %d)", n ? o * 1e6 / n : 0, o, n }'
}
row "3 stop stall, frames over 100 µs: after the stop / as many frames before it / no layers / idle" \
	"$(per_m rec over_after after_frames) / $(per_m rec over_before before_frames) / $(per_m none over_after after_frames) / $(per_m idle over_after after_frames)" \
	"—" "—" "how often, not the luck of one maximum: the same count with no layers is the machine's"
row "3 control: longest of as many frames, no layers / idle / recording before the stop" \
	"$(us "$(med none stall max_after_ns)") / $(us "$(med idle stall max_after_ns)") / $(us "$(med rec stall max_before_ns)")" \
	"—" "—" "this machine's preemption noise"

for at in frames_10000 frames_1000000; do
	r_none=$(med none "mem $at" rss_kb)
	row "5 memory at $at: idle / recording, minus no layers (VmRSS, both sides)" \
		"$(mb "$(med idle "mem $at" rss_kb)" "$r_none") / $(mb "$(med rec "mem $at" rss_kb)" "$r_none")" \
		"bounded, independent of length" "—" "same at 10^4 and 10^6 frames = bounded"
done
# Growth from just before the stop to the peak, in the same process.
grow() {
	awk -v c="$1" '$1 == c && $2 == "mem" && $3 == "before_stop" { sub("rss_kb=", "", $4); b = $4 }
		$1 == c && $2 == "mem" && $3 == "after_stop" { sub("hwm_kb=", "", $5); print $5 - b }' "$WORK/stall" |
		quartiles | cut -d' ' -f1
}
g5=$(grow rec5)
g6=$(grow rec)
row "5 peak (VmHWM) growth through stop + merge: 10^5 / 10^6-frame session" \
	"$(mb "$g5" 0) / $(mb "$g6" 0) ($(awk -v a="$g5" -v b="$g6" 'BEGIN { printf "%.0f", (b - a) * 1024 / 900000 }') bytes per extra frame)" \
	"bounded, independent of length" "— (merge in xrEndFrame)" "the in-process merge (post's writer thread)"
