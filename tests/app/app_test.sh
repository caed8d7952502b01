#!/bin/sh
# Tests of xrlm-test-app (run by ctest; see app_tests.cmake).
#
#   app_test.sh APP run GRAPHICS FRAMES WARMUP [APP ARGS...]
#       runs the app with --stats; checks exit 0 and every stats line
#   app_test.sh APP runtime-exit
#       the runtime ends the session early (XRTEST_EXIT_AFTER_FRAMES): exit 0
#   app_test.sh APP bad-args
#       each bad command line: exit 2 and exactly one line on stderr
#   app_test.sh APP calls GRAPHICS full|frame
#       the runtime's call counts (XRTEST_CALL_COUNTS): exactly the calls the
#       --calls mix makes per frame; the app's per-call series agree
#   app_test.sh APP frame-log
#       --frame-log: a line per frame ended, display times increasing, each
#       xrEndFrame's entry before its exit and after the last one's exit
set -u
# Only what a test sets may influence it.
unset XR_ENABLE_API_LAYERS XRTEST_EXIT_AFTER_FRAMES XRTEST_COMPOSITOR_CPU_US XRTEST_COMPOSITOR_GPU_US \
	XRTEST_COMPOSITOR_GPU_WAIT XRTEST_CALL_COUNTS
app=$1
mode=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# field FILE SERIES KEY: the value of KEY= on SERIES's line.
field() {
	awk -v s="$2" -v k="$3" '$1 == s { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' "$1"
}

check_series() { # FILE SERIES WANT_COUNT
	line=$(grep "^$2 " "$1") || fail "no $2 line"
	if [ "$3" -eq 0 ]; then
		[ "$line" = "$2 count=0" ] || fail "expected '$2 count=0', got '$line'"
		return
	fi
	echo "$line" | grep -Eq "^$2 count=[0-9]+ mean=[0-9]+ p50=[0-9]+ p95=[0-9]+ p99=[0-9]+ min=[0-9]+ max=[0-9]+\$" ||
		fail "malformed line '$line'"
	count=$(field "$1" "$2" count)
	[ "$count" -eq "$3" ] || fail "$2 count=$count, want $3"
	set -- $(for k in min p50 p95 p99 max; do field "$1" "$2" $k; done)
	[ "$1" -le "$2" ] && [ "$2" -le "$3" ] && [ "$3" -le "$4" ] && [ "$4" -le "$5" ] ||
		fail "$2: min <= p50 <= p95 <= p99 <= max does not hold: $line"
}

run_mode() {
	graphics=$1 frames=$2 warmup=$3
	shift 3
	"$app" --frames "$frames" --warmup "$warmup" --graphics "$graphics" --stats "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/out"
	[ $rc -eq 0 ] || { cat "$tmp/err" >&2; fail "exit status $rc"; }
	measured=$((frames - warmup))
	check_series "$tmp/out" endframe_cpu_ns $measured
	# The app's GPU bracket is Vulkan's: none for headless or EGL sessions.
	if [ "$graphics" = headless ] || [ "$graphics" = egl ]; then
		check_series "$tmp/out" endframe_gpu_ns 0
	else
		check_series "$tmp/out" endframe_gpu_ns $measured
	fi
	# Intervals need a previous frame: one fewer without warm-up.
	[ "$warmup" -eq 0 ] && measured=$((measured - 1))
	check_series "$tmp/out" frame_interval_ns $measured
	run=$(grep '^run ' "$tmp/out") || fail "no run line"
	echo "$run" | grep -q "graphics=$graphics " || fail "run line: $run"
	echo "PASS"
}

runtime_exit() {
	XRTEST_EXIT_AFTER_FRAMES=20 "$app" --frames 100000 --graphics headless --stats \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/out" "$tmp/err"
	[ $rc -eq 0 ] || fail "exit status $rc"
	ran=$(awk '$1 == "run" { for (i = 2; i <= NF; i++) if ($i ~ /^frames_run=/) { sub(/.*=/, "", $i); print $i } }' "$tmp/out")
	[ -n "$ran" ] && [ "$ran" -ge 20 ] && [ "$ran" -lt 100 ] || fail "frames_run=$ran, want about 20"
	echo "PASS"
}

bad_one() { # ARGS...: must exit 2 with one stderr line
	"$app" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	printf '%s -> rc=%s: %s\n' "$*" "$rc" "$(cat "$tmp/err")"
	[ $rc -eq 2 ] || fail "'$*' exited $rc, want 2"
	[ "$lines" -eq 1 ] || fail "'$*' printed $lines lines on stderr, want 1"
}

bad_args() {
	bad_one --frames
	bad_one --frames abc
	bad_one --frames 0
	bad_one --frames 12x
	bad_one --frames -3
	bad_one --warmup 10 --frames 10
	bad_one --graphics opengl
	bad_one --graphics egl --threads 2
	bad_one --graphics egl --gpu-us 100
	bad_one --gl-uncurrent-every 5
	bad_one --graphics egl --gl-uncurrent-every 0
	bad_one --threads 3
	bad_one --threads old
	bad_one --graphics egl --threads new
	bad_one --calls all
	bad_one --fork-destroy
	bad_one --frame-log ""
	bad_one --frame-log "$tmp/log" --cycles 2
	bad_one --calls
	bad_one --bogus
	bad_one extra
	echo "PASS"
}

# count FUNCTION: the runtime's calls of FUNCTION, all threads.
count() {
	awk -F, -v f="$1" '$1 == f { n += $3 } END { print n + 0 }' "$tmp/calls.csv"
}

# want FUNCTION N: the runtime saw exactly N calls of FUNCTION.
want() {
	got=$(count "$1")
	[ "$got" -eq "$2" ] || fail "$1: $got calls, want $2"
}

calls_mode() {
	graphics=$1 mix=$2
	XRTEST_CALL_COUNTS="$tmp/calls.csv" "$app" --frames 120 --warmup 20 --graphics "$graphics" \
		--calls "$mix" --stats >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "exit status $?"; }
	grep -q '^fn,thread_id,calls$' "$tmp/calls.csv" || fail "no call counts written"
	r=$(awk '$1 == "run" { for (i = 2; i <= NF; i++) if ($i ~ /^frames_run=/) { sub(/.*=/, "", $i); print $i } }' "$tmp/out")
	for f in xrWaitFrame xrBeginFrame xrEndFrame; do want $f "$r"; done
	rendered=$(count xrAcquireSwapchainImage)
	if [ "$graphics" = headless ]; then
		[ "$rendered" -eq 0 ] || fail "headless: $rendered swapchain images acquired"
	else
		[ "$rendered" -ge $((r - 3)) ] && [ "$rendered" -le "$r" ] ||
			fail "$rendered images acquired in $r frames"
	fi
	want xrWaitSwapchainImage "$rendered"
	want xrReleaseSwapchainImage "$rendered"
	if [ "$mix" = full ]; then
		per=1 views=$r
	else
		per=0 views=$rendered
	fi
	want xrLocateViews "$views"
	want xrSyncActions $((per * r))
	want xrGetActionStateBoolean $((per * 4 * r))
	want xrGetActionStateFloat $((per * 4 * r))
	want xrGetActionStateVector2f $((per * 2 * r))
	want xrGetActionStatePose $((per * 4 * r))
	want xrLocateSpace $((per * 6 * r))
	# The app's own per-call series: the measured frames' calls.
	m=100
	[ "$(field "$tmp/out" xrLocateSpace_ns count)" -eq $((per * 6 * m)) ] || fail "xrLocateSpace_ns count"
	[ "$(field "$tmp/out" xrWaitFrame_ns count)" -eq $m ] || fail "xrWaitFrame_ns count"
	polls=$(count xrPollEvent)
	[ "$polls" -ge "$r" ] || fail "$polls xrPollEvent calls in $r frames"
	total=$(awk -F, 'NR > 1 && $1 ~ /^xr(WaitFrame|BeginFrame|EndFrame|PollEvent|SyncActions|GetActionState|LocateSpace|LocateViews|AcquireSwapchainImage|WaitSwapchainImage|ReleaseSwapchainImage)/ { n += $3 } END { print n }' "$tmp/calls.csv")
	echo "$graphics --calls $mix: $r frames, $total frame-loop calls ($((total / r)) per frame)"
	[ "$graphics $mix" = "headless full" ] || { echo PASS; return; }
	XRTEST_CALL_COUNTS=/nonexistent/dir/calls.csv "$app" --frames 10 --graphics headless \
		>"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "unwritable path: exit status $?"; }
	n=$(grep -c 'warning: XRTEST_CALL_COUNTS: cannot open /nonexistent/dir/calls.csv' "$tmp/err")
	[ "$n" -eq 1 ] || { cat "$tmp/err" >&2; fail "unwritable path: $n warnings, want 1"; }
	echo "PASS"
}

frame_log() {
	"$app" --frames 40 --graphics headless --frame-log "$tmp/log" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "exit status $?"; }
	[ "$(head -n 1 "$tmp/log")" = display_time,end_entry_ns,end_exit_ns ] || fail "no header"
	[ "$(tail -n +2 "$tmp/log" | wc -l)" -eq 40 ] || fail "$(tail -n +2 "$tmp/log" | wc -l) frames logged, want 40"
	awk -F, 'NR > 1 {
		if (NF != 3 || $3 < $2 || (NR > 2 && ($1 <= d || $2 < x))) { print "bad line " NR ": " $0; exit 1 }
		d = $1; x = $3
	}' "$tmp/log" || fail "frame log out of order"
	"$app" --frames 5 --graphics headless --frame-log /nonexistent/dir/log >"$tmp/out" 2>"$tmp/err" &&
		fail "an unwritable --frame-log exited 0"
	grep -q "frame-log /nonexistent/dir/log: No such file or directory" "$tmp/err" ||
		fail "unwritable --frame-log: $(cat "$tmp/err")"
	echo "PASS"
}

case $mode in
run) run_mode "$@" ;;
frame-log) frame_log ;;
runtime-exit) runtime_exit ;;
bad-args) bad_args ;;
calls) calls_mode "$@" ;;
*) fail "unknown mode $mode" ;;
esac
