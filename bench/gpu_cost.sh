#!/bin/sh
# Item 1 (d): frame-thread cost of recording with the GPU timestamps, on a
# vulkan2 session on lavapipe. Frames there carry real GPU work, so this
# uses the test app's own per-call bracket (endframe_cpu_ns p50, which adds
# the same ~30-60 ns to every configuration): none / sandwich / gated (event
# gate) / gated-timeline (XRLM_GPU_GATE=timeline),
# interleaved REPS times, FRAMES frames each; paired differences against
# none, halved per side.
#
#   BUILD=... WORK=... bench/gpu_cost.sh REPS FRAMES
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-5}
frames=${2:-20000}

: >"$WORK/gpu"
i=0
while [ "$i" -lt "$reps" ]; do
	for mode in none sandwich gated gated-timeline; do
		cfg="rec env XRLM_GPU_MODE=$mode"
		[ $mode = gated-timeline ] && cfg="rec env XRLM_GPU_MODE=gated XRLM_GPU_GATE=timeline"
		[ $mode = none ] && cfg=none
		v=$(with_config $cfg "$APP" --graphics vulkan2 \
			--frames "$frames" --warmup 1000 --stats 2>/dev/null |
			grep '^endframe_cpu_ns' | field p50)
		echo "$i $mode $v" >>"$WORK/gpu"
	done
	i=$((i + 1))
done

diff_of() {
	awk -v c="$1" '$2 == "none" { n[$1] = $3 } $2 == c { x[$1] = $3 }
		END { for (i in x) if (i in n) print (x[i] - n[i]) / 2 }' "$WORK/gpu"
}
fmt() {
	set -- $(cat)
	printf '%s ns (p25–p75 %s–%s, %s reps × %s frames)' "$1" "$2" "$3" "$4" "$frames"
}
base=$(awk '$2 == "none" { print $3 }' "$WORK/gpu" | quartiles | fmt)
row "1d vulkan2 frame, no layers (app bracket p50)" "$base" "—" "—" "lavapipe; includes the app's bracket"
row "1d recording + GPU sandwich, per side" "$(diff_of sandwich | quartiles | fmt)" "— (CPU path ≤ 80 ns)" "—" "one vkQueueSubmit per side"
row "1d recording + GPU gated (event gate), per side" "$(diff_of gated | quartiles | fmt)" "— (CPU path ≤ 80 ns)" "—" "submit + vkSetEvent"
row "1d recording + GPU gated (timeline gate), per side" "$(diff_of gated-timeline | quartiles | fmt)" "— (CPU path ≤ 80 ns)" "—" "submit with a semaphore wait + vkSignalSemaphore"
