#!/bin/sh
# Every XRLM_* setting set to an empty, negative, huge, non-numeric and
# overlong (100000 characters) value: the app runs all its frames with exit
# 0, each bad setting gets exactly one log line, defaults are used (no
# recording: XRLM_RECORD's default is off), and nothing is written outside
# the output directory (strace: every file created, written or renamed).
. "$(dirname "$0")/rel_lib.sh"
W=$XRLM_TEST_WORK
overlong=$(head -c 100000 /dev/zero | tr '\0' 9)
KNOBS="XRLM_RECORD XRLM_RECORD_DELAY_S XRLM_RECORD_FRAMES XRLM_RECORD_S XRLM_SIGNAL XRLM_CONTROL"

# check_class NAME VALUE LOGDIR: all knobs (and XRLM_OUTPUT_DIR) set to VALUE.
check_class() {
	setup
	mkdir -p "$W/cwd" "$W/home" "$W/state"
	export HOME=$W/home XDG_STATE_HOME=$W/state XRTEST_FRAME_RATE=0
	for k in $KNOBS; do export "$k=$2"; done
	export XRLM_OUTPUT_DIR="$2"
	(cd "$W/cwd" && run_app_traced --graphics headless --frames 100 --stats)
	ran=$(sed -n 's/^run .*frames_run=\([0-9]*\).*/\1/p' "$W/app.log")
	[ "${ran:-0}" -ge 100 ] || fail "$1: the app ran ${ran:-no} frames"
	log=$3/xrlm-pre.log
	[ -f "$log" ] || fail "$1: no log in $3"
	for k in $KNOBS; do
		one_line "$log" "setting ignored: $k="
	done
	[ -z "$(ls "$3"/frames-* 2>/dev/null)" ] || fail "$1: recorded although XRLM_RECORD was bad"
	only_written_under "$3"
	note "$1: $(grep -c "setting ignored" "$log") "setting ignored" lines; nothing written outside $3"
}

# An empty or overlong directory falls back to the default, with a line
# saying so; other values are directory names, relative to the working
# directory. Usage: hostile_knobs.sh [output-dir-once]
# "output-dir-once": that line must appear once, as every other
# setting's does; it is logged twice per side, by begin_instance()
# (layer/xl_entry.c) and again by xl_settings_load() (layer/xl_settings.c).
said() {
	if [ "${1:-}" = output-dir-once ]; then
		one_line "$W/state/xr-layer-monitor/xrlm-pre.log" "$2"
	else
		grep -q "$2" "$W/state/xr-layer-monitor/xrlm-pre.log" || fail "no line: $2"
	fi
}
check_class empty "" "$W/state/xr-layer-monitor"
said "${1:-}" "XRLM_OUTPUT_DIR is empty"
check_class overlong "$overlong" "$W/state/xr-layer-monitor"
said "${1:-}" "XRLM_OUTPUT_DIR is too long"
[ "${1:-}" = output-dir-once ] && exit 0
check_class negative -1 "$W/cwd/-1"
check_class huge 123456789012345678901234567890 "$W/cwd/123456789012345678901234567890"
check_class non-numeric 12abc "$W/cwd/12abc"
