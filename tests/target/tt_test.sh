#!/bin/sh
# Tests of the synthetic target layer, measured from outside by
# xrlm-test-app through the real loader and the headless test runtime.
#
#   tt_test.sh BUILD_DIR APP LAYER_LIB CASE
#
# CASE: exports, passthrough, cpu-burn, gpu-work, gpu-log, app-load, gpu-wait,
# gpu-gated, validation, bad-knobs, fn-cpu, fn-bad-knobs, fn-answer, fn-induce,
# fn-thread.
# Timing checks retry (at most 3 attempts) because the build machine is
# shared; each attempt is printed, and three misses fail.
set -u
build=$1 app=$2 lib=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

unset XRTEST_TARGET_CPU_US XRTEST_TARGET_GPU_US XRTEST_TARGET_GPU_WAIT XRTEST_TARGET_GPU_LOG \
	XRTEST_TARGET_THREAD_CALLS XRTEST_TARGET_THREAD_HZ XRTEST_TARGET_TOGGLE_FRAME XRTEST_CALL_COUNTS \
	XRTEST_EXIT_AFTER_FRAMES XRTEST_COMPOSITOR_CPU_US XRTEST_COMPOSITOR_GPU_US \
	XRTEST_COMPOSITOR_GPU_WAIT
# The per-function knobs too, whatever the function.
for v in $(env | sed -n 's/^\(XRTEST_TARGET_\(CPU_US\|ANSWER\|INDUCE\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
export XR_RUNTIME_JSON="$build/tests/runtime/xrlm_test_runtime.json"
export XRTEST_FRAME_RATE=0
export XR_API_LAYER_PATH="$build/tests/manifests"
export XR_ENABLE_API_LAYERS=XR_APILAYER_XRLM_test_target

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# run NAME GRAPHICS FRAMES WARMUP [VAR=VALUE...]: the app with --stats (and
# $app_args) into $tmp/NAME.out / .err; fails the test unless it exits 0 with
# our layer loaded.
app_args=
run() {
	name=$1 graphics=$2 frames=$3 warmup=$4
	shift 4
	env "$@" "$app" --graphics "$graphics" --frames "$frames" --warmup "$warmup" --stats \
		$app_args >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		cat "$tmp/$name.err" >&2
		fail "$name: xrlm-test-app exited $rc"
	fi
	grep -q '^\[xrlm-test-target\] knobs:' "$tmp/$name.err" ||
		fail "$name: the target layer did not log its knobs (not loaded?)"
}

# stat NAME SERIES KEY: e.g. stat k50 endframe_cpu_ns p50
stat() {
	awk -v s="$2" -v k="$3" '$1 == s { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' "$tmp/$1.out"
}

abs() { [ "$1" -lt 0 ] && echo $((-$1)) || echo "$1"; }

# retry MESSAGE COMMAND...: a timing check, at most 3 attempts; fails the
# test with MESSAGE when all three miss.
retry() {
	msg=$1
	shift
	n=1
	until "$@"; do
		n=$((n + 1))
		[ $n -le 3 ] || fail "$msg"
	done
}

exports() {
	syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }')
	echo "exported: $syms"
	[ "$syms" = xrNegotiateLoaderApiLayerInterface ] || fail "exports more than the negotiation function"
	if readelf -d "$lib" | grep NEEDED | grep -q vulkan; then
		fail "links libvulkan (must only dlopen it with RTLD_NOLOAD)"
	fi
	grep -q "\"library_path\": \"$lib\"" "$build/tests/manifests/XrApiLayer_xrlm_test_target.json" ||
		fail "manifest does not point at $lib"
}

passthrough() {
	run pt_headless headless 50 0
	run pt_vulkan2 vulkan2 50 0
	grep -q 'knobs: cpu_us=0 gpu_us=0 gpu_wait=0' "$tmp/pt_vulkan2.err" || fail "knobs not all 0"
	if grep -q calibrat "$tmp/pt_vulkan2.err"; then
		fail "pass-through made GPU objects"
	fi
	echo "pass-through: headless p50 $(stat pt_headless endframe_cpu_ns p50) ns, vulkan2 p50 $(stat pt_vulkan2 endframe_cpu_ns p50) ns"
}

# One CPU check: median xrEndFrame with K us minus median with 0, within 2 us + 1 %.
cpu_once() {
	k=$1
	run base headless 400 50 XRTEST_TARGET_CPU_US=0
	run k$k headless 400 50 XRTEST_TARGET_CPU_US=$k
	base=$(stat base endframe_cpu_ns p50)
	with=$(stat k$k endframe_cpu_ns p50)
	delta=$((with - base))
	err=$(abs $((delta - k * 1000)))
	tol=$((2000 + k * 10))
	echo "K=$k us: p50 base=$base ns with=$with ns delta=$delta ns error=$err ns tolerance=$tol ns"
	[ "$err" -le "$tol" ]
}

cpu_burn() {
	for k in 50 300 2000; do
		retry "CPU burn of $k us off by more than the tolerance 3 times" cpu_once $k
	done
}

# self_median NAME: the target's own median (us, integer) from its summary line.
self_median() {
	sed -n 's/^\[xrlm-test-target\] GPU work: requested [0-9]* us, measured median \([0-9]*\)\.[0-9] us.*/\1/p' \
		"$tmp/$1.err"
}

# The target's self-measured median (its own timestamps around its fills)
# within 10 % of the request; the app's bracket still orders 0 < 200 < 1000.
gpu_once() {
	ok=0
	for g in 0 200 1000; do
		run g$g vulkan2 200 20 XRTEST_TARGET_GPU_US=$g
		eval "p$g=\$(stat g$g endframe_gpu_ns p50)"
	done
	grep '^\[xrlm-test-target\] calibrated' "$tmp/g1000.err" || fail "no calibration logged"
	for g in 200 1000; do
		grep '^\[xrlm-test-target\] GPU work:' "$tmp/g$g.err" || fail "$g us: no summary logged"
		m=$(self_median g$g)
		err=$(abs $((m - g)))
		echo "$g us: self-measured median $m us, error $err us (tolerance $((g / 10)) us)"
		[ -n "$m" ] && [ "$err" -le $((g / 10)) ] || ok=1
	done
	d200=$((p200 - p0)) d1000=$((p1000 - p0))
	echo "app GPU p50: 0 us -> $p0 ns, 200 us -> $p200 ns (+$d200), 1000 us -> $p1000 ns (+$d1000)"
	# The app's bracket also holds lavapipe's submission latency and CPU
	# time after the submit (tests/README.md): ordering and rough size only.
	[ "$p0" -lt "$p200" ] && [ "$p200" -lt "$p1000" ] &&
		[ "$d200" -ge 100000 ] && [ "$d200" -le 800000 ] &&
		[ "$d1000" -ge 600000 ] && [ "$d1000" -le 2000000 ] && [ $ok -eq 0 ]
}

gpu_work() {
	retry "GPU work not ordered/sized as requested 3 times" gpu_once
}

# XRTEST_TARGET_GPU_LOG: header, one row per submitted frame, display times
# increasing, durations positive; an unwritable path is one log line, exit 0.
gpu_log() {
	run log vulkan2 60 0 XRTEST_TARGET_GPU_US=300 XRTEST_TARGET_GPU_LOG="$tmp/gpu.csv"
	[ "$(head -n 1 "$tmp/gpu.csv")" = display_time,target_gpu_ns ] || fail "bad CSV header"
	subs=$(sed -n 's/.*session end: \([0-9]*\) GPU submissions.*/\1/p' "$tmp/log.err")
	rows=$(($(wc -l <"$tmp/gpu.csv") - 1))
	echo "CSV: $rows rows, $subs submissions"
	[ "$rows" -eq "$subs" ] && [ "$rows" -ge 60 ] || fail "$rows rows for $subs submissions"
	awk -F, 'NR > 1 && ($1 <= last || $2 <= 0) { bad = 1 } NR > 1 { last = $1 } END { exit bad }' \
		"$tmp/gpu.csv" || fail "display times not increasing or a duration <= 0"
	run nolog vulkan2 20 0 XRTEST_TARGET_GPU_US=100 XRTEST_TARGET_GPU_LOG=/nonexistent/dir/gpu.csv
	n=$(grep -c 'XRTEST_TARGET_GPU_LOG: cannot open' "$tmp/nolog.err")
	[ "$n" -eq 1 ] || fail "unwritable path: $n log lines, want 1"
}

# Heavy application load: xrlm-test-app --gpu-us 5000 next to the target's
# 1000 us. The load's own timestamps (app_gpu_load_ns) and, independently,
# the unpaced frame interval (GPU-bound through the app's 3-slot ring) grow
# by >= 4 ms; the app's xrEndFrame bracket stays clear of the load (it is
# submitted before timestamp A); the target still hits its request.
app_load_once() {
	app_args=
	run noload vulkan2 200 20 XRTEST_TARGET_GPU_US=1000
	app_args="--gpu-us 5000"
	run load vulkan2 200 20 XRTEST_TARGET_GPU_US=1000
	app_args=
	l50=$(stat load app_gpu_load_ns p50)
	i0=$(stat noload frame_interval_ns p50) i1=$(stat load frame_interval_ns p50)
	g0=$(stat noload endframe_gpu_ns p50) g1=$(stat load endframe_gpu_ns p50)
	m=$(self_median load)
	echo "app load p50 $l50 ns; frame interval p50 $i0 -> $i1 ns (+$((i1 - i0)));" \
		"xrEndFrame GPU p50 $g0 -> $g1 ns; target self-median $m us"
	[ -n "$l50" ] && [ "$l50" -ge 4000000 ] && [ $((i1 - i0)) -ge 4000000 ] &&
		[ $((g1 - g0)) -le 2500000 ] && [ -n "$m" ] && [ "$(abs $((m - 1000)))" -le 100 ]
}

app_load() {
	if "$app" --graphics headless --gpu-us 100 2>"$tmp/bad.err"; then
		fail "--gpu-us with headless accepted"
	fi
	retry "app GPU load not as requested 3 times" app_load_once
}

gpu_wait() {
	run nowait vulkan2 100 10 XRTEST_TARGET_GPU_US=500
	run wait vulkan2 100 10 XRTEST_TARGET_GPU_US=500 XRTEST_TARGET_GPU_WAIT=1
	grep -q 'gpu_wait=1' "$tmp/wait.err" || fail "GPU_WAIT=1 not taken"
	count=$(stat wait endframe_cpu_ns count)
	[ "$count" -eq 90 ] || fail "only $count measured frames"
	nw=$(stat nowait endframe_cpu_ns p50) w=$(stat wait endframe_cpu_ns p50)
	echo "xrEndFrame CPU p50 with 500 us of GPU work: no wait $nw ns, GPU_WAIT=1 $w ns"
	# Waiting puts the GPU work inside the CPU bracket.
	[ "$w" -ge 400000 ] || fail "GPU_WAIT=1 did not wait for the GPU work"
}

# gated NAME [VAR=VALUE...]: the target between the monitor's two layers in
# gated GPU mode (the queue held behind a semaphore during xrEndFrame),
# recording into $tmp/NAME/; 0 if the monitor's watchdog never tripped.
gated() {
	name=$1
	shift
	rm -rf "${tmp:?}/$name"
	mkdir -p "$tmp/$name"
	run "$name" vulkan2 100 0 XR_API_LAYER_PATH="$build/manifests:$build/tests/manifests" \
		XR_ENABLE_API_LAYERS=XR_APILAYER_XRLM_monitor_pre:XR_APILAYER_XRLM_test_target:XR_APILAYER_XRLM_monitor_post \
		XRLM_RECORD=1 XRLM_GPU_MODE=gated XRLM_OUTPUT_DIR="$tmp/$name" XRTEST_TARGET_GPU_US=100 "$@"
	csv=$(ls "$tmp/$name"/gpu-*-pre.csv 2>/dev/null | head -n 1)
	[ -n "$csv" ] || fail "$name: the monitor wrote no gpu-*-pre.csv"
	grep -q '^# gpu_mode=gated' "$csv" || fail "$name: monitor not in gated mode"
	! grep -q '^# gpu_gate_tripped=1' "$csv" && ! grep -q 'GPU gate:' "$tmp/$name.err"
}

# gated_retry NAME [VAR=VALUE...]: gated, at most 3 attempts. A target that
# waits inside xrEndFrame trips the gate on every run; the monitor's
# watchdog can also trip rarely on a loaded machine without any wait (its
# clock is read before it takes a lock), which a retry absorbs.
gated_retry() {
	n=1
	until gated "$@"; do
		echo "$1: attempt $n tripped the gate"
		n=$((n + 1))
		[ $n -le 3 ] || return 1
	done
}

# The target's GPU work never waits for itself inside xrEndFrame (its
# timestamps are read from host memory its own command buffer wrote, never
# with vkGetQueryPoolResults), so the monitor's gated mode holds on lavapipe;
# GPU_WAIT=1 is the opt-in wait, and the watchdog must catch it. Then the
# same without a trip under the Khronos validation layer, without errors.
gpu_gated() {
	gated_retry gated || fail "the monitor's GPU gate tripped 3 times: the target waits for its own GPU work"
	echo "gated: no gate trip in 100 frames"
	if gated gated_wait XRTEST_TARGET_GPU_WAIT=1; then
		fail "GPU_WAIT=1 did not trip the gate (the check would not see a wait)"
	fi
	echo "gated with GPU_WAIT=1: gate tripped, as it must"
	gated_retry gated_vv VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LOADER_DEBUG=layer ||
		fail "validation layer: the monitor's GPU gate tripped 3 times"
	grep -q 'Inserted device layer "VK_LAYER_KHRONOS_validation"' "$tmp/gated_vv.err" ||
		fail "VK_LAYER_KHRONOS_validation not loaded"
	if grep -h 'Validation Error' "$tmp/gated_vv.out" "$tmp/gated_vv.err"; then
		fail "Vulkan validation errors"
	fi
	echo "gated under VK_LAYER_KHRONOS_validation: no gate trip, no validation errors"
}

validation() {
	export XR_API_LAYER_PATH="/usr/share/openxr/1/api_layers/explicit.d:$build/tests/manifests"
	export XR_ENABLE_API_LAYERS=XR_APILAYER_XRLM_test_target:XR_APILAYER_LUNARG_core_validation
	export XR_CORE_VALIDATION_EXPORT_TYPE=text
	for g in headless vulkan vulkan2; do
		run cv_$g $g 60 0 XRTEST_TARGET_CPU_US=100 XRTEST_TARGET_GPU_US=100
		grep -q 'Core Validation' "$tmp/cv_$g.err" || fail "$g: core_validation not loaded"
		if grep -h 'VALID_ERROR\|VUID-' "$tmp/cv_$g.out" "$tmp/cv_$g.err" | grep -v 'VUID-CoreValidation-Initialize'; then
			fail "$g: validation errors"
		fi
		echo "$g: no validation errors"
	done
}

bad_knobs() {
	run bad headless 20 0 XRTEST_TARGET_CPU_US=12abc XRTEST_TARGET_GPU_US=-5 XRTEST_TARGET_GPU_WAIT=2 \
		XRTEST_TARGET_TOGGLE_FRAME=1e3
	cat "$tmp/bad.err"
	for v in XRTEST_TARGET_CPU_US XRTEST_TARGET_GPU_US XRTEST_TARGET_GPU_WAIT XRTEST_TARGET_TOGGLE_FRAME; do
		n=$(grep -c "^\[xrlm-test-target\] $v=.*using the default 0" "$tmp/bad.err")
		[ "$n" -eq 1 ] || fail "$v: $n log lines, want 1"
	done
	grep -q 'knobs: cpu_us=0 gpu_us=0 gpu_wait=0 .* toggle_frame=0 ' "$tmp/bad.err" || fail "defaults not used"
}

# summary NAME FUNCTION KEY: KEY= of the target's "summary of FUNCTION:" line.
summary() {
	sed -n "s/^\[xrlm-test-target\] summary of $2: .*\<$3=\([0-9.]*\).*/\1/p" "$tmp/$1.err"
}

# rcount NAME FUNCTION [THREAD]: calls of FUNCTION the runtime counted in
# run NAME (XRTEST_CALL_COUNTS=$tmp/NAME.csv), all threads or only THREAD.
rcount() {
	awk -F, -v f="$2" -v t="${3:-}" '$1 == f && (t == "" || $2 == t) { n += $3 } END { print n + 0 }' \
		"$tmp/$1.csv"
}

# frames_run NAME: xrEndFrame calls of run NAME (its --stats run line).
frames_run() {
	sed -n 's/^run .*frames_run=\([0-9]*\).*/\1/p' "$tmp/$1.out"
}

# One per-function burn: XRTEST_TARGET_CPU_US_FN=K against none. Outside
# every layer, the app's own clock around each call of FN (SERIES of its
# --stats) moves by K within 5 us + 2 %, and a control series (xrEndFrame,
# or xrWaitFrame when FN is xrEndFrame) does not (< 20 us). The target's
# summary counts exactly the calls the runtime received, each burning >= K.
fn_cpu_once() {
	fn=$1 graphics=$2 series=$3 k=$4
	control=endframe_cpu_ns
	[ "$fn" = xrEndFrame ] && control=xrWaitFrame_ns
	run fbase "$graphics" 200 20
	run "f_$fn" "$graphics" 200 20 "XRTEST_TARGET_CPU_US_$fn=$k" XRTEST_CALL_COUNTS="$tmp/f_$fn.csv"
	grep -q "knobs of $fn: cpu_us=$k " "$tmp/f_$fn.err" || fail "$fn: knob not taken"
	p0=$(stat fbase "$series" p50) p1=$(stat "f_$fn" "$series" p50)
	c0=$(stat fbase $control p50) c1=$(stat "f_$fn" $control p50)
	delta=$((p1 - p0)) cdelta=$((c1 - c0))
	err=$(abs $((delta - k * 1000))) tol=$((5000 + k * 20))
	calls=$(summary "f_$fn" "$fn" calls) mean=$(summary "f_$fn" "$fn" burn_mean_us)
	runtime=$(rcount "f_$fn" "$fn")
	echo "$fn K=$k us ($graphics): app's $series p50 $p0 -> $p1 ns (+$delta, error $err," \
		"tolerance $tol); $control p50 +$cdelta ns; target: $calls calls, mean burn $mean us;" \
		"runtime: $runtime calls"
	# Counts are exact: a miss is a defect, not noise.
	[ "$calls" -gt 0 ] && [ "$calls" -eq "$runtime" ] ||
		fail "$fn: the target counted $calls calls, the runtime $runtime"
	awk -v m="$mean" -v k="$k" 'BEGIN { exit !(m >= k) }' || fail "$fn: mean burn $mean us < $k us"
	[ "$cdelta" -le 20000 ] && [ "$err" -le "$tol" ]
}

# XRTEST_TARGET_CPU_US_<function> in the frame loop's functions, one at a
# time, with the generated wrappers of every other function in place
# (headless; the swapchain calls need a rendering session).
fn_cpu() {
	for spec in xrWaitFrame:headless xrBeginFrame:headless xrEndFrame:headless:endframe_cpu_ns \
		xrSyncActions:headless xrGetActionStatePose:headless xrLocateSpace:headless \
		xrLocateViews:headless xrAcquireSwapchainImage:vulkan2 xrWaitSwapchainImage:vulkan2 \
		xrReleaseSwapchainImage:vulkan2; do
		fn=${spec%%:*} rest=${spec#*:}
		graphics=${rest%%:*} series=${fn}_ns
		[ "$rest" = "$graphics" ] || series=${rest#*:}
		retry "$fn: per-function burn off by more than the tolerance 3 times" \
			fn_cpu_once "$fn" "$graphics" "$series" 300
	done
}

# XRTEST_TARGET_ANSWER_<function>: what the target answers never reaches
# the runtime, every N-th call exactly; the app runs its session to the end
# on the answers (exit 0), events still flowing with xrPollEvent every 3rd.
fn_answer() {
	run ans headless 100 0 XRTEST_CALL_COUNTS="$tmp/ans.csv" \
		XRTEST_TARGET_ANSWER_xrSyncActions=1 XRTEST_TARGET_ANSWER_xrGetActionStateBoolean=1 \
		XRTEST_TARGET_ANSWER_xrGetActionStateVector2f=1 XRTEST_TARGET_ANSWER_xrLocateSpace=2 \
		XRTEST_TARGET_ANSWER_xrPollEvent=3
	r=$(frames_run ans)
	for spec in xrSyncActions:1:1 xrGetActionStateBoolean:4:1 xrGetActionStateVector2f:2:1 \
		xrLocateSpace:6:2 xrGetActionStateFloat:4:0; do
		fn=${spec%%:*} rest=${spec#*:}
		per=${rest%%:*} every=${rest#*:}
		runtime=$(rcount ans "$fn")
		if [ "$every" -eq 0 ]; then
			[ "$runtime" -eq $((per * r)) ] || fail "$fn (not answered): runtime $runtime, want $((per * r))"
			continue
		fi
		calls=$(summary ans "$fn" calls) answered=$(summary ans "$fn" answered)
		echo "$fn every $every: target $calls calls, answered $answered; runtime $runtime"
		[ "$calls" -eq $((per * r)) ] && [ "$answered" -eq $((calls / every)) ] &&
			[ "$runtime" -eq $((calls - answered)) ] || fail "$fn: counts do not add up"
	done
	calls=$(summary ans xrPollEvent calls) answered=$(summary ans xrPollEvent answered)
	runtime=$(rcount ans xrPollEvent)
	echo "xrPollEvent every 3: target $calls calls, answered $answered; runtime $runtime; $r frames"
	[ "$answered" -eq $((calls / 3)) ] && [ "$runtime" -eq $((calls - answered)) ] ||
		fail "xrPollEvent: counts do not add up"
}

# XRTEST_TARGET_INDUCE_<function>: the runtime receives the induced calls
# on the app's own thread (from inside the app's call), as many as asked;
# none before a session exists (skipped, counted); the target's spaces are
# created and destroyed in pairs.
fn_induce() {
	run ind headless 100 0 XRTEST_CALL_COUNTS="$tmp/ind.csv" \
		XRTEST_TARGET_INDUCE_xrEndFrame=xrLocateSpace:4,xrGetInstanceProperties \
		XRTEST_TARGET_INDUCE_xrLocateViews=xrLocateViews:2 \
		XRTEST_TARGET_INDUCE_xrSyncActions=xrLocateSpace \
		XRTEST_TARGET_INDUCE_xrGetSystem=xrGetInstanceProperties
	r=$(frames_run ind)
	tid=$(awk -F, '$1 == "xrEndFrame" { print $2 }' "$tmp/ind.csv")
	echo "$r frames on thread $tid; the target's summary:"
	grep 'summary of' "$tmp/ind.err"
	for spec in xrLocateSpace:$((6 * r + 4 * r + r)) xrGetInstanceProperties:$r xrLocateViews:$((3 * r)); do
		fn=${spec%%:*} want=${spec#*:}
		got=$(rcount ind "$fn" "$tid") all=$(rcount ind "$fn")
		echo "$fn: runtime $got calls on the app's thread ($all in all), want $want"
		[ "$got" -eq "$want" ] && [ "$all" -eq "$want" ] || fail "$fn: induced calls miscounted"
	done
	[ "$(summary ind xrEndFrame induced)" -eq $((5 * r)) ] &&
		[ "$(summary ind xrEndFrame induced_failed)" -eq 0 ] &&
		[ "$(summary ind xrLocateViews induced)" -eq $((2 * r)) ] &&
		[ "$(summary ind xrSyncActions induced)" -eq "$r" ] ||
		fail "the target's own induced counts are wrong"
	[ "$(summary ind xrGetSystem induced)" -eq 0 ] && [ "$(summary ind xrGetSystem induced_skipped)" -eq 1 ] ||
		fail "a call induced before any session was not skipped"
	created=$(($(rcount ind xrCreateReferenceSpace) + $(rcount ind xrCreateActionSpace)))
	destroyed=$(rcount ind xrDestroySpace)
	echo "spaces: $created created ($(rcount ind xrCreateReferenceSpace) reference), $destroyed destroyed"
	[ "$(rcount ind xrCreateReferenceSpace)" -eq 5 ] && [ "$created" -eq "$destroyed" ] ||
		fail "the target's two reference spaces are not created and destroyed once each"
}

# thread_once: XRTEST_TARGET_THREAD_CALLS at 200 Hz in a paced 100 Hz
# session of 60 frames: the runtime receives 2 xrLocateSpace and one
# xrGetInstanceProperties per tick on a thread that is not the app's, the
# app's own xrLocateSpace stay on its thread, and the tick count is what
# the session's length allows: at least half of 0.6 s at 200 Hz, at most
# the app's whole run at 200 Hz (a slow build, e.g. under TSan, runs longer).
thread_once() {
	t0=$(date +%s%N)
	run thr headless 60 0 XRTEST_FRAME_RATE=100 XRTEST_CALL_COUNTS="$tmp/thr.csv" \
		XRTEST_TARGET_THREAD_CALLS=xrLocateSpace:2,xrGetInstanceProperties XRTEST_TARGET_THREAD_HZ=200
	most=$((($(date +%s%N) - t0) / 5000000 + 1))
	r=$(frames_run thr)
	tid=$(awk -F, '$1 == "xrEndFrame" { print $2 }' "$tmp/thr.csv")
	ticks=$(sed -n 's/^\[xrlm-test-target\] own thread: ticks=\([0-9]*\) calls=[0-9]* failed=0 .*/\1/p' "$tmp/thr.err")
	[ -n "$ticks" ] || { grep 'own thread' "$tmp/thr.err"; fail "no own-thread summary, or failed calls"; }
	app_ls=$(rcount thr xrLocateSpace "$tid") all_ls=$(rcount thr xrLocateSpace)
	all_ip=$(rcount thr xrGetInstanceProperties) app_ip=$(rcount thr xrGetInstanceProperties "$tid")
	echo "own thread: $ticks ticks (60..$most); runtime: xrLocateSpace $app_ls on the app's thread, $((all_ls - app_ls))" \
		"on others; xrGetInstanceProperties $app_ip / $((all_ip - app_ip)); $r frames"
	[ "$app_ls" -eq $((6 * r)) ] && [ $((all_ls - app_ls)) -eq $((2 * ticks)) ] &&
		[ "$app_ip" -eq 0 ] && [ "$all_ip" -eq "$ticks" ] || fail "own-thread calls miscounted"
	[ "$ticks" -ge 60 ] && [ "$ticks" -le "$most" ]
}

# The thread is joined at xrDestroySession: over three instance cycles in
# one process the thread count after each xrDestroyInstance stays the same.
fn_thread() {
	retry "own thread's tick count not what 200 Hz over the session gives, 3 times" thread_once
	XRTEST_TARGET_THREAD_CALLS=xrLocateSpace XRTEST_TARGET_THREAD_HZ=1000 "$app" --graphics headless \
		--frames 30 --cycles 3 >"$tmp/cyc.out" 2>"$tmp/cyc.err" || { cat "$tmp/cyc.err"; fail "cycles failed"; }
	n=$(grep -c 'own thread: ticks=' "$tmp/cyc.err")
	threads=$(sed -n 's/^cycle [0-9]* threads=\([0-9]*\) .*/\1/p' "$tmp/cyc.out" | sort -u)
	echo "3 cycles: $n own-thread summaries, threads after each cycle: $threads"
	[ "$n" -eq 3 ] && [ "$(echo "$threads" | wc -l)" -eq 1 ] || fail "the own thread is not joined per session"
}

# fn_bad_one NAME WANT_LINE VAR=VALUE: exactly one line matching WANT_LINE.
fn_bad_one() {
	name=$1 want=$2
	shift 2
	run "$name" headless 20 0 "$@"
	n=$(grep -c "$want" "$tmp/$name.err")
	[ "$n" -eq 1 ] || { cat "$tmp/$name.err"; fail "$name ($*): $n lines matching '$want', want 1"; }
	if grep -q "^\[xrlm-test-target\] knobs of" "$tmp/$name.err"; then
		cat "$tmp/$name.err"
		fail "$name ($*): a bad knob was taken"
	fi
	echo "$*: $(grep "$want" "$tmp/$name.err")"
}

# Bad per-function values: one line each naming the variable, the default
# (nothing) in effect, the app unharmed.
fn_bad_knobs() {
	fn_bad_one cpu_abc 'XRTEST_TARGET_CPU_US_xrWaitFrame="12abc".*using the default 0' \
		XRTEST_TARGET_CPU_US_xrWaitFrame=12abc
	fn_bad_one cpu_big 'XRTEST_TARGET_CPU_US_xrEndFrame="2000000".*using the default 0' \
		XRTEST_TARGET_CPU_US_xrEndFrame=2000000
	fn_bad_one cpu_neg 'XRTEST_TARGET_CPU_US_xrPollEvent="-5".*using the default 0' \
		XRTEST_TARGET_CPU_US_xrPollEvent=-5
	fn_bad_one cpu_unknown 'XRTEST_TARGET_CPU_US_xrNoSuchFunction: "xrNoSuchFunction" is not an OpenXR function' \
		XRTEST_TARGET_CPU_US_xrNoSuchFunction=100
	fn_bad_one cpu_gipa 'XRTEST_TARGET_CPU_US_xrGetInstanceProcAddr: .*is not an OpenXR function the target wraps' \
		XRTEST_TARGET_CPU_US_xrGetInstanceProcAddr=100
	fn_bad_one cpu_empty_name 'XRTEST_TARGET_CPU_US_: "" is not an OpenXR function' \
		XRTEST_TARGET_CPU_US_=100
	fn_bad_one answer_no 'XRTEST_TARGET_ANSWER_xrBeginFrame: the target cannot answer xrBeginFrame itself' \
		XRTEST_TARGET_ANSWER_xrBeginFrame=1
	fn_bad_one answer_abc 'XRTEST_TARGET_ANSWER_xrPollEvent="x".*using the default 0' \
		XRTEST_TARGET_ANSWER_xrPollEvent=x
	fn_bad_one answer_unknown 'XRTEST_TARGET_ANSWER_xrFoo: "xrFoo" is not an OpenXR function' \
		XRTEST_TARGET_ANSWER_xrFoo=1
	for v in xrFoo:2 xrLocateSpace:0 xrLocateSpace: xrLocateSpace:1001 xrLocateSpace,,xrLocateViews \
		xrLocateSpace:600,xrLocateSpace:600 "" xrLocateSpace:-1 " xrLocateSpace"; do
		fn_bad_one induce_bad "XRTEST_TARGET_INDUCE_xrEndFrame=\"$v\" is not a comma list.*using the default (none)" \
			XRTEST_TARGET_INDUCE_xrEndFrame="$v"
	done
	fn_bad_one induce_unknown 'XRTEST_TARGET_INDUCE_xrBogus: "xrBogus" is not an OpenXR function' \
		XRTEST_TARGET_INDUCE_xrBogus=xrLocateSpace
	fn_bad_one thread_calls 'XRTEST_TARGET_THREAD_CALLS="xrPollEvent:2" is not a comma list' \
		XRTEST_TARGET_THREAD_CALLS=xrPollEvent:2
	grep -q 'knobs: .* thread_calls=- thread_hz=100$' "$tmp/thread_calls.err" || fail "thread_calls not off"
	for v in 0 20000 fast; do
		fn_bad_one thread_hz "XRTEST_TARGET_THREAD_HZ=\"$v\".*using the default 100" \
			XRTEST_TARGET_THREAD_CALLS=xrLocateSpace XRTEST_TARGET_THREAD_HZ="$v"
		grep -q 'knobs: .* thread_calls=xrLocateSpace:1 thread_hz=100$' "$tmp/thread_hz.err" ||
			fail "THREAD_HZ=$v: default not used"
	done
}

case $case in
exports) exports ;;
passthrough) passthrough ;;
cpu-burn) cpu_burn ;;
gpu-work) gpu_work ;;
gpu-log) gpu_log ;;
app-load) app_load ;;
gpu-wait) gpu_wait ;;
gpu-gated) gpu_gated ;;
validation) validation ;;
bad-knobs) bad_knobs ;;
fn-cpu) fn_cpu ;;
fn-bad-knobs) fn_bad_knobs ;;
fn-answer) fn_answer ;;
fn-induce) fn_induce ;;
fn-thread) fn_thread ;;
*) fail "unknown case $case" ;;
esac
echo PASS
