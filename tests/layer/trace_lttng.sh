#!/bin/sh
# Live tracing through LTTng-UST (XRLM_TRACE; README "Live tracing with LTTng").
#
#   counts    a session daemon of the test's own, two tracing sessions; the
#             test app on Vulkan through the pair with XRLM_TRACE=csv,lttng:
#             babeltrace2's event counts match the CSVs (calls, frame
#             markers, GPU samples), both sessions got the same events,
#             xrlm:init comes first; then XRLM_TRACE=lttng alone: events, no CSV,
#             both sides' session_begin named by pre's tag
#   hello_xr  the same counts with Debian's hello_xr -g Vulkan2 and api_dump
#   off       without XRLM_TRACE: no liblttng in the app's maps, and its
#             threads are those of a run without our layers plus ours; with
#             XRLM_TRACE=lttng the library is there (so the check can fail)
#   missing   the provider is absent (layers copied without it), and a bad
#             XRLM_TRACE value: one log line each, the CSV files all the same
#
# The session daemon: `lttng-sessiond --daemonize` with LTTNG_HOME in the
# test's work directory, stopped (by its pid) and removed at the end. As
# root it uses /var/run/lttng, which one daemon at a time can own: the tests
# share a ctest RESOURCE_LOCK, and one already running (the system's
# service) is used as it is and left running.
. "$(dirname "$0")/lib.sh"
case=$1

setup
export XRTEST_FRAME_RATE=0

SESSIOND_PID=
# Starts the test's own session daemon.
sessiond_start() {
	export LTTNG_HOME=$XRLM_TEST_WORK/lttng-home
	mkdir -p "$LTTNG_HOME"
	if [ "$(id -u)" = 0 ]; then
		pidfile=/var/run/lttng/lttng-sessiond.pid
	else
		pidfile=$LTTNG_HOME/.lttng/lttng-sessiond.pid
	fi
	if [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		# A system's own daemon (Debian's lttng-sessiond service, as root):
		# use it, and leave it running. Events are told apart by pid.
		note "using the session daemon already running (pid $(cat "$pidfile"))"
		return 0
	fi
	lttng-sessiond --daemonize >"$XRLM_TEST_WORK/sessiond.log" 2>&1 ||
		fail "lttng-sessiond did not start: $(tail -n 3 "$XRLM_TEST_WORK/sessiond.log")"
	SESSIOND_PID=$(cat "$pidfile")
	# Also when ctest kills the test on a timeout: no daemon is left behind.
	trap sessiond_stop EXIT
	trap 'sessiond_stop; exit 1' INT TERM HUP
}

# Stops the daemon this test started (and its consumer daemons with it).
sessiond_stop() {
	[ -n "$SESSIOND_PID" ] || return 0
	kill "$SESSIOND_PID" 2>/dev/null || true
	i=0
	while kill -0 "$SESSIOND_PID" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	SESSIOND_PID=
	rm -rf "$LTTNG_HOME"
}

# Creates and starts tracing session $1 (xrlm:* only), written to $XRLM_TEST_WORK/$1.
trace_start() {
	lttng create "$1" --output="$XRLM_TEST_WORK/$1" >/dev/null || fail "lttng create $1"
	lttng enable-event -u 'xrlm:*' -s "$1" >/dev/null || fail "lttng enable-event in $1"
	# The process id on every event: other traced processes may register with a root daemon.
	lttng add-context -u -t vpid -s "$1" >/dev/null || fail "lttng add-context in $1"
	lttng start "$1" >/dev/null || fail "lttng start $1"
}

# Stops and destroys session $1, and writes its events as text to $XRLM_TEST_WORK/$1.txt.
trace_stop() {
	lttng stop "$1" >/dev/null && lttng destroy "$1" >/dev/null || fail "lttng stop/destroy $1"
	babeltrace2 "$XRLM_TEST_WORK/$1" >"$XRLM_TEST_WORK/$1.txt" || fail "babeltrace2 cannot read $1"
}

# The app's pid, from its session files' tag (any pid when there is none).
APP_PID='[0-9]*'
app_pid() {
	f=$(ls "$OUT"/frames-*-pre.csv 2>/dev/null | head -n 1)
	APP_PID='[0-9]*'
	[ -z "$f" ] || APP_PID=$(basename "$f" | sed 's/^frames-\([0-9]*\)-.*/\1/')
}

# The app's events in the text trace $1.
app_events() {
	grep "{ vpid = $APP_PID }" "$1" || true
}

# Events named $2 of side $3 of the app in the text trace $1.
count_events() {
	app_events "$1" | grep -c " xrlm:$2: .* side = \"$3\"" || true
}

# Data rows of the files matching $1 (0 when none).
count_rows() {
	n=0
	for f in $1; do
		[ -f "$f" ] || continue
		n=$((n + $(data_rows "$f" | wc -l)))
	done
	echo $n
}

# Rows of the calls files of side $1 whose function is a frame function.
frame_calls() {
	n=0
	for f in "$OUT"/calls-*-"$1".csv; do
		[ -f "$f" ] || continue
		n=$((n + $(data_rows "$f" | grep -c '^xr\(Wait\|Begin\|End\)Frame,' || true)))
	done
	echo $n
}

# The text trace $1 agrees with the CSV files in $OUT, side by side.
check_counts() {
	app_pid
	for side in pre post; do
		calls=$(count_rows "$OUT/calls-*-$side.csv")
		markers=$((2 * $(frame_calls $side)))
		if [ "$calls" = 0 ]; then
			# No calls files yet: the xrEndFrame records alone, one per frames row.
			calls=$(count_rows "$OUT/frames-*-$side.csv")
			markers=$((2 * calls))
		fi
		gpu=$(count_rows "$OUT/gpu-*-$side.csv")
		got_calls=$(count_events "$1" call $side)
		got_markers=$(count_events "$1" frame_marker $side)
		got_gpu=$(count_events "$1" gpu $side)
		note "$side: calls $got_calls/$calls, frame markers $got_markers/$markers, GPU $got_gpu/$gpu"
		[ "$calls" -gt 0 ] || fail "$side recorded nothing"
		[ "$got_calls" = "$calls" ] || fail "$side: $got_calls xrlm:call events, $calls calls recorded"
		[ "$got_markers" = "$markers" ] ||
			fail "$side: $got_markers xrlm:frame_marker events, $markers expected"
		[ "$got_gpu" = "$gpu" ] || fail "$side: $got_gpu xrlm:gpu events, $gpu GPU rows"
		# Each GPU event names the frame of the xrEndFrame it was stamped
		# in: its frame id and display time, as that call's marker has them
		# (not merely some id: a writer that drained the frames' records
		# long before their GPU samples came once gave -1).
		app_events "$1" | sed -n "s/.* xrlm:frame_marker: .* side = \"$side\", frame_id = \([-0-9]*\), marker = \"end_begin\", .* display_time = \([0-9]*\),.*/\1 \2/p" |
			sort -u >"$1.$side.frames"
		app_events "$1" | sed -n "s/.* xrlm:gpu: .* side = \"$side\", frame_id = \([-0-9]*\), display_time = \([0-9]*\),.*/\1 \2/p" |
			sort -u >"$1.$side.gpu"
		[ -s "$1.$side.gpu" ] || fail "$side: no GPU event to check"
		unmatched=$(comm -13 "$1.$side.frames" "$1.$side.gpu" | head -n 3)
		[ -z "$unmatched" ] ||
			fail "$side: GPU events whose frame id and display time no xrEndFrame has: $unmatched"
		sessions=$(ls "$OUT"/frames-*-$side.csv | wc -l)
		[ "$(count_events "$1" session_begin $side)" = "$sessions" ] ||
			fail "$side: session_begin count is not $sessions"
		[ "$(count_events "$1" session_end $side)" = "$sessions" ] ||
			fail "$side: session_end count is not $sessions"
		frames=$(app_events "$1" | grep " xrlm:session_end: .* side = \"$side\"" |
			sed 's/.* frames = \([0-9]*\),.*/\1/' | awk '{ n += $1 } END { print n + 0 }')
		[ "$frames" = "$(count_rows "$OUT/frames-*-$side.csv")" ] ||
			fail "$side: session_end counts $frames frames, not the frames files' rows"
		# xrlm:shutdown, once at the end, counts the side's sessions and calls.
		shutdown=$(app_events "$1" | grep " xrlm:shutdown: .* side = \"$side\"" || true)
		[ "$(echo "$shutdown" | grep -c .)" = 1 ] || fail "$side: not one xrlm:shutdown: $shutdown"
		echo "$shutdown" | grep -q "sessions = $sessions, calls = $got_calls }" ||
			fail "$side: xrlm:shutdown does not count $sessions sessions and $got_calls calls: $shutdown"
		# xrlm:init precedes the side's every other event.
		first=$(app_events "$1" | grep " side = \"$side\"" | head -n 1 |
			sed 's/.* \(xrlm:[a-z_]*\):.*/\1/')
		[ "$first" = xrlm:init ] || fail "$side: the first event is $first, not xrlm:init"
	done
	first=$(app_events "$1" | head -n 1 | sed 's/.* \(xrlm:[a-z_]*\):.*/\1/')
	[ "$first" = xrlm:init ] || fail "the app's first event is $first, not xrlm:init"
	app_events "$1" | sed -n 's/.*\(xrlm:init\): .*\(runtime = "[^"]*"\).*/\1 \2/p' | head -n 1 |
		grep -q 'runtime = "..*"' ||
		fail "xrlm:init names no runtime"
}

# The events of two text traces, without their timestamps and CPU ids, are the same.
same_events() {
	# Sorted: babeltrace2 orders events of different CPUs' buffers by time alone.
	app_events "$1" | sed 's/^\[[^]]*\] ([^)]*) [^ ]* //; s/{ cpu_id = [0-9]* }, //' | sort >"$1.events"
	app_events "$2" | sed 's/^\[[^]]*\] ([^)]*) [^ ]* //; s/{ cpu_id = [0-9]* }, //' | sort >"$2.events"
	cmp -s "$1.events" "$2.events" || fail "the two tracing sessions got different events"
	note "second session: the same $(wc -l <"$1.events") events"
}

# The app's process: maps and threads, sampled while it runs. Sets MAPS, THREADS, OURS.
sample_process() {
	"$XRLM_TEST_APP" --graphics headless --frames 400 >"$XRLM_TEST_WORK/app.log" 2>&1 &
	pid=$!
	sleep 1.5
	MAPS=$(grep -c liblttng "/proc/$pid/maps" || true)
	THREADS=$(ls "/proc/$pid/task" | wc -l)
	# Our threads are named xrlm-<something>; the app's main thread (xrlm-test-app) is not ours.
	OURS=$(for t in /proc/$pid/task/*; do [ "${t##*/}" = $pid ] || cat "$t/comm"; done |
		grep -v -- '-ust$' | grep -c '^xrlm-' || true)
	# liblttng-ust's listener threads: the name of the thread that loaded it, plus "-ust".
	LTTNG_THREADS=$(cat /proc/$pid/task/*/comm | grep -c -- '-ust$' || true)
	wait $pid || fail "the app failed: $(tail -n 5 "$XRLM_TEST_WORK/app.log")"
}

case $case in
counts)
	sessiond_start
	trace_start s1
	trace_start s2
	XRLM_RECORD=1 XRLM_TRACE=csv,lttng run_app --graphics vulkan2 --frames 120
	trace_stop s1
	trace_stop s2
	check_counts "$XRLM_TEST_WORK/s1.txt"
	same_events "$XRLM_TEST_WORK/s1.txt" "$XRLM_TEST_WORK/s2.txt"
	# The same session as a timeline: one target slice per recorded call.
	"$XRLM_TEST_XRLM" trace "$OUT" -o "$XRLM_TEST_WORK/trace.json" >/dev/null || fail "xrlm trace failed"
	stats=$(python3 "$(dirname "$0")/../merge/trace_check.py" "$XRLM_TEST_WORK/trace.json") || fail "$stats"
	calls=$(count_rows "$OUT/calls-*-pre.csv")
	[ "$calls" != 0 ] || calls=$(count_rows "$OUT/frames-*-pre.csv")
	[ "$(echo "$stats" | cut -d' ' -f3)" = "$calls" ] ||
		fail "xrlm trace: $(echo "$stats" | cut -d' ' -f3) target slices, $calls recorded calls"
	[ "$(echo "$stats" | cut -d' ' -f4)" -gt 0 ] || fail "xrlm trace: no target GPU slice"
	note "xrlm trace: $calls target slices, $(echo "$stats" | cut -d' ' -f4) target GPU slices, slices nest"
	# Recording stopped and started again (the signal's toggle): two sessions, both traced.
	rm -f "$OUT"/*.csv
	trace_start s3
	XRLM_RECORD=1 XRLM_TRACE=csv,lttng run_app --graphics vulkan2 --frames 120 --toggle-every 40
	trace_stop s3
	check_counts "$XRLM_TEST_WORK/s3.txt"
	# lttng alone: the events, and no CSV file at all.
	rm -f "$OUT"/*.csv
	trace_start s4
	XRLM_RECORD=1 XRLM_TRACE=lttng run_app --graphics vulkan2 --frames 60
	trace_stop s4
	! ls "$OUT"/*.csv >/dev/null 2>&1 || fail "XRLM_TRACE=lttng wrote CSV files: $(ls "$OUT")"
	APP_PID='[0-9]*' # no file names the app: counted across processes (only more can come)
	for side in pre post; do
		n=$(count_events "$XRLM_TEST_WORK/s4.txt" call $side)
		[ "$n" -ge 60 ] || fail "XRLM_TRACE=lttng: only $n xrlm:call events on $side"
	done
	# Without files too, post's session is named by pre's tag (it waits for
	# it as for a file's): both sides' session_begin carry the same one.
	for side in pre post; do
		grep " xrlm:session_begin: .* side = \"$side\"" "$XRLM_TEST_WORK/s4.txt" |
			sed 's/.* tag = "\([^"]*\)".*/\1/' >"$XRLM_TEST_WORK/s4.$side.tags"
	done
	# The tag's first form: with no file to collide with, never a "-<n>".
	[ -s "$XRLM_TEST_WORK/s4.pre.tags" ] &&
		! grep -qvE '^[0-9]+-[0-9]{8}T[0-9]{6}$' "$XRLM_TEST_WORK/s4.pre.tags" ||
		fail "XRLM_TRACE=lttng: pre's session_begin tags are not <pid>-<time>: $(cat "$XRLM_TEST_WORK/s4.pre.tags")"
	cmp -s "$XRLM_TEST_WORK/s4.pre.tags" "$XRLM_TEST_WORK/s4.post.tags" ||
		fail "XRLM_TRACE=lttng: post's session tags '$(cat "$XRLM_TEST_WORK/s4.post.tags")' are not pre's '$(cat "$XRLM_TEST_WORK/s4.pre.tags")'"
	note "XRLM_TRACE=lttng: events without CSV files"
	;;
hello_xr)
	sessiond_start
	trace_start s1
	export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=120 XRLM_RECORD=1 XRLM_TRACE=csv,lttng
	run_hello_xr Vulkan2 "$PRE:XR_APILAYER_LUNARG_api_dump:$POST:XR_APILAYER_LUNARG_core_validation" \
		"$XRLM_TEST_WORK/hello"
	trace_stop s1
	check_counts "$XRLM_TEST_WORK/s1.txt"
	;;
off)
	export XRLM_RECORD=1 XRTEST_FRAME_RATE=90
	XR_ENABLE_API_LAYERS=$TARGET sample_process
	base=$THREADS
	XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST sample_process
	note "threads: $base without our layers, $THREADS with ($OURS ours); liblttng maps: $MAPS"
	[ "$MAPS" = 0 ] || fail "liblttng is mapped without XRLM_TRACE"
	[ "$OURS" -ge 2 ] || fail "the writer threads were not found ($OURS threads named xrlm-*)"
	[ "$THREADS" = $((base + OURS)) ] ||
		fail "$THREADS threads with our layers, $base without plus $OURS of ours"
	[ "$LTTNG_THREADS" = 0 ] || fail "LTTng threads run without XRLM_TRACE"
	XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST XRLM_TRACE=csv,lttng sample_process
	note "XRLM_TRACE=csv,lttng: liblttng maps: $MAPS, LTTng threads: $LTTNG_THREADS"
	[ "$MAPS" -gt 0 ] || fail "liblttng is not mapped with XRLM_TRACE=csv,lttng"
	[ "$LTTNG_THREADS" -gt 0 ] || fail "no LTTng thread with XRLM_TRACE=csv,lttng"
	;;
missing)
	# The layers and their manifests, copied without the provider.
	lib=$XRLM_TEST_WORK/lib
	mkdir -p "$lib"
	for side in pre post; do
		cp "$(dirname "$XRLM_TEST_MANIFESTS")/layer/libXrApiLayer_xrlm_monitor_$side.so" "$lib/"
		sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$lib/libXrApiLayer_xrlm_monitor_$side.so\"|" \
			"$XRLM_TEST_MANIFESTS/XrApiLayer_xrlm_monitor_$side.json" >"$lib/XrApiLayer_xrlm_monitor_$side.json"
	done
	export XR_API_LAYER_PATH=$lib:$XRLM_TEST_TARGET_MANIFESTS XRLM_RECORD=1
	XRLM_TRACE=lttng,csv run_app --frames 30
	for side in pre post; do
		log=$OUT/xrlm-$side.log
		grep -q "$lib/libXrApiLayer_xrlm_monitor_$side.so\|cannot load the LTTng provider" "$log" ||
			fail "the copied $side layer was not used"
		[ "$(grep -c 'cannot load the LTTng provider' "$log")" = 1 ] ||
			fail "$side: not exactly one line on the missing provider: $(grep -i lttng "$log")"
	done
	[ "$(count_rows "$OUT/frames-*-pre.csv")" = 30 ] || fail "no CSV without the provider"
	note "missing provider: one log line per side, CSV written"
	rm -f "$OUT"/*
	XRLM_TRACE=bogus,lttng run_app --frames 30
	for side in pre post; do
		[ "$(grep -c 'XRLM_TRACE="bogus,lttng" is not' "$OUT/xrlm-$side.log")" = 1 ] ||
			fail "$side: the bad XRLM_TRACE value is not reported once"
		! grep -q "LTTng provider" "$OUT/xrlm-$side.log" || fail "$side: a bad value still traced"
	done
	[ "$(count_rows "$OUT/frames-*-pre.csv")" = 30 ] || fail "a bad XRLM_TRACE stopped the CSV"
	note "bad XRLM_TRACE: one log line per side, CSV written"
	;;
*)
	fail "unknown case $case"
	;;
esac
