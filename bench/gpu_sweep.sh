#!/bin/sh
# GPU sweep (issue 4): for each GPU mode (gated, sandwich), application load
# (light: none; heavy: the app's own GPU work per frame) and target GPU work
# K, the median target_gpu_us, the overhead O = median - K, and the p95;
# also what each mode adds to the application's own frame.
#
# Usage: bench/gpu_sweep.sh [BUILD_DIR] [FRAMES]   (default: build, 300)
# Environment: SWEEP_K ("0 50 250 1000 3000"), SWEEP_HEAVY_US (5000),
#              SWEEP_RATE (90 Hz), SWEEP_OUT (a temporary directory),
#              SWEEP_TARGET_CPU_US (0: CPU time the target spends after
#              submitting its GPU work, which a plain sandwich counts as GPU),
#              SWEEP_FRAME_COST (1: also measure what each mode adds).
# Prints one table; full per-run files stay in SWEEP_OUT.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
frames=${2:-300}
ks=${SWEEP_K:-0 50 250 1000 3000}
heavy=${SWEEP_HEAVY_US:-5000}
rate=${SWEEP_RATE:-90}
work=${SWEEP_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/xrlm-sweep.XXXXXX")}
mkdir -p "$work"

# The build's manifests name absolute library paths; when the build moved
# (a copy carried to another machine), point them at where it is now.
manifests=$work/manifests
mkdir -p "$manifests"
old=$(sed -n 's/.*"library_path": "\(.*\)\/layer\/libXrApiLayer_xrlm_monitor_pre.so".*/\1/p' \
	"$build/manifests/XrApiLayer_xrlm_monitor_pre.json")
for f in "$build"/manifests/*.json "$build"/tests/manifests/*.json; do
	sed "s|$old|$build|g" "$f" >"$manifests/$(basename "$f")"
done
sed "s|$old|$build|g" "$build/tests/runtime/xrlm_test_runtime.json" >"$work/runtime.json"

export XR_RUNTIME_JSON=$work/runtime.json XR_API_LAYER_PATH=$manifests
export XRTEST_FRAME_RATE=$rate XRTEST_TARGET_CPU_US=${SWEEP_TARGET_CPU_US:-0}
app=$build/tests/xrlm-test-app
PRE=XR_APILAYER_XRLM_monitor_pre POST=XR_APILAYER_XRLM_monitor_post
TARGET=XR_APILAYER_XRLM_test_target

# Column N's percentile Q (0..1) over a merged CSV's rows (blank cells
# skipped), by xrlm's method (pct.awk).
col_stat() {
	grep -v '^#' "$1" | tail -n +2 | cut -d, -f"$2" | grep -v '^$' | sort -g |
		awk -v q="$3" -v fmt=%.1f -v empty=- -f "$top/bench/pct.awk"
}

# One line of the app's --stats output: field F of series S.
app_stat() {
	sed -n "s/^$2 .* $3=\([0-9]*\).*/\1/p" "$1" | head -n 1
}

# run NAME LAYERS LOAD K MODE: one app run; leaves $work/NAME/{app.txt,out/}
run() {
	d=$work/$1
	rm -rf "$d" && mkdir -p "$d/out"
	XR_ENABLE_API_LAYERS=$2 XRLM_OUTPUT_DIR=$d/out XRLM_RECORD=1 XRLM_GPU_MODE=$5 \
		XRTEST_TARGET_GPU_US=$4 XRTEST_TARGET_GPU_LOG=$d/target_gpu.csv \
		"$app" --graphics vulkan2 --frames "$frames" --warmup 30 --stats --gpu-us "$3" \
		>"$d/app.txt" 2>"$d/app.err" || { cat "$d/app.err" >&2; exit 1; }
}

# The target's own measurement of its work (the true K), median in µs.
true_k() {
	[ -s "$1" ] || { echo "-"; return; }
	tail -n +2 "$1" | cut -d, -f2 | sort -g |
		awk -v q=0.5 -v fmt=%.1f -v scale=1000 -v empty=- -f "$top/bench/pct.awk"
}

echo "target CPU time after its GPU submit: ${SWEEP_TARGET_CPU_US:-0} us; $frames frames at $rate Hz; times in us"
printf '%-8s %-6s %6s %8s %10s %9s %10s %9s\n' mode load K K_true median O=med-K p95 rows
for load in 0 "$heavy"; do
	lname=light
	[ "$load" -eq 0 ] || lname=heavy
	for mode in gated sandwich; do
		for k in $ks; do
			name=$mode-$lname-$k
			run "$name" "$PRE:$TARGET:$POST" "$load" "$k" "$mode"
			m=$(ls "$work/$name"/out/frames-merged-*.csv)
			grep -q "^# gpu_mode=$mode" "$work/$name"/out/gpu-*-pre.csv ||
				echo "warning: $name did not run in $mode mode" >&2
			med=$(col_stat "$m" 8 0.5)
			p95=$(col_stat "$m" 8 0.95)
			kt=$(true_k "$work/$name/target_gpu.csv")
			o=$(awk -v a="$med" -v b="$k" 'BEGIN { printf "%.1f", a - b }')
			printf '%-8s %-6s %6s %8s %10s %9s %10s %9s\n' "$mode" "$lname" "$k" "$kt" \
				"$med" "$o" "$p95" "$(sed -n 's/^# gpu_frame_count=//p' "$m")"
		done
	done
done

[ "${SWEEP_FRAME_COST:-1}" = 1 ] || exit 0
echo
echo "What the monitor adds to the application's frame (K = 0; medians over $frames frames):"
printf '%-22s %-6s %16s %16s\n' configuration load endframe_cpu_us frame_interval_us
for load in 0 "$heavy"; do
	lname=light
	[ "$load" -eq 0 ] || lname=heavy
	for cfg in none off sandwich gated; do
		layers=$PRE:$TARGET:$POST
		[ "$cfg" != none ] || layers=$TARGET
		mode=$cfg
		[ "$cfg" != none ] || mode=off
		run "frame-$cfg-$lname" "$layers" "$load" 0 "$mode"
		t=$work/frame-$cfg-$lname/app.txt
		label="monitor, GPU $cfg"
		[ "$cfg" != none ] || label="target only (no monitor)"
		printf '%-22s %-6s %16s %16s\n' "$label" "$lname" \
			"$(awk -v v="$(app_stat "$t" endframe_cpu_ns p50)" 'BEGIN { printf "%.1f", v / 1000 }')" \
			"$(awk -v v="$(app_stat "$t" frame_interval_ns p50)" 'BEGIN { printf "%.1f", v / 1000 }')"
	done
done
echo
echo "runs kept in $work"
