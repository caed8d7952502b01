#!/bin/sh
# OpenGL sessions (README, GPU cost): hello_xr -g OpenGL on Xvfb (llvmpipe)
# through pre, the synthetic target and post, with core_validation below.
#
#   accuracy DRAWS [egl]
#                   the target draws DRAWS full-target triangles per frame
#                   between its own GL_TIMESTAMP pair (XRTEST_TARGET_GL_DRAWS,
#                   logged per frame): frame by frame, the median of
#                   |target_gpu_us - the target's own time| must stay within
#                   2 % of the target's median time + 50 us, with GPU values
#                   for >= 95 % of the frames. Frame by frame, because a
#                   preempted frame thread delays post's timestamp on an idle
#                   GPU (llvmpipe idles at once): such frames are real
#                   measurements of a gap, not errors, and the tail is shown.
#                   xrlm trace's GPU track has the frames' target GPU
#                   slices where pre issued their timestamps (gpu_trace).
#                   With "egl", the app is the test app on a surfaceless EGL
#                   context (XR_MNDX_egl_enable) instead of hello_xr on GLX.
#   stops           the test app (EGL) toggles the recording every 50
#                   frames (SIGUSR2) and runs on between recordings: every
#                   frame of every recording has its GPU value, the last
#                   ones before a stop too (their timestamps are read back
#                   on the frames after it, which are not recorded), and
#                   neither side logs GPU samples lost.
#   stops-every-frame  recordings of one frame each: OpenGL reads a
#                   timestamp back 2-8 frames late, after such a recording
#                   has closed its files, so its GPU value is lost; each
#                   side says so in its log (not silently).
#   not-current     the test app (EGL) calls every 10th xrEndFrame with no GL
#                   context current (an application bug): every frame still
#                   runs and is recorded, those frames get no GPU value, and
#                   each side's log counts exactly them as skipped (context
#                   not current); the other frames are measured as usual,
#                   and the GL state the app sees stays as it was.
#   glx-unset       hello_xr's GLX binding reaches the chain with visualid
#                   and glxFBConfig cleared (XRLM_TEST_GLX_UNSET_SHIM, as
#                   some apps leave them): the runtime says it got neither,
#                   GPU values for >= 95 % of the frames, core_validation
#                   silent.
#   no-gl-elsewhere neither layer library needs a GL, EGL or X library
#                   (readelf -d; the same filter finds libGL in the test
#                   runtime's), and on Vulkan and headless sessions (the
#                   test app, LD_DEBUG=bindings,files) the layers look up no
#                   gl*/glX*/egl* symbol and load no library, while on
#                   hello_xr's GLX session the same filter finds both
#                   layers' glXGetProcAddressARB lookup.
#   modes           the test app (EGL) with XRLM_GPU_MODE=gated: one loud
#                   line that GL has no gated mode, the plain sandwich
#                   (# gpu_mode=sandwich) with GPU values for >= 95 % of the
#                   frames; with XRLM_GPU_MODE=off: no GL timestamps at all
#                   (no GPU file, blank GPU cells), CPU columns as usual.
#   no-timer-query  Mesa is told to hide GL_ARB_timer_query (keeping GL 4.5
#                   so hello_xr still gets its context): every frame still
#                   runs and is recorded, GPU cells stay blank, and each side
#                   logs exactly one line saying why.
#   glthread DRAWS [hello_xr]
#                   the accuracy run of the test app (EGL; or hello_xr on
#                   GLX) under Mesa's
#                   glthread (driconf's mesa_glthread=true; Mesa 22.3 reads
#                   no MESA_GLTHREAD), the target queueing DRAWS draws a
#                   frame: the target finds glthread's worker thread, GPU
#                   values and accuracy as above, and each side's cost on the
#                   frame thread (logged at xrDestroySession, readback
#                   included, less the logged set-up of the first frame)
#                   stays under $GLTHREAD_MAX_US us a frame. Any GL
#                   call that returns data (glGetQueryObject*) would wait
#                   there for the GL thread to run the queued draws; each
#                   side says it reads back through its mapped query buffer,
#                   and the test app's GL state check holds for every frame.
#   old-readback    the accuracy run of the test app (EGL, 16 draws) on a
#                   context without what the mapped query buffer needs
#                   (Mesa's own switches: GL 4.4, GL_ARB_direct_state_access
#                   hidden): each side says it reads back with
#                   glGetQueryObject, GPU values and accuracy as above, and
#                   the app's GL state check (its buffer bound to
#                   GL_QUERY_BUFFER, which that readback steps around) holds
#                   for every frame.
#
# Runs under tests/common/with_xvfb.sh with XRLM_TEST_VIDMODE_SHIM set (not
# needed with egl).
# Usage: gl.sh accuracy DRAWS [egl] | gl.sh not-current | gl.sh glx-unset |
#        gl.sh no-gl-elsewhere | gl.sh modes | gl.sh no-timer-query |
#        gl.sh glthread DRAWS [hello_xr] | gl.sh old-readback |
#        gl.sh stops
. "$(dirname "$0")/lib.sh"
FRAMES=330
GLTHREAD_MAX_US=100

setup
export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=$FRAMES XRLM_RECORD=1

# The OpenGL app ($APP) through layers $1 (and core_validation where it
# knows the binding: not EGL's, see run_egl_app), into $XRLM_TEST_WORK/run.
run_gl() {
	if [ "$APP" = egl ]; then
		run_egl_app "$1" "$XRLM_TEST_WORK/run" "$FRAMES"
	else
		run_hello_xr OpenGL "$1:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/run"
	fi
}

# Frame count, GPU frame count and core_validation's verdict of one run.
check_run() {
	merged=$(merged_files)
	[ -n "$merged" ] || fail "no merged file"
	n=$(header_value "$merged" frame_count)
	[ "$n" -ge 300 ] || fail "only $n merged frames"
	gpu=$(header_value "$merged" gpu_frame_count)
	# Silent: no finding at all (the EGL runs have no core_validation).
	if [ -s "$XRLM_TEST_WORK/run/core_validation.txt" ]; then
		head -n 5 "$XRLM_TEST_WORK/run/core_validation.txt" >&2
		fail "core_validation reported something"
	fi
}

# The test app's GL state check (tests/app/app_gl_state.h): every frame's
# xrEndFrame left the bindings it can see as they were (a buffer bound to
# GL_QUERY_BUFFER among them), no query active and no GL error (the app
# exits non-zero at the first difference, naming it).
app_gl_state() {
	grep -q "^gl_state frames=$FRAMES changed=0 query_buffer=bound$" "$1" ||
		fail "the app's GL state check did not cover every frame: $(grep '^gl_state' "$1")"
}

# xrlm trace's GPU track (README, "Timeline view"): the target GPU slices of
# >= 95 % of the frames, placed by the GL calibration where pre issued the
# frame's timestamp or later (>= 95 % of them no earlier than 1 ms before
# pre's t_entry for that display_time), typically at once (median within
# 5 ms of it): tests/layer/gl_trace_check.py.
gpu_trace() {
	"$XRLM_TEST_XRLM" trace "$OUT" -o "$XRLM_TEST_WORK/trace.json" >/dev/null ||
		fail "xrlm trace failed"
	placement=$(python3 "$(dirname "$0")/gl_trace_check.py" "$XRLM_TEST_WORK/trace.json" \
		"$OUT"/frames-*-pre.csv) || fail "gl_trace_check.py failed"
	set -- $placement
	note "xrlm trace: $1 target GPU slices, $2 not before pre issued them, median $3 ms after pre's t_entry"
	awk -v s="$1" -v c="$2" -v m="$3" -v f="$n" \
		'BEGIN { exit !(s >= 0.95 * f && c >= 0.95 * s && m >= -1 && m <= 5) }' ||
		fail "xrlm trace's GPU slices are missing or misplaced"
}

# The GL, GLX, EGL and X libraries among the NEEDED entries of library $1.
gl_needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		grep -E '^lib(GL|GLX|EGL|OpenGL|GLdispatch|GLES|X11|xcb|gbm|wayland)' || true
}

# What the monitor's layers looked up or loaded of GL in LD_DEBUG=bindings,files
# output files $@: gl*/glX*/egl* symbols they bound, libraries they loaded.
layer_gl_use() {
	cat "$@" | sed 's/^ *[0-9]*:[[:space:]]*//' |
		grep -E "^binding file [^ ]*libXrApiLayer_xrlm_monitor_(pre|post)\.so .*symbol .(gl|glX|egl)[A-Z]|dynamically loaded by [^ ]*libXrApiLayer_xrlm_monitor_" |
		sort -u || true
}

# One accuracy run of $APP (XRTEST_TARGET_GL_DRAWS draws a frame): sets
# error (the per-frame error's median), errors (median and p90), truth and
# tol; $miss when the error is outside tol (see accuracy_attempts in lib.sh).
accuracy_run() {
	rm -rf "$OUT" "$XRLM_TEST_WORK/run" "$XRTEST_TARGET_GPU_LOG" && mkdir -p "$OUT"
	run_gl "$PRE:$TARGET:$POST"
	check_run
	awk -v g="$gpu" -v f="$n" 'BEGIN { exit !(g >= 0.95 * f) }' ||
		fail "only $gpu of $n frames have a GPU value"
	grep -q '^# gpu_clock=opengl$' "$OUT"/gpu-*-pre.csv || fail "the GPU file is not marked opengl"
	grep -q '^# calibration gpu_ticks=' "$OUT"/gpu-*-pre.csv || fail "no calibration line"
	# The Vulkan path's schema: GL's nanoseconds as ticks of 1 ns, valid 0 or 1.
	for side in pre post; do
		file=$(ls "$OUT"/gpu-*-$side.csv)
		[ "$(grep -v '^#' "$file" | head -n 1)" = display_time,gpu_ticks,gpu_period_ns,valid ] ||
			fail "$file does not have the GPU file's header"
		# llvmpipe reports a 64-bit GL_QUERY_COUNTER_BITS (Intel's Mesa drivers 36).
		grep -q '^# gpu_valid_bits=64$' "$file" || fail "$file does not say # gpu_valid_bits=64"
		odd=$(data_rows "$file" | awk -F, '$3 != 1 || ($4 != 0 && $4 != 1)' | wc -l)
		[ "$odd" = 0 ] || fail "$odd rows of $file have gpu_period_ns != 1 or valid not 0/1"
	done
	# Each frame's target_gpu_us next to the target's own time for it (us).
	data_rows "$merged" | awk -F, '$8 != "" { print $1 "," $8 }' | sort -t, -k1,1 \
		>"$XRLM_TEST_WORK/measured"
	tail -n +2 "$XRLM_TEST_WORK/target_gpu.csv" | awk -F, '{ print $1 "," $2 / 1000 }' |
		sort -t, -k1,1 >"$XRLM_TEST_WORK/truth"
	join -t, "$XRLM_TEST_WORK/measured" "$XRLM_TEST_WORK/truth" >"$XRLM_TEST_WORK/pairs"
	pairs=$(wc -l <"$XRLM_TEST_WORK/pairs")
	[ "$pairs" -ge 300 ] || fail "only $pairs frames measured by both the monitor and the target"
	truth=$(cut -d, -f3 "$XRLM_TEST_WORK/pairs" | sort -g |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	errors=$(awk -F, '{ d = $2 - $3; print (d < 0 ? -d : d) }' "$XRLM_TEST_WORK/pairs" | sort -g |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[int(NR * 0.9)] }')
	error=${errors% *}
	tol=$(awk -v t="$truth" 'BEGIN { print 0.02 * t + 50 }')
	note "$APP, $XRTEST_TARGET_GL_DRAWS draws: target's own GL time median ${truth} us; per-frame |target_gpu_us - truth| median ${error} us, p90 ${errors#* } us (tolerance ${tol} us); $gpu of $n frames with GPU values"
	near "$error" 0 "$tol" ||
		miss="target_gpu_us is off the target's own time by ${error} us (median)"
}

# One glthread run: accuracy_run, then each side's GL cost on the frame
# thread under glthread against GLTHREAD_MAX_US ($miss when over). Sets
# thread, applog and costs.
glthread_run() {
	accuracy_run
	[ -z "$miss" ] || return 0
	applog=$XRLM_TEST_WORK/run/app.log
	[ "$APP" = egl ] || applog=$XRLM_TEST_WORK/run/hello_xr.log
	thread=$(sed -n 's/.*\[xrlm-test-target\] GL thread: //p' "$applog")
	echo "$thread" | grep -q ':gl[0-9]*$' || fail "glthread is not on in the app: GL thread: $thread"
	costs= over=
	for side in pre post; do
		log=$OUT/xrlm-$side.log
		each=$(sed -n 's/.*GPU (OpenGL): \([0-9]*\) frames stamped, \([0-9.]*\) us each on the frame thread.*/\1 \2/p' "$log")
		setup_us=$(sed -n 's/.*GPU timestamps (OpenGL): .*(set-up \([0-9.]*\) us on the frame thread).*/\1/p' "$log")
		[ -n "$each" ] && [ -n "$setup_us" ] || fail "$side logged no per-frame GL cost or no set-up cost"
		# Without the first frame's set-up (logged apart): its once-per-session
		# syncs wait for whatever the app queued before (the target's shader
		# compile, before post's), tens of ms spread over the frames.
		us=$(echo "$each" | awk -v s="$setup_us" '{ printf "%.2f", ($1 * $2 - s) / $1 }')
		costs="$costs $side $us us (set-up $setup_us us)"
		awk -v u="$us" -v m="$GLTHREAD_MAX_US" 'BEGIN { exit !(u <= m) }' ||
			over="$over $side"
	done
	[ -z "$over" ] ||
		miss="the GL stamp costs more than $GLTHREAD_MAX_US us a frame on the frame thread under glthread:$over ($costs)"
}

case $1 in
accuracy)
	export XRTEST_TARGET_GL_DRAWS=$2 XRTEST_TARGET_GPU_LOG=$XRLM_TEST_WORK/target_gpu.csv
	APP=${3:-hello_xr}
	# llvmpipe's GPU is the CPU: a miss while the host takes the CPUs is
	# run again (accuracy_attempts in lib.sh).
	accuracy_attempts accuracy_run
	# The workload is really there: llvmpipe takes ~45 us a draw here.
	awk -v t="$truth" -v d="$2" 'BEGIN { exit !(t >= 10 * d) }' ||
		fail "the target's own GL time is only ${truth} us for $2 draws"
	gpu_trace
	if [ "$APP" = egl ]; then
		app_gl_state "$XRLM_TEST_WORK/run/app.log"
	fi
	;;
glthread)
	export mesa_glthread=true
	export XRTEST_TARGET_GL_DRAWS=$2 XRTEST_TARGET_GPU_LOG=$XRLM_TEST_WORK/target_gpu.csv
	APP=${3:-egl}
	# The cost bound is a timing too: a run that misses it on a busy
	# machine is run again with the accuracy's (accuracy_attempts).
	accuracy_attempts glthread_run
	note "glthread ($thread), $APP, $2 draws a frame: per-frame GL cost on the frame thread:$costs (bound $GLTHREAD_MAX_US us)"
	for side in pre post; do
		grep -q "GPU timestamps (OpenGL): .*read back through a mapped query buffer, no wait" "$OUT/xrlm-$side.log" ||
			fail "$side does not read back through the mapped query buffer"
	done
	if [ "$APP" = egl ]; then
		app_gl_state "$applog"
	fi
	;;
old-readback)
	export MESA_GL_VERSION_OVERRIDE=4.4 MESA_EXTENSION_OVERRIDE=-GL_ARB_direct_state_access
	export XRTEST_TARGET_GL_DRAWS=16 XRTEST_TARGET_GPU_LOG=$XRLM_TEST_WORK/target_gpu.csv
	APP=egl
	accuracy_attempts accuracy_run
	for side in pre post; do
		grep -q "GPU timestamps (OpenGL): .*read back with glGetQueryObject" "$OUT/xrlm-$side.log" ||
			fail "$side does not read back with glGetQueryObject: $(grep -h 'GPU timestamps (OpenGL)' "$OUT/xrlm-$side.log")"
	done
	app_gl_state "$XRLM_TEST_WORK/run/app.log"
	note "GL 4.4 without GL_ARB_direct_state_access: both sides read back with glGetQueryObject"
	;;
stops)
	# SIGUSR2 every $EVERY frames: recordings of $EVERY frames each, the
	# application running on between them.
	# 275 frames: stops at 50, 150 and 250, each recording ended by one.
	EVERY=50 FRAMES=275
	export XRTEST_TARGET_GL_DRAWS=4
	run_egl_app "$PRE:$TARGET:$POST" "$XRLM_TEST_WORK/run" "$FRAMES" --toggle-every $EVERY
	sessions=0 summary=
	for merged in $(merged_files); do
		n=$(header_value "$merged" frame_count) gpu=$(header_value "$merged" gpu_frame_count)
		summary="$summary $gpu/$n"
		[ "$n" -ge $((EVERY - 1)) ] || fail "$merged: only $n frames recorded of $EVERY"
		[ "$gpu" = "$n" ] || fail "$merged: $gpu of its $n frames have a GPU value"
		sessions=$((sessions + 1))
	done
	[ "$sessions" = 3 ] || fail "$sessions recordings, not 3"
	for side in pre post; do
		! grep -q "GPU samples lost" "$OUT/xrlm-$side.log" ||
			fail "$side lost GPU samples: $(grep -h 'GPU samples lost' "$OUT/xrlm-$side.log")"
		# A clock correlation per recording, its cost logged.
		grep -q "GPU (OpenGL): $sessions clock correlations (one per recording.*us each on the frame thread" \
			"$OUT/xrlm-$side.log" ||
			fail "$side did not log $sessions clock correlations with their cost: $(grep -h 'clock correlations' "$OUT/xrlm-$side.log")"
	done
	note "$sessions recordings stopped while the app ran on: GPU values/frames$summary"
	;;
stops-every-frame)
	export XRTEST_TARGET_GL_DRAWS=4
	run_egl_app "$PRE:$TARGET:$POST" "$XRLM_TEST_WORK/run" 40 --toggle-every 1
	[ -n "$(merged_files)" ] || fail "nothing recorded"
	for side in pre post; do
		grep -q "GPU sample of session [0-9]* came after its files were closed: lost" \
			"$OUT/xrlm-$side.log" || fail "$side did not say its late GPU samples were lost"
	done
	;;
not-current)
	EVERY=10
	run_egl_app "$PRE:$TARGET:$POST" "$XRLM_TEST_WORK/run" "$FRAMES" --gl-uncurrent-every $EVERY
	check_run
	skipped=$((FRAMES / EVERY))
	for side in pre post; do
		grep -q "frames stamped, .* $skipped skipped (context not current)" "$OUT/xrlm-$side.log" ||
			fail "$side did not count $skipped frames without the context: $(grep -h 'skipped (context' "$OUT/xrlm-$side.log")"
	done
	blank=$(data_rows "$merged" | cut -d, -f8 | grep -c '^$' || true)
	[ "$blank" -ge "$skipped" ] || fail "only $blank blank target_gpu_us cells for $skipped frames without the context"
	awk -v g="$gpu" -v f="$n" -v s="$skipped" 'BEGIN { exit !(g >= 0.95 * (f - s)) }' ||
		fail "only $gpu of the $n - $skipped frames with the context current have a GPU value"
	app_gl_state "$XRLM_TEST_WORK/run/app.log"
	note "$n frames, $skipped called without the context: counted by both sides, $blank blank GPU cells, $gpu with GPU values"
	;;
glx-unset)
	XRLM_TEST_HELLO_PRELOAD="${XRLM_TEST_HELLO_PRELOAD:-} ${XRLM_TEST_GLX_UNSET_SHIM:?}"
	export XRTEST_TARGET_GL_DRAWS=8
	run_hello_xr OpenGL "$PRE:$TARGET:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/run"
	log=$XRLM_TEST_WORK/run/hello_xr.log
	grep -q "visualid and glxFBConfig cleared" "$log" || fail "the shim did not clear the binding"
	grep -q "OpenGL session (GLX): .*(no visualid or glxFBConfig: not needed)" "$log" ||
		fail "the runtime got a visualid or glxFBConfig"
	check_run
	awk -v g="$gpu" -v f="$n" 'BEGIN { exit !(g >= 0.95 * f) }' ||
		fail "only $gpu of $n frames have a GPU value"
	note "binding without visualid and glxFBConfig: $gpu of $n frames with GPU values, core_validation silent"
	;;
no-gl-elsewhere)
	for lib in ${XRLM_TEST_LAYER_LIBS:?}; do
		[ -z "$(gl_needed "$lib")" ] || fail "$lib needs $(gl_needed "$lib" | tr '\n' ' ')"
	done
	runtime_lib=$(sed -n 's/.*"library_path": *"\(.*\)".*/\1/p' "$XRLM_TEST_RUNTIME_JSON")
	gl_needed "$runtime_lib" | grep -q '^libGL' || fail "the NEEDED filter misses the test runtime's libGL"
	# libGLX preloaded (the app links only libEGL and libOpenGL), so that a
	# glX* lookup would succeed and show as a binding; LD_DEBUG names who
	# asked only for lookups that succeed. ASan wants to come first: told not to check.
	export XRTEST_FRAME_RATE=0
	for graphics in vulkan2 headless; do
		rm -rf "$OUT"/* && mkdir -p "$XRLM_TEST_WORK/ld-$graphics"
		env LD_DEBUG=bindings,files LD_DEBUG_OUTPUT="$XRLM_TEST_WORK/ld-$graphics/ld" \
			LD_PRELOAD=libGLX.so.0 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$XRLM_TEST_APP" --graphics $graphics --frames 30 >"$XRLM_TEST_WORK/app.log" 2>&1 ||
			fail "xrlm-test-app --graphics $graphics failed: $(tail -n 5 "$XRLM_TEST_WORK/app.log")"
		[ -n "$(merged_files)" ] || fail "the $graphics session was not recorded"
		used=$(layer_gl_use "$XRLM_TEST_WORK/ld-$graphics"/ld.*)
		[ -z "$used" ] || fail "on a $graphics session the layers touched GL: $used"
	done
	# The filter's control: a GLX session's lookups are found.
	export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=30
	mkdir -p "$XRLM_TEST_WORK/ld-glx"
	export LD_DEBUG=bindings,files LD_DEBUG_OUTPUT="$XRLM_TEST_WORK/ld-glx/ld"
	run_hello_xr OpenGL "$PRE:$TARGET:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/glx"
	unset LD_DEBUG LD_DEBUG_OUTPUT
	for side in pre post; do
		layer_gl_use "$XRLM_TEST_WORK/ld-glx"/ld.* |
			grep -q "monitor_$side\.so .*glXGetProcAddressARB" ||
			fail "the filter did not find $side's glXGetProcAddressARB on a GLX session"
	done
	note "layers link no GL; Vulkan and headless sessions: no GL lookup, nothing loaded; GLX: $(layer_gl_use "$XRLM_TEST_WORK/ld-glx"/ld.* | grep -c .) lookups"
	;;
modes)
	FRAMES=100
	XRLM_GPU_MODE=gated run_egl_app "$PRE:$TARGET:$POST" "$XRLM_TEST_WORK/gated" $FRAMES
	merged=$(merged_files)
	n=$(header_value "$merged" frame_count) gpu=$(header_value "$merged" gpu_frame_count)
	[ "$n" = $FRAMES ] || fail "gated: $n merged frames of $FRAMES"
	awk -v g="$gpu" -v f="$n" 'BEGIN { exit !(g >= 0.95 * f) }' || fail "gated: only $gpu of $n frames have a GPU value"
	grep -q '^# gpu_mode=sandwich$' "$OUT"/gpu-*-pre.csv || fail "gated: the GPU file does not say sandwich"
	lines=$(grep -c "XRLM_GPU_MODE=gated is not possible for an OpenGL session" "$OUT/xrlm-pre.log" || true)
	[ "$lines" = 1 ] || fail "gated: pre said $lines times that GL has no gated mode"
	grep -q "XRLM_GPU_MODE=gated is not possible" "$XRLM_TEST_WORK/gated/app.log" ||
		fail "gated: the line is not on stderr"
	# Pre's alone: post has no gate to give up.
	! grep -q "XRLM_GPU_MODE=gated is not possible" "$OUT/xrlm-post.log" || fail "gated: post said it too"
	[ "$(grep -c "XRLM_GPU_MODE=gated is not possible" "$XRLM_TEST_WORK/gated/app.log")" = 1 ] ||
		fail "gated: the line is on stderr more than once"
	rm -rf "$OUT" && mkdir -p "$OUT"
	XRLM_GPU_MODE=off run_egl_app "$PRE:$TARGET:$POST" "$XRLM_TEST_WORK/off" $FRAMES
	merged=$(merged_files)
	[ "$(header_value "$merged" frame_count)" = $FRAMES ] || fail "off: not $FRAMES merged frames"
	[ -z "$(ls "$OUT"/gpu-*.csv 2>/dev/null)" ] || fail "off: a GPU file was written"
	[ "$(data_rows "$merged" | cut -d, -f8 | grep -c . || true)" = 0 ] || fail "off: GPU cells are filled"
	[ "$(data_rows "$merged" | cut -d, -f6 | grep -c . || true)" = $FRAMES ] || fail "off: CPU cells are blank"
	! grep -q "OpenGL session" "$OUT/xrlm-pre.log" || fail "off: the GL timestamps were set up"
	note "gated: sandwich, $gpu of $n frames with GPU values, one line; off: no GPU file, blank GPU cells"
	;;
no-timer-query)
	# Mesa's own switches: the driver itself reports the extension missing.
	export MESA_EXTENSION_OVERRIDE=-GL_ARB_timer_query MESA_GL_VERSION_OVERRIDE=4.5
	run_hello_xr OpenGL "$PRE:$TARGET:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/run"
	check_run
	[ "$gpu" = 0 ] || fail "$gpu frames have a GPU value without timer queries"
	blank=$(data_rows "$merged" | cut -d, -f8 | grep -c . || true)
	[ "$blank" = 0 ] || fail "$blank target_gpu_us cells are filled"
	cpu=$(data_rows "$merged" | cut -d, -f6 | grep -c . || true)
	[ "$cpu" = "$n" ] || fail "only $cpu of $n rows have a target_us: the CPU columns suffered"
	grep -q "\[xrlm-test-runtime\] $FRAMES frames done" "$XRLM_TEST_WORK/run/hello_xr.log" ||
		fail "hello_xr did not run all $FRAMES frames"
	for side in pre post; do
		lines=$(grep -c "GPU timestamps unavailable (OpenGL: GL_ARB_timer_query" "$OUT/xrlm-$side.log" || true)
		[ "$lines" = 1 ] || fail "$side logged the missing timer queries $lines times"
	done
	note "$n frames recorded, GPU cells blank, one log line per side: $(grep -h 'OpenGL: GL_ARB' "$OUT/xrlm-pre.log" | cut -d: -f4-)"
	;;
*)
	fail "unknown case $1"
	;;
esac
