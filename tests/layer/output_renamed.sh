#!/bin/sh
# The output directory renamed while the application records: the files
# follow it (the sides write through its open descriptor), and so does
# every path shown from then on: `xrlm ctl status`'s output_dir, the
# merged CSV `xrlm ctl stop` names, the logs' "recording to" and "merged
# into" lines, for the session renamed under and for the next one.
. "$(dirname "$0")/lib.sh"
setup
export XDG_RUNTIME_DIR=$XRLM_TEST_WORK/run XRTEST_FRAME_RATE=90
mkdir -m 700 "$XDG_RUNTIME_DIR"
NEW=$XRLM_TEST_WORK/renamed

# Runs xrlm ctl "$@", its output into $XRLM_TEST_WORK/ctl.out; fails the test if it fails.
ctl() {
	"$XRLM_TEST_XRLM" ctl "$@" >"$XRLM_TEST_WORK/ctl.out" 2>&1 ||
		fail "xrlm ctl $* failed: $(cat "$XRLM_TEST_WORK/ctl.out")"
}

# Stops the recording of $app; checks the merged CSV it names is in $NEW, and there.
stop_in_new() {
	ctl stop "$app"
	merged=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/ctl.out")
	case $merged in
	"$NEW"/frames-merged-*.csv) ;;
	*) fail "stop named '$merged' after the rename to $NEW: $(cat "$XRLM_TEST_WORK/ctl.out")" ;;
	esac
	[ -s "$merged" ] || fail "stop named $merged, which is not there"
	grep -q -F "merged into $merged" "$NEW/xrlm-post.log" ||
		fail "post's log does not name $merged: $(grep 'merged into' "$NEW/xrlm-post.log")"
}

"$XRLM_TEST_APP" --graphics headless --frames 9000 >"$XRLM_TEST_WORK/app.log" 2>&1 &
app=$!
wait_for_line "$OUT/xrlm-pre.log" "control socket: "
ctl start "$app"
wait_for_line "$OUT/xrlm-post.log" "recording to $OUT/frames-"
mv "$OUT" "$NEW"
ctl status "$app"
grep -q "^output_dir *$NEW\$" "$XRLM_TEST_WORK/ctl.out" ||
	fail "status after the rename: $(cat "$XRLM_TEST_WORK/ctl.out")"
sleep 0.3
stop_in_new

# The next session: its files, its log lines and its merged file in $NEW.
ctl start "$app"
wait_for_line "$NEW/xrlm-post.log" "recording to $NEW/frames-"
grep -q "recording to $NEW/frames-" "$NEW/xrlm-pre.log" ||
	fail "pre's log names the old directory: $(grep 'recording to' "$NEW/xrlm-pre.log")"
sleep 0.3
stop_in_new
[ ! -e "$OUT" ] || fail "something was written at the old path: $(ls -a "$OUT")"
[ "$(ls "$NEW"/frames-merged-*.csv | wc -l)" -eq 2 ] || fail "not two merged files: $(ls "$NEW")"
kill "$app"
wait "$app" || true
note "renamed output directory: status, stop's merged CSV and the logs name the new path"
