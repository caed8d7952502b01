#!/bin/sh
# Item 8: idle and recording cost per side and the K = 0 residual bias, hot
# and cold, side by side. xrlm-bench-frames paced brackets every frame
# (wait+begin+end) in every configuration (the bracket cancels in the
# paired difference to none):
#  - hot: unpaced, back to back (HOT_FRAMES frames);
#  - cold: paced at 90 Hz by the program, touching DISTURB_KB of its own
#    memory between frames (one write per cache line), as an application's
#    frame would (COLD_FRAMES frames).
# Every configuration starts the same 2 idle threads first (glibc's
# single-thread paths would otherwise favour the no-layer baseline). A
# process's figure is the median of its frames; a configuration's cost is
# the paired difference to none of the same repetition; median and p25–p75
# over REPS repetitions, configurations interleaved. The residual bias is
# the median target_us of a recording through pre:target:post (target knobs
# at 0) minus what that pass-through target adds to xrEndFrame in the same
# mode (pass − none, xrEndFrame bracketed alone), as in item 2.
#
#   BUILD=... WORK=... bench/cold.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-3}
hot_frames=${HOT_FRAMES:-20000}
cold_frames=${COLD_FRAMES:-900}
disturb_kb=${DISTURB_KB:-4096}

: >"$WORK/cold"
i=0
while [ "$i" -lt "$reps" ]; do
	for mode in hot cold; do
		frames=$cold_frames
		[ $mode = hot ] && frames=$hot_frames
		if [ $mode = hot ]; then
			args="paced --frames $hot_frames --block 1 --warmup 2000 --threads 2"
		else
			args="paced --frames $cold_frames --block 1 --warmup 2000 --threads 2 --hz 90 --disturb-kb $disturb_kb"
		fi
		for cfg in none pass idle rec rect; do
			out=$(with_config $cfg "$FRAMES_BIN" $args 2>/dev/null)
			p50=$(echo "$out" | grep '^frame_ns' | field p50)
			end50=$(echo "$out" | grep '^end_ns' | field p50)
			tus=""
			# The recording holds the warm-up frames too (hot in either
			# mode): only the measured frames, the file's last ones, count.
			{ [ $cfg = rect ] || [ $cfg = rec ]; } && tus=$(awk -F, 'h { print $6 * 1000 } /^display_time,/ { h = 1 }' \
				"$(merged_csv)" | tail -n "$frames" | quartiles | cut -d' ' -f1)
			echo "$i $mode $cfg $p50 $end50 $tus" >>"$WORK/cold"
		done
	done
	i=$((i + 1))
done

# Paired "(cfg − none) / d" per repetition in MODE.
diff_of() {
	awk -v m="$1" -v c="$2" -v d="$3" '$2 == m && $3 == "none" { n[$1] = $4 } $2 == m && $3 == c { x[$1] = $4 }
		END { for (i in x) if (i in n) print (x[i] - n[i]) / d }' "$WORK/cold"
}
# Per repetition: median target_us of rect − what the pass-through target
# adds to xrEndFrame: config $3 − config $2 of xrEndFrame's own bracket
# (pass − none: the target alone; rect − rec: the target inside the
# recording chain, where its cold misses are the same as in rect).
bias_of() {
	awk -v m="$1" -v a="${2:-none}" -v b="${3:-pass}" '$2 == m && $3 == a { n[$1] = $5 }
		$2 == m && $3 == b { p[$1] = $5 } $2 == m && $3 == "rect" { t[$1] = $6 }
		END { for (i in t) if ((i in n) && (i in p)) print t[i] - (p[i] - n[i]) }' "$WORK/cold"
}
bias_chain() { bias_of "$1" rec rect; }
fmt() {
	set -- $(cat)
	printf '%s ns (p25–p75 %s–%s)' "$1" "$2" "$3"
}
both() {
	printf '%s | %s' "$("$@" hot | quartiles | fmt)" "$("$@" cold | quartiles | fmt)"
}
idle() { diff_of "$1" idle 2; }
rec() { diff_of "$1" rec 2; }
rect_tus() { awk -v m="$1" '$2 == m && $3 == "rect" { print $6 }' "$WORK/cold"; }
rec_tus() { awk -v m="$1" '$2 == m && $3 == "rec" { print $6 }' "$WORK/cold"; }
chain_end() { awk -v m="$1" '$2 == m && $3 == "rec" { n[$1] = $5 } $2 == m && $3 == "rect" { p[$1] = $5 }
	END { for (i in p) if (i in n) print p[i] - n[i] }' "$WORK/cold"; }
pass_end() { awk -v m="$1" '$2 == m && $3 == "none" { n[$1] = $5 } $2 == m && $3 == "pass" { p[$1] = $5 }
	END { for (i in p) if (i in n) print p[i] - n[i] }' "$WORK/cold"; }
base() { awk -v m="$1" '$2 == m && $3 == "none" { print $4 }' "$WORK/cold"; }

echo
echo "Item 8, hot and cold side by side ($reps reps; hot: unpaced, $hot_frames frames; cold: 90 Hz," \
	"$disturb_kb KB touched between frames, $cold_frames frames; 2 idle threads in every configuration):"
echo
echo "| item | hot (unpaced) | cold (90 Hz, caches disturbed) | target |"
echo "| --- | --- | --- | --- |"
echo "| 8 frame, no layers (wait+begin+end, one bracket per frame) | $(both base) | — |"
echo "| 8 idle, per side | $(both idle) | ≤ 5 ns (hot) |"
echo "| 8 recording, per side | $(both rec) | ≤ 80 ns (hot) |"
echo "| 8 target_us at K = 0 (median) | $(both rect_tus) | — |"
echo "| 8 what the pass-through target adds to xrEndFrame (truth at K = 0) | $(both pass_end) | — |"
echo "| 8 residual bias, K = 0 | $(both bias_of) | ≤ 25 ns |"
echo "| 8 target_us with nothing between pre and post (truth 0) | $(both rec_tus) | — |"
echo "| 8 what the target adds to xrEndFrame inside the recording chain (rect − rec) | $(both chain_end) | — |"
echo "| 8 residual bias against the in-chain truth, K = 0 | $(both bias_chain) | — |"
