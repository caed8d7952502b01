#!/bin/sh
# What each XRLM_* setting takes (README, "Starting and stopping a
# recording"), read back from what pre's log says is in effect: the edges
# of each range are taken, one past them is refused with one line and the
# default (not the edge, nor a value left half parsed) is used.
#   XRLM_SIGNAL      USR1, USR2, RTMIN+n, RTMAX-n up to the ends of the
#                    real-time range, their numbers; anything else: USR2
#   XRLM_GPU_MODE    each of the four names (any case); a bad one: auto
#   XRLM_TRACE       a bad one: csv (the files are written)
#   XRLM_FUNCTIONS   no item that names a function: all
#   XRLM_RECORD_*    1 and 2^48 frames, 604800 s taken; 0, 2^48 + 1,
#                    0.0005 s, 604800.001 s and -1 s refused: the default
#                    (no limit, no delay), not the edge, and every frame recorded
. "$(dirname "$0")/lib.sh"

# try VAR=VALUE...: a short run of the app with these settings (and no others).
try() {
	setup
	export XRTEST_FRAME_RATE=0 "$@"
	run_app --graphics headless --frames 3
	log=$OUT/xrlm-pre.log
}

# ignored VAR: exactly one "setting ignored" line in the log, for VAR.
ignored() {
	[ "$(grep -c 'setting ignored: ' "$log")" -eq 1 ] && grep -q "setting ignored: $1" "$log" ||
		fail "not one line refusing $1: $(cat "$log")"
}

# taken: no "setting ignored" line in the log.
taken() {
	! grep -q 'setting ignored: ' "$log" || fail "a value refused: $(grep 'setting ignored' "$log")"
}

# in_effect LINE: the log says LINE (a fixed string).
in_effect() {
	grep -q -F "$1" "$log" || fail "the log does not say '$1': $(cat "$log")"
}

# SIGRTMIN is 34 and SIGRTMAX 64 with glibc on Linux.
for val in USR1:10 usr2:12 SIGUSR1:10 RTMIN:34 RTMIN+30:64 RTMAX:64 RTMAX-30:34 sigrtmin+3:37 \
	10:10 12:12 34:34 64:64; do
	try XRLM_SIGNAL="${val%:*}"
	taken
	in_effect "toggle signal: ${val%:*} (${val#*:}); send it with: kill -${val#*:} "
done
for val in RTMIN+31 RTMAX-31 RTMIN-1 RTMAX+1 9 33 65 0 KILL SIGUSR3; do
	try XRLM_SIGNAL="$val"
	ignored "XRLM_SIGNAL=\"$val\" is not"
	in_effect "toggle signal: USR2 (12); send it with: kill -12 "
done

for val in auto:auto sandwich:sandwich GATED:gated Off:off; do
	try XRLM_GPU_MODE="${val%:*}"
	taken
	in_effect "GPU mode: ${val#*:}"
done
try XRLM_GPU_MODE=offf
ignored 'XRLM_GPU_MODE="offf" is not auto, sandwich, gated or off; using the default auto'
in_effect "GPU mode: auto ("

try XRLM_TRACE=CSV
taken
in_effect "XRLM_TRACE: csv"
try XRLM_TRACE=files XRLM_RECORD=1
ignored 'XRLM_TRACE="files" is not'
in_effect "XRLM_TRACE: csv"
[ -n "$(merged_files)" ] || fail "nothing recorded with XRLM_TRACE's default"

try XRLM_FUNCTIONS=' xrWaitFrame , xrEndFrame'
taken
in_effect "functions recorded: 2 of "
try XRLM_FUNCTIONS='xrBogus, ,xrwaitframe'
ignored 'XRLM_FUNCTIONS: .*"xrBogus", "xrwaitframe"; using the default all'
in_effect "functions recorded: all"

# The limits' edges are taken: every frame of a run shorter than them.
setup
export XRTEST_FRAME_RATE=90 XRLM_RECORD=1 XRLM_RECORD_FRAMES=281474976710656 \
	XRLM_RECORD_S=604800
run_app --graphics headless --frames 30
log=$OUT/xrlm-pre.log
taken
[ "$(header_value "$(merged_files)" frame_count)" = 30 ] || fail "not 30 frames at the limits' edges"
try XRLM_RECORD_DELAY_S=0
taken
try XRLM_RECORD=1 XRLM_RECORD_FRAMES=1
taken
[ "$(header_value "$(merged_files)" frame_count)" = 1 ] || fail "XRLM_RECORD_FRAMES=1: not 1 frame"

# One past them is refused: no limit, no delay, every frame (the edge
# instead, 1 frame or 1 ms, would cut the session short).
for val in XRLM_RECORD_FRAMES=0:out XRLM_RECORD_FRAMES=281474976710657:out XRLM_RECORD_FRAMES=-1:negative \
	XRLM_RECORD_S=0.0005:out XRLM_RECORD_S=604800.001:out XRLM_RECORD_S=-1:negative \
	XRLM_RECORD_DELAY_S=-1:negative XRLM_RECORD_DELAY_S=604800.5:out; do
	setup
	export XRTEST_FRAME_RATE=90 XRLM_RECORD=1 "${val%:*}"
	run_app --graphics headless --frames 30
	log=$OUT/xrlm-pre.log
	why=$([ "${val#*:}" = out ] && echo "is out of range" || echo "is negative")
	ignored "${val%%=*}=\"$(echo "${val%:*}" | cut -d= -f2)\" $why"
	[ "$(header_value "$(merged_files)" frame_count)" = 30 ] ||
		fail "${val%:*}: not every frame recorded: $(head -n 1 "$(merged_files)")"
done

note "settings: edges taken, one past them refused with the default"
