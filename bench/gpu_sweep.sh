#!/bin/sh
# GPU sweep (issues 4, 14): for each GPU mode, application load (light:
# none; heavy: the app's own GPU work per frame) and target GPU work K, the
# target's own measurement of its work (K_true), the median target_gpu_us
# before (raw) and after the bracket correction, the corrected value's
# error frame by frame against the target's own measurement of that frame
# (median and p90), the bracket pre measured (# gpu_bracket_ns=) and the
# p95; then what each mode adds to the application's frame thread (its
# xrEndFrame's median, mean and p99).
#
# Usage: bench/gpu_sweep.sh [BUILD_DIR] [FRAMES]   (default: build, 300)
# Environment: SWEEP_K ("0 10 50 250 1000 4000"), SWEEP_HEAVY_US (5000),
#              SWEEP_LOADS ("light heavy"),
#              SWEEP_MODES ("gated sandwich"; also gated-timeline: the gated
#              mode behind the timeline semaphore gate, XRLM_GPU_GATE=timeline),
#              SWEEP_GRAPHICS (vulkan2; vulkan for XR_KHR_vulkan_enable),
#              SWEEP_RATE (90 Hz), SWEEP_OUT (a temporary directory),
#              SWEEP_TARGET_CPU_US (0: CPU time the target spends after
#              submitting its GPU work, which a plain sandwich counts as GPU),
#              SWEEP_FRAME_COST (1: also measure what each mode adds),
#              SWEEP_CHECK_US / SWEEP_CHECK_PCT (unset: if set, exit 1 when a
#              gated row's |median error| exceeds CHECK_US + CHECK_PCT % of
#              K, or it has no frame to tell).
# Prints one table; full per-run files stay in SWEEP_OUT.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
frames=${2:-300}
ks=${SWEEP_K:-0 10 50 250 1000 4000}
modes=${SWEEP_MODES:-gated sandwich}
loads=${SWEEP_LOADS:-light heavy}
graphics=${SWEEP_GRAPHICS:-vulkan2}
heavy=${SWEEP_HEAVY_US:-5000}
rate=${SWEEP_RATE:-90}
work=${SWEEP_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/xrlm-sweep.XXXXXX")}
mkdir -p "$work"

# The build's manifests name absolute library paths; when the build moved
# (a copy carried to another machine), point them at where it is now. A
# pack made by gpu_devrun_pack.sh has relative paths: used where it is.
old=$(sed -n 's/.*"library_path": "\(\/.*\)\/layer\/libXrApiLayer_xrlm_monitor_pre.so".*/\1/p' \
	"$build/manifests/XrApiLayer_xrlm_monitor_pre.json")
if [ -n "$old" ]; then
	manifests=$work/manifests
	mkdir -p "$manifests"
	for f in "$build"/manifests/*.json "$build"/tests/manifests/*.json; do
		sed "s|$old|$build|g" "$f" >"$manifests/$(basename "$f")"
	done
	sed "s|$old|$build|g" "$build/tests/runtime/xrlm_test_runtime.json" >"$work/runtime.json"
	export XR_RUNTIME_JSON=$work/runtime.json XR_API_LAYER_PATH=$manifests
else
	export XR_RUNTIME_JSON=$build/tests/runtime/xrlm_test_runtime.json \
		XR_API_LAYER_PATH=$build/manifests:$build/tests/manifests
fi
export XRTEST_FRAME_RATE=$rate XRTEST_TARGET_CPU_US=${SWEEP_TARGET_CPU_US:-0}
app=$build/tests/xrlm-test-app
PRE=XR_APILAYER_XRLM_monitor_pre POST=XR_APILAYER_XRLM_monitor_post
TARGET=XR_APILAYER_XRLM_test_target

# The percentile Q (0..1) of the column named NAME over a merged CSV's rows
# (blank cells skipped), by xrlm's method (pct.awk); "-" without the column.
col_stat() {
	n=$(grep -m 1 '^display_time,' "$1" | tr ',' '\n' | grep -n -x "$2" | cut -d: -f1)
	[ -n "$n" ] || { echo "-"; return; }
	grep -v '^#' "$1" | tail -n +2 | cut -d, -f"$n" | grep -v '^$' | sort -g |
		awk -v q="$3" -v fmt=%.1f -v empty=- -f "$top/bench/pct.awk"
}

# One line of the app's --stats output: field F of series S.
app_stat() {
	sed -n "s/^$2 .* $3=\([0-9]*\).*/\1/p" "$1" | head -n 1
}

# run NAME LAYERS LOAD K MODE: one app run; leaves $work/NAME/{app.txt,out/}
# (MODE gated-timeline: gated behind the timeline semaphore gate).
run() {
	d=$work/$1
	run_gate=auto
	run_mode=$5
	[ "$run_mode" != gated-timeline ] || { run_mode=gated; run_gate=timeline; }
	rm -rf "$d" && mkdir -p "$d/out"
	XR_ENABLE_API_LAYERS=$2 XRLM_OUTPUT_DIR=$d/out XRLM_RECORD=1 XRLM_GPU_MODE=$run_mode \
		XRLM_GPU_GATE=$run_gate XRTEST_TARGET_GPU_US=$4 XRTEST_TARGET_GPU_LOG=$d/target_gpu.csv \
		"$app" --graphics "$graphics" --frames "$frames" --warmup 30 --stats --gpu-us "$3" \
		>"$d/app.txt" 2>"$d/app.err" || { cat "$d/app.err" >&2; exit 1; }
}

load_us() {
	[ "$1" = light ] && echo 0 || echo "$heavy"
}

# The target's own measurement of its work (the true K), median in µs.
true_k() {
	[ -s "$1" ] || { echo "-"; return; }
	tail -n +2 "$1" | cut -d, -f2 | sort -g |
		awk -v q=0.5 -v fmt=%.1f -v scale=1000 -v empty=- -f "$top/bench/pct.awk"
}

# The error of each frame's target_gpu_us in merged CSV $1 against the
# target's own measurement of that frame's work (log $2, matched by
# display time; none when it submits nothing: K_true 0), percentiles Q ($3)
# in µs. Per frame, not the difference of two medians: the target's
# controller varies its work from frame to frame, and the medians of two
# skewed series differ by more than any frame does (bench/RESULTS.md,
# fiftieth session).
frame_err() {
	awk -F, -v tl="$2" 'BEGIN {
		while ((getline l < tl) > 0) {
			split(l, f, ",")
			if (f[1] ~ /^[0-9]+$/) { k[f[1]] = f[2]; logged = 1 }
		}
	}
	/^#/ { next }
	!col { for (i = 1; i <= NF; i++) if ($i == "target_gpu_us") col = i; next }
	$col == "" { next }
	logged && !($1 in k) { next }
	{ printf "%.3f\n", $col - (logged ? k[$1] / 1000 : 0) }' "$1" | sort -g |
		awk -v q="$3" -v fmt=%.1f -v empty=- -f "$top/bench/pct.awk"
}

driver=${SWEEP_DRIVER:-$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true)}
echo "driver: ${driver:-lavapipe (Mesa llvmpipe; set SWEEP_DRIVER to name another)}; graphics: $graphics"
echo "target CPU time after its GPU submit: ${SWEEP_TARGET_CPU_US:-0} us; $frames frames at $rate Hz; times in us"
echo "err: median over frames of target_gpu_us - the target's own timestamps of that frame (0 when it submits nothing); err_p90: 90th percentile"
printf '%-15s %-6s %5s %8s %9s %9s %8s %8s %9s %9s %5s\n' mode load K K_true raw_med corr_med err err_p90 bracket corr_p95 rows
bad=0
for lname in $loads; do
	load=$(load_us "$lname")
	for mode in $modes; do
		for k in $ks; do
			name=$mode-$lname-$k
			run "$name" "$PRE:$TARGET:$POST" "$load" "$k" "$mode"
			m=$(ls "$work/$name"/out/frames-merged-*.csv)
			grep -q "^# gpu_mode=${mode%-timeline}" "$work/$name"/out/gpu-*-pre.csv ||
				echo "warning: $name did not run in $mode mode" >&2
			raw=$(col_stat "$m" target_gpu_raw_us 0.5)
			med=$(col_stat "$m" target_gpu_us 0.5)
			p95=$(col_stat "$m" target_gpu_us 0.95)
			kt=$(true_k "$work/$name/target_gpu.csv")
			br=$(sed -n 's/^# gpu_bracket_ns=//p' "$m")
			set -- $(frame_err "$m" "$work/$name/target_gpu.csv" "0.5 0.9")
			err=$1 err90=$2
			printf '%-15s %-6s %5s %8s %9s %9s %8s %8s %9s %9s %5s\n' "$mode" "$lname" "$k" "$kt" \
				"$raw" "$med" "$err" "$err90" "$(awk -v v="$br" 'BEGIN { printf (v == "" ? "-" : "%.1f"), v / 1000 }')" \
				"$p95" "$(sed -n 's/^# gpu_frame_count=//p' "$m")"
			if [ -n "${SWEEP_CHECK_US:-}" ] && [ "${mode#gated}" != "$mode" ] &&
				! awk -v e="$err" -v k="$k" -v u="$SWEEP_CHECK_US" -v p="${SWEEP_CHECK_PCT:-0}" \
					'BEGIN { if (e == "-") exit 1; e = e < 0 ? -e : e; exit !(e <= u + p / 100 * k) }'; then
				echo "FAIL: $name: |error| $err us above ${SWEEP_CHECK_US} us + ${SWEEP_CHECK_PCT:-0} % of K" >&2
				bad=1
			fi
		done
	done
done
[ "$bad" = 0 ] || exit 1

[ "${SWEEP_FRAME_COST:-1}" = 1 ] || exit 0
echo
echo "What the monitor adds to the application's frame (K = 0; over $frames frames; the interval's median):"
printf '%-30s %-6s %13s %13s %13s %17s\n' configuration load endframe_p50 endframe_mean endframe_p99 frame_interval_us
for lname in $loads; do
	load=$(load_us "$lname")
	for cfg in none off sandwich gated gated-timeline; do
		layers=$PRE:$TARGET:$POST
		[ "$cfg" != none ] || layers=$TARGET
		mode=$cfg
		[ "$cfg" != none ] || mode=off
		run "frame-$cfg-$lname" "$layers" "$load" 0 "$mode"
		t=$work/frame-$cfg-$lname/app.txt
		label="monitor, GPU $cfg"
		[ "$cfg" != gated ] || label="monitor, GPU gated (event)"
		[ "$cfg" != none ] || label="target only (no monitor)"
		printf '%-30s %-6s %13s %13s %13s %17s\n' "$label" "$lname" \
			"$(awk -v v="$(app_stat "$t" endframe_cpu_ns p50)" 'BEGIN { printf "%.1f", v / 1000 }')" \
			"$(awk -v v="$(app_stat "$t" endframe_cpu_ns mean)" 'BEGIN { printf "%.1f", v / 1000 }')" \
			"$(awk -v v="$(app_stat "$t" endframe_cpu_ns p99)" 'BEGIN { printf "%.1f", v / 1000 }')" \
			"$(awk -v v="$(app_stat "$t" frame_interval_ns p50)" 'BEGIN { printf "%.1f", v / 1000 }')"
	done
done
echo
echo "runs kept in $work"
