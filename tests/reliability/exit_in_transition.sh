#!/bin/sh
# exit() from a signal handler on the frame thread while pre starts a
# session (XL_BUSY held in xl_control_pre_frame_slow): the layers'
# destructors run on that thread's stack, below the interrupted start.
# Pre's stop waited for ever, at 100 % CPU, for the start to finish; it
# must give up within its bound (said once in the log), and the process
# exit 0, promptly. The shim (rel_exit_shim.c) raises the signal at the
# start's clock read; a hang is killed after 60 s and fails.
#   first   the first frame starts session 1 (XRLM_RECORD=1)
#   second  session 1 records 100 frames (XRLM_RECORD_FRAMES) and is
#           merged; the toggle signal starts session 2, which is hit:
#           session 1's files stay whole and merged
# Usage: exit_in_transition.sh first|second
. "$(dirname "$0")/rel_lib.sh"
setup
: "${XRLM_TEST_EXIT_SHIM:?}"
export XRTEST_FRAME_RATE=500 XRLM_RECORD=1

lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$XRLM_TEST_MANIFESTS/XrApiLayer_xrlm_monitor_pre.json")
# The start's code: the transition function and what the compiler kept of
# its helpers out of line (a sanitizer build's lower optimisation).
ranges=$(nm -S --defined-only "$lib" | awk '
	$4 ~ /^(xl_control_pre_frame_slow|apply_requests|begin_session)([.].*)?$/ {
		printf "%s%s:%s", sep, $1, $2; sep = ","
	}')
[ -n "$ranges" ] || fail "no symbol of the recording start in $lib (stripped?)"
skip=0
if [ "$1" = second ]; then
	export XRLM_RECORD_FRAMES=100
	skip=1
fi
# The shim before an ASan build's runtime: see lifecycle.sh.
[ "${XRLM_TEST_SANITIZE:-}" != address ] ||
	export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
LD_PRELOAD=$XRLM_TEST_EXIT_SHIM REL_EXIT_RANGES=$ranges REL_EXIT_SKIP=$skip \
	timeout -s KILL 60 "$XRLM_TEST_APP" --graphics headless --frames 15000 \
	>"$XRLM_TEST_WORK/app.log" 2>&1 &
APP_PID=$!
t0=$(mono_ns)
if [ "$1" = second ]; then
	wait_for_line "$OUT/xrlm-pre.log" ": 100 rows, "
	# The app's, not timeout's: pre's log names it.
	kill -USR2 "$(sed -n 's/.*send it with: kill -12 \([0-9]*\)$/\1/p' "$OUT/xrlm-pre.log")"
fi
rc=0
wait "$APP_PID" || rc=$?
took_ms=$((($(mono_ns) - t0) / 1000000))
[ $rc -ne 137 ] || fail "the process hung at exit() from the handler (killed after 60 s)"
grep -q "the handler calls exit" "$XRLM_TEST_WORK/app.log" ||
	{ cat "$XRLM_TEST_WORK/app.log" >&2; fail "the shim never raised its signal (exit $rc)"; }
[ $rc -eq 0 ] || { cat "$XRLM_TEST_WORK/app.log" >&2; fail "the app exited $rc, not 0"; }
one_line "$OUT/xrlm-pre.log" "process exiting with the instance alive"
# Said once, by the side whose destructor runs first (pre, with this loader).
n=$(cat "$OUT/xrlm-pre.log" "$OUT/xrlm-post.log" | grep -c "inside a recording start or stop for 100 ms" || true)
[ "$n" -eq 1 ] || fail "$n log lines say the stop gave up waiting, want 1"
if [ "$1" = second ]; then
	[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
	rows=$(data_rows "$(ls "$OUT"/frames-*-pre.csv)" | wc -l)
	[ "$rows" -eq 100 ] || fail "session 1 has $rows rows, not 100"
fi
note "$1: exit() from a handler inside the start: exit 0 after $took_ms ms"
