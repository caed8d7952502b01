#!/bin/sh
# exit() while xrDestroyInstance stops the monitoring (post's writer
# stop, which waits for the merge): the layers' destructors must not stop
# it a second time (they woke a destroyed condition variable, joined a
# joined thread, and ended the instance under the merge). The shim
# (rel_exit_shim.c) calls exit() at post's join of its writer:
#   same   from a signal handler on that thread (a second Ctrl-C): the
#          destructors return at once
#   other  on another thread: the destructors wait for the stop, and
#          the session is merged
# Neither runs a stop of its own ("process exiting with the instance
# alive" is not logged). A hang is killed after 60 s and fails. The exit
# status is not checked: the OpenXR loader's own exit handlers unload the
# runtime under the thread still in xrDestroyInstance (other), and the
# post library under its merge thread (same), both outside the layers.
#   create exit() on another thread while pre's xrCreateInstance starts its
#          first thread: the destructors wait for the creation, which
#          finishes (its control socket line is logged), and stop at most once
# Usage: exit_in_destroy.sh same|other|create
. "$(dirname "$0")/rel_lib.sh"
setup
: "${XRLM_TEST_EXIT_SHIM:?}"
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
# Under ASan: the shim comes before ASan's runtime; and the crash at exit
# that the OpenXR loader's exit handlers may cause (above: outside the
# layers, and the exit status is not checked) is not reported as ours.
[ "${XRLM_TEST_SANITIZE:-}" != address ] ||
	export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0:handle_segv=0
rc=0
if [ "$1" = create ]; then
	export XDG_RUNTIME_DIR=$XRLM_TEST_WORK/run
	mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	LD_PRELOAD=$XRLM_TEST_EXIT_SHIM REL_EXIT_CREATE=1 \
		timeout -s KILL 60 "$XRLM_TEST_APP" --graphics headless --frames 300 \
		>"$XRLM_TEST_WORK/app.log" 2>&1 || rc=$?
	[ $rc -ne 137 ] || fail "the process hung (killed after 60 s)"
	grep -q "rel_exit_shim: pre starts its first thread" "$XRLM_TEST_WORK/app.log" ||
		{ cat "$XRLM_TEST_WORK/app.log" >&2; fail "the shim never called exit() (exit $rc)"; }
	# The creation went on to its end (the control socket, pre's last
	# step): pre's destructor did not stop the monitoring under it (it did
	# at once before, and the process ended before the creation went on).
	# What the destructor does after is not checked: the OpenXR loader's
	# own exit handlers tear the loader down under the thread still in
	# xrCreateInstance, which may crash there (outside the layers).
	log=$OUT/xrlm-pre.log
	sock=$(grep -n "control socket: /" "$log" | head -n 1 | cut -d: -f1)
	stop=$(grep -n "process exiting with the instance alive" "$log" | head -n 1 | cut -d: -f1)
	[ -n "$sock" ] || fail "pre's creation did not finish: $(cat "$log")"
	[ -z "$stop" ] || [ "$stop" -gt "$sock" ] ||
		fail "pre's destructor stopped the monitoring under the creation: $(cat "$log")"
	[ "$(grep -c "process exiting with the instance alive" "$log")" -le 1 ] ||
		fail "pre's destructor stopped the monitoring twice"
	note "create: exit() during xrCreateInstance: the creation finished, one stop (exit status $rc)"
	exit 0
fi
LD_PRELOAD=$XRLM_TEST_EXIT_SHIM REL_EXIT_JOIN=$1 \
	timeout -s KILL 60 "$XRLM_TEST_APP" --graphics headless --frames 300 \
	>"$XRLM_TEST_WORK/app.log" 2>&1 || rc=$?
[ $rc -ne 137 ] || fail "the process hung (killed after 60 s)"
grep -q "rel_exit_shim: .* exit(0)" "$XRLM_TEST_WORK/app.log" ||
	{ cat "$XRLM_TEST_WORK/app.log" >&2; fail "the shim never called exit() (exit $rc)"; }
for side in pre post; do
	! grep -q "process exiting with the instance alive" "$OUT/xrlm-$side.log" ||
		fail "$side's destructor stopped the monitoring a second time"
done
if [ "$1" = other ]; then
	! grep -q "rel_exit_shim: no destructor waited" "$XRLM_TEST_WORK/app.log" ||
		fail "the exit() never reached a destructor that waits for the stop"
	[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
fi
note "$1: exit() during xrDestroyInstance's stop: one stop (exit status $rc)"
