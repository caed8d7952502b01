#!/bin/sh
# The application forks while recording.
#   exit     the child exits through exit() at once (as a helper process
#            does), running the layers' destructor in a copy of the
#            monitored instance. The child must exit promptly (it hung
#            joining a copy of the parent's writer thread), write nothing
#            (the parent's rows once, not twice) and log nothing; the
#            parent records and merges its session as if nothing happened.
#   destroy  the child calls xrDestroySession and xrDestroyInstance on the
#            handles it inherited, then exits. It must exit promptly (its
#            xrDestroyInstance hung destroying a copy of the writer's
#            condition variable, and went on to stop the parent's control
#            thread and remove its socket); then the parent's control
#            socket is there and answers, a recording started and stopped
#            through it is merged, and the parent's own xrDestroyInstance
#            ends it all (the socket removed).
# Usage: fork.sh headless|vulkan2 [exit|destroy]
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=90
frames=200
case ${2:-exit} in
exit)
	export XRLM_RECORD=1
	# The app waits up to 30 s for its child and fails if it hung.
	run_app --graphics "$1" --frames $frames --fork-at 50

	[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
	for side in pre post; do
		f=$(ls "$OUT"/frames-*-$side.csv)
		rows=$(data_rows "$f" | wc -l)
		unique=$(data_rows "$f" | cut -d, -f1 | sort -u | wc -l)
		[ "$rows" -eq $frames ] && [ "$unique" -eq $frames ] ||
			fail "$side: $rows rows, $unique display times, not $frames each (the child wrote rows?)"
		[ "$(grep -c '^# session_end ' "$f")" -eq 1 ] || fail "$side: not one footer"
		! grep -q "process exiting" "$OUT/xrlm-$side.log" || fail "the child's exit touched the $side log"
	done
	merged=$(ls "$OUT"/frames-merged-*.csv)
	[ "$(sed -n 's/^# frame_count=//p' "$merged")" -eq $frames ] || fail "the merged file lacks frames"
	note "$1: a forked child's exit() returned at once; the parent's $frames frames recorded once"
	;;
destroy)
	export XDG_RUNTIME_DIR=$XRLM_TEST_WORK/run
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	# 10 s at 90 Hz: the recording below starts and stops well inside it.
	start_app --graphics "$1" --frames 900 --fork-at 20 --fork-destroy
	sock=$XDG_RUNTIME_DIR/xrlm/$APP_PID.sock
	# The app waits up to 30 s for its child (a hang detector), then fails.
	while ! grep -q '^forked child [0-9]* exited$' "$XRLM_TEST_WORK/app.log"; do
		kill -0 "$APP_PID" 2>/dev/null || { wait_app; fail "the app ended before its child had exited"; }
		sleep 0.05
	done
	[ -S "$sock" ] || fail "the parent's control socket is gone after the child's xrDestroyInstance"
	"$XRLM_TEST_XRLM" ctl status "$APP_PID" >"$XRLM_TEST_WORK/ctl.out" 2>&1 ||
		fail "the parent's control socket does not answer: $(cat "$XRLM_TEST_WORK/ctl.out")"
	grep -q "^recording *0$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	"$XRLM_TEST_XRLM" ctl start "$APP_PID" >"$XRLM_TEST_WORK/ctl.out" 2>&1 ||
		fail "xrlm ctl start: $(cat "$XRLM_TEST_WORK/ctl.out")"
	sleep 1
	"$XRLM_TEST_XRLM" ctl stop "$APP_PID" >"$XRLM_TEST_WORK/ctl.out" 2>&1 ||
		fail "xrlm ctl stop: $(cat "$XRLM_TEST_WORK/ctl.out")"
	merged=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/ctl.out")
	[ -s "$merged" ] || fail "stop named no merged file: $(cat "$XRLM_TEST_WORK/ctl.out")"
	wait_app
	[ "$(check_all_sessions)" -eq 1 ] || fail "expected exactly one finished session"
	[ "$(sed -n 's/^# frame_count=//p' "$merged")" -ge 10 ] || fail "the merged file lacks frames"
	[ ! -e "$sock" ] || fail "the parent's xrDestroyInstance left its control socket"
	for side in pre post; do
		one_line "$OUT/xrlm-$side.log" "instance destroyed"
	done
	note "$1: a forked child's xrDestroyInstance returned at once; the parent's socket answered and its recording was merged"
	;;
*)
	fail "unknown case '$2'"
	;;
esac
