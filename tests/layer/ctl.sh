#!/bin/sh
# The control socket (README, "Control socket") through the real loader:
#   basic      start, mark, watch and stop from another process (xrlm ctl), the
#              replies' contents, the marks in both per-side files, the merged
#              file named by stop; errors for start while recording, stop and
#              mark while idle; list and status
#   hello_xr   (layer_hello_xr_ctl) the same with Debian's hello_xr (Vulkan2, api_dump as target):
#              watch shows GPU frames, stop names the merged file
#   other_user a process of another user is refused: the app runs as nobody
#              and root (which the socket's 0700 directory does not stop)
#              gets "ERR permission denied" from SO_PEERCRED; nobody's xrlm
#              ctl cannot reach root's app's socket
#   hostile    1000 garbage, binary, oversized, half-open and dropped
#              connections during a recorded run: the app records every frame,
#              its descriptors stay bounded, and it still answers after
#   two        two processes at once are listed separately and controlled
#              one by one
#   exit       the socket goes at exit (xrDestroyInstance, and exit() with the
#              instance alive); a killed process's stale socket is detected
#              and removed by list and by status
#   long_path  a runtime directory whose socket path is longer than a socket
#              address holds: the layer binds it, list and status reach it
#   short      sessions over before the socket's thread looks (XRLM_RECORD_FRAMES=1
#              at 500 Hz): each of 9 starts (one more than the clients served at
#              once) answers at once with its session's tag, and the session's
#              one frame is in its file
#   hangup     8 clients (as many as are served at once) send a stop that waits
#              for the next frame (20 s away) and hang up: each frees its place at
#              once, and status is answered
#   trace_only XRLM_TRACE=lttng alone (no files): status counts the frames traced,
#              mark says at once that there is no file for it, stop says
#              that there is nothing to merge, and no file is made
#   deleted    the output directory deleted during a session: stop answers that
#              the session is lost with the directory (not a failed merge), and
#              each side says so on stderr; the next session makes it again,
#              and a second deletion is said on stderr again
#   protocol   the protocol's edges on one connection (README, "The protocol"):
#              a request ended by CR LF, mark without a text, a mark of 256
#              bytes (taken: refused only for want of a session) and of 257
#              (refused), quit (OK bye, then the connection is closed)
#   off        XRLM_CONTROL=off: no socket and no xrlm-ctl thread (on: one);
#              XDG_RUNTIME_DIR unset or a symlinked xrlm directory: no socket,
#              one log line, the app runs
. "$(dirname "$0")/lib.sh"
setup
CASE=$1
XRLM=$XRLM_TEST_XRLM
CLIENT="python3 $(dirname "$0")/ctl_client.py"
export XDG_RUNTIME_DIR=$XRLM_TEST_WORK/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
SOCKDIR=$XDG_RUNTIME_DIR/xrlm
export XRTEST_FRAME_RATE=90

# Starts the test app in the background for $1 frames (more args: its own); sets $app.
start_app() {
	n=$1
	shift
	"$XRLM_TEST_APP" --graphics headless --frames "$n" "$@" >>"$XRLM_TEST_WORK/app.log" 2>&1 &
	app=$!
}

# Waits (up to 10 s) for process $1's socket.
wait_socket() {
	i=0
	while [ ! -S "$SOCKDIR/$1.sock" ]; do
		i=$((i + 1))
		[ $i -le 200 ] || fail "no control socket for $1: $(cat "$OUT/xrlm-pre.log")"
		sleep 0.05
	done
}

# Runs xrlm ctl "$@", its stdout into $XRLM_TEST_WORK/ctl.out, stderr into ctl.err; returns its status.
ctl() {
	"$XRLM" ctl "$@" >"$XRLM_TEST_WORK/ctl.out" 2>"$XRLM_TEST_WORK/ctl.err"
}

ctl_ok() {
	ctl "$@" || fail "xrlm ctl $* failed: $(cat "$XRLM_TEST_WORK/ctl.err")"
}

# ctl_err WANTED ARGS...: xrlm ctl ARGS must fail saying WANTED.
ctl_err() {
	want=$1
	shift
	if ctl "$@"; then fail "xrlm ctl $* should have failed: $(cat "$XRLM_TEST_WORK/ctl.out")"; fi
	grep -q "$want" "$XRLM_TEST_WORK/ctl.err" || fail "xrlm ctl $*: wanted '$want', got: $(cat "$XRLM_TEST_WORK/ctl.err")"
}

# The merged path a stop printed.
stopped_path() {
	sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/ctl.out"
}

wait_app() {
	wait "$app" || fail "the app exited non-zero: $(tail -n 20 "$XRLM_TEST_WORK/app.log")"
}

# Checks the watch output in ctl.out: $1 rows, the last ones with frames
# recorded and a CPU mean between $2 and $3 us.
check_watch() {
	rows=$(tail -n +2 "$XRLM_TEST_WORK/ctl.out")
	[ "$(echo "$rows" | wc -l)" -eq "$1" ] || fail "watch printed: $(cat "$XRLM_TEST_WORK/ctl.out")"
	last=$(echo "$rows" | tail -n 1)
	set -- $last "$2" "$3"
	# time_s frames cpu_mean cpu_p99 gpu_n gpu_mean gpu_p99 dropped session
	# 90 Hz, but a loaded machine (or a sanitizer build) may fall behind.
	[ "$2" -ge 10 ] && [ "$2" -le 120 ] || fail "watch: $2 frames in a second at 90 Hz: $last"
	awk -v m="$3" -v lo="${10}" -v hi="${11}" 'BEGIN { exit !(m >= lo && m <= hi) }' ||
		fail "watch: CPU mean $3 us, not within ${10}..${11}: $last"
	[ "$8" = 0 ] || fail "watch: drops: $last"
}

# The number of sockets process $1 holds.
sockets_of() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:' || true
}
case $CASE in
basic)
	export XRTEST_TARGET_CPU_US=300
	start_app 9000 # killed when done
	wait_socket "$app"
	[ "$(stat -c %a "$SOCKDIR")" = 700 ] || fail "socket directory mode $(stat -c %a "$SOCKDIR")"
	[ "$(stat -c %a "$SOCKDIR/$app.sock")" = 600 ] || fail "socket mode $(stat -c %a "$SOCKDIR/$app.sock")"
	ctl_ok list
	grep -q "^$app  *no  *-  *xrlm-test-app  *$TARGET\$" "$XRLM_TEST_WORK/ctl.out" ||
		fail "list: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_err "not recording" stop "$app"
	ctl_err "not recording" mark "$app" early
	ctl_ok start "$app"
	tag=$(sed -n 's/^recording: session //p' "$XRLM_TEST_WORK/ctl.out")
	echo "$tag" | grep -q "^$app-" || fail "start: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_err "already recording: session $tag" start "$app"
	ctl_ok status "$app"
	grep -q "^recording *1$" "$XRLM_TEST_WORK/ctl.out" && grep -q "^session *$tag$" "$XRLM_TEST_WORK/ctl.out" &&
		grep -q "^output_dir *$OUT$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok mark "$app" 'warm, "cache" ready \o/ é'
	grep -q "^mark written into session $tag$" "$XRLM_TEST_WORK/ctl.out" || fail "mark: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok mark "$app" second word # the words of TEXT... joined by a space
	ctl_ok mark "$app" -- --count 3 # after "--", a text that looks like an option
	ctl_ok watch "$app" --count 3
	check_watch 3 250 5000
	ctl_ok stop "$app"
	merged=$(stopped_path)
	[ "$merged" = "$OUT/frames-merged-$tag.csv" ] || fail "stop named '$merged', not the session's merged file"
	[ -s "$merged" ] || fail "stop answered before $merged was in place"
	# Three marks, the same in both files, escaped as README says.
	for side in pre post; do
		f=$OUT/frames-$tag-$side.csv
		[ "$(grep -c '^# mark t=[0-9]* text=' "$f")" -eq 3 ] || fail "$f: marks: $(grep mark "$f")"
		grep -q '^# mark t=[0-9]* text=warm\\x2c\\x20\\x22cache\\x22\\x20ready\\x20\\x5co/\\x20é$' "$f" ||
			fail "$f: mark escaped as: $(grep mark "$f")"
		grep -q '^# mark t=[0-9]* text=second\\x20word$' "$f" || fail "$f: $(grep mark "$f")"
		grep -q '^# mark t=[0-9]* text=--count\\x203$' "$f" || fail "$f: $(grep mark "$f")"
	done
	[ "$(grep '^# mark' "$OUT/frames-$tag-pre.csv")" = "$(grep '^# mark' "$OUT/frames-$tag-post.csv")" ] ||
		fail "the sides' marks differ"
	"$XRLM" merge "$OUT/frames-$tag-pre.csv" "$OUT/frames-$tag-post.csv" -o "$XRLM_TEST_WORK/again.csv" \
		>/dev/null 2>&1 || fail "xrlm merge of files with marks failed"
	cmp -s "$merged" "$XRLM_TEST_WORK/again.csv" || fail "xrlm merge differs from the layer's"
	n=$(header_value "$merged" frame_count)
	[ "$n" -ge 200 ] || fail "only $n frames merged"
	ctl_err "not recording" stop "$app"
	kill "$app"
	;;
hello_xr)
	target=XR_APILAYER_LUNARG_api_dump
	validation_env "$PRE:$target:$POST" "$XRLM_TEST_WORK/hx"
	# hello_xr quits when its stdin (a FIFO this shell holds open) ends;
	# the runtime ends the session after 60 s anyway.
	export XRTEST_EXIT_AFTER_FRAMES=5400
	rm -f "$XRLM_TEST_WORK/stdin" && mkfifo "$XRLM_TEST_WORK/stdin"
	exec 3<>"$XRLM_TEST_WORK/stdin"
	timeout 120 hello_xr -g Vulkan2 <"$XRLM_TEST_WORK/stdin" >"$XRLM_TEST_WORK/app.log" 2>&1 3>&- &
	app=$!
	i=0
	while ! pid=$(ls "$SOCKDIR" 2>/dev/null | sed -n 's/\.sock$//p' | head -n 1) || [ -z "$pid" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || fail "no socket from hello_xr: $(tail "$XRLM_TEST_WORK/app.log")"
		sleep 0.05
	done
	ctl_ok list
	grep -q "^$pid  *no  *-  *HelloXR  *$target\$" "$XRLM_TEST_WORK/ctl.out" || fail "list: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok start "$pid"
	ctl_ok mark "$pid" hello
	ctl_ok watch "$pid" --count 2
	last=$(tail -n 1 "$XRLM_TEST_WORK/ctl.out")
	set -- $last
	[ "$2" -gt 0 ] && [ "$5" -gt 0 ] || fail "watch shows no CPU or GPU frames: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok stop "$pid"
	merged=$(stopped_path)
	[ -s "$merged" ] || fail "no merged file $merged"
	[ "$(header_value "$merged" gpu_frame_count)" -gt 0 ] || fail "no GPU frames in $merged"
	exec 3>&-
	wait "$app" || fail "hello_xr failed: $(tail -n 20 "$XRLM_TEST_WORK/app.log")"
	[ ! -e "$SOCKDIR/$pid.sock" ] || fail "hello_xr's socket is still there"
	;;
other_user)
	id nobody >/dev/null 2>&1 || fail "no user nobody"
	# Needs root (to run the app as another user): exit 77 (skipped) otherwise.
	[ "$(id -u)" = 0 ] || { note "not root: cannot run the app as another user"; exit 77; }
	chown nobody "$XDG_RUNTIME_DIR" "$OUT"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env sh -c '
		export XDG_RUNTIME_DIR="$1" XR_RUNTIME_JSON="$2" XR_API_LAYER_PATH="$3" XR_ENABLE_API_LAYERS="$4" XRLM_OUTPUT_DIR="$5" XRTEST_FRAME_RATE=90
		exec "$6" --graphics headless --frames 90000' sh "$XDG_RUNTIME_DIR" "$XR_RUNTIME_JSON" "$XR_API_LAYER_PATH" \
		"$XR_ENABLE_API_LAYERS" "$OUT" "$XRLM_TEST_APP" >"$XRLM_TEST_WORK/app.log" 2>&1 &
	app=$!
	wait_socket "$app"
	nobody_app=$app
	[ "$(stat -c %U "$SOCKDIR/$app.sock")" = nobody ] || fail "the socket is not nobody's"
	# root can open the 0700 directory: only the server's SO_PEERCRED check stands in its way.
	greeting=$($CLIENT greeting "$SOCKDIR/$app.sock") || fail "root could not connect at all"
	echo "$greeting" | grep -q "^ERR permission denied: uid 0 is not this process's user (uid $(id -u nobody))$" ||
		fail "root got: $greeting"
	wait_for_line "$OUT/xrlm-pre.log" "control socket: refused a connection from uid 0"
	# And nobody's client cannot reach a root process's socket (the directory is 0700).
	export XDG_RUNTIME_DIR=$XRLM_TEST_WORK/run-root
	SOCKDIR=$XDG_RUNTIME_DIR/xrlm
	mkdir -m 711 "$XDG_RUNTIME_DIR"
	XRLM_OUTPUT_DIR=$XRLM_TEST_WORK/out-root start_app 90000
	wait_socket "$app"
	root_app=$app
	if setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
		"$XRLM" ctl status "$root_app" >"$XRLM_TEST_WORK/nobody.out" 2>&1; then
		fail "nobody could ask root's app: $(cat "$XRLM_TEST_WORK/nobody.out")"
	fi
	grep -q "Permission denied" "$XRLM_TEST_WORK/nobody.out" || fail "nobody got: $(cat "$XRLM_TEST_WORK/nobody.out")"
	kill "$root_app" "$nobody_app"
	wait
	;;
hostile)
	# 30 s of frames: the flood (a python client on a loaded machine) must
	# end well before the app does.
	export XRLM_RECORD=1
	start_app 2700
	wait_socket "$app"
	# Sockets only: the session's files open while this runs (recording
	# starts at the first frame), the clients' connections are what is bounded.
	fds_before=$(sockets_of "$app")
	$CLIENT flood "$SOCKDIR/$app.sock" 1000 >"$XRLM_TEST_WORK/flood.out" 2>&1 &
	flood=$!
	max_fds=0
	while kill -0 "$flood" 2>/dev/null; do
		n=$(sockets_of "$app")
		[ "$n" -le "$max_fds" ] || max_fds=$n
		sleep 0.05
	done
	wait "$flood" || fail "flood: $(cat "$XRLM_TEST_WORK/flood.out")"
	$CLIENT limit "$SOCKDIR/$app.sock" >"$XRLM_TEST_WORK/limit.out" 2>&1 ||
		fail "the request length limit: $(cat "$XRLM_TEST_WORK/limit.out")"
	note "flood: $(cat "$XRLM_TEST_WORK/flood.out"); sockets $fds_before before, at most $max_fds during"
	# The server holds at most 8 clients, plus one accepted to be refused.
	[ "$max_fds" -le $((fds_before + 9)) ] || fail "the app's sockets grew from $fds_before to $max_fds"
	kill -0 "$app" 2>/dev/null || fail "the app ended before its frames: $(tail "$XRLM_TEST_WORK/app.log")"
	ctl_ok status "$app"
	grep -q "^recording *1$" "$XRLM_TEST_WORK/ctl.out" || fail "status after the flood: $(cat "$XRLM_TEST_WORK/ctl.out")"
	wait_app
	merged=$(merged_files)
	[ "$(header_value "$merged" frame_count)" = 2700 ] || fail "not every frame recorded: $(head -n 1 "$merged")"
	for k in dropped_queue_full_pre dropped_queue_full_post unmatched_pre unmatched_post; do
		[ "$(header_value "$merged" $k)" = 0 ] || fail "$k: $(header_value "$merged" $k)"
	done
	;;
two)
	start_app 9000
	a=$app
	start_app 9000
	b=$app
	wait_socket "$a"
	wait_socket "$b"
	ctl_ok start "$b"
	ctl_ok list
	[ "$(grep -c . "$XRLM_TEST_WORK/ctl.out")" -eq 3 ] || fail "list: $(cat "$XRLM_TEST_WORK/ctl.out")"
	grep -q "^$a  *no  *-  *xrlm-test-app " "$XRLM_TEST_WORK/ctl.out" &&
		grep -q "^$b  *yes  *$b-[0-9T]* *xrlm-test-app " "$XRLM_TEST_WORK/ctl.out" ||
		fail "list: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok start "$a"
	ctl_ok stop "$b"
	echo "$(stopped_path)" | grep -q "/frames-merged-$b-" || fail "stop of $b: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok status "$a"
	grep -q "^recording *1$" "$XRLM_TEST_WORK/ctl.out" || fail "$a stopped with $b"
	ctl_ok stop "$a"
	echo "$(stopped_path)" | grep -q "/frames-merged-$a-" || fail "stop of $a: $(cat "$XRLM_TEST_WORK/ctl.out")"
	kill "$a" "$b"
	wait
	;;
exit)
	start_app 90
	wait_socket "$app"
	wait_app
	[ ! -e "$SOCKDIR/$app.sock" ] || fail "socket left after xrDestroyInstance"
	start_app 90 --exit-without-destroy
	wait_socket "$app"
	wait_app
	[ ! -e "$SOCKDIR/$app.sock" ] || fail "socket left after exit() with the instance alive"
	grep -q "process exiting with the instance alive" "$OUT/xrlm-pre.log" || fail "not the exit path"
	start_app 9000
	wait_socket "$app"
	kill -9 "$app"
	wait "$app" || true
	[ -S "$SOCKDIR/$app.sock" ] || fail "kill -9 left no socket to test with"
	ctl list
	grep -q "process $app is gone: removed its stale socket $SOCKDIR/$app.sock" "$XRLM_TEST_WORK/ctl.err" ||
		fail "list: $(cat "$XRLM_TEST_WORK/ctl.err")"
	[ ! -e "$SOCKDIR/$app.sock" ] || fail "list left the stale socket"
	[ "$(grep -c . "$XRLM_TEST_WORK/ctl.out")" -eq 1 ] || fail "list shows a dead process: $(cat "$XRLM_TEST_WORK/ctl.out")"
	start_app 9000
	wait_socket "$app"
	kill -9 "$app"
	wait "$app" || true
	ctl_err "process $app is gone: removed its stale socket" status "$app"
	[ ! -e "$SOCKDIR/$app.sock" ] || fail "status left the stale socket"
	ctl_err "no control socket for process $app" status "$app"
	;;
long_path)
	XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR/$(printf 'r%.0s' $(seq 100))
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	SOCKDIR=$XDG_RUNTIME_DIR/xrlm
	[ ${#SOCKDIR} -gt 108 ] || fail "the socket path is not long: $SOCKDIR"
	start_app 9000
	wait_socket "$app"
	ctl_ok status "$app"
	grep -q "^recording *0$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_ok list
	grep -q "^$app  *no  *-  *xrlm-test-app " "$XRLM_TEST_WORK/ctl.out" ||
		fail "list: $(cat "$XRLM_TEST_WORK/ctl.out" "$XRLM_TEST_WORK/ctl.err")"
	kill "$app"
	wait "$app" || true
	;;
short)
	export XRLM_RECORD_FRAMES=1 XRTEST_FRAME_RATE=500
	start_app 1000000 # killed when done
	wait_socket "$app"
	for i in $(seq 9); do
		# Before the fix: no reply ("no reply within 5.5 s"), then "too many clients".
		ctl_ok start "$app" --timeout 0.5
		# Ended, as a rule; a reply that came within its one frame does not say so.
		tag=$(sed -n 's/^recording: session \([^;]*\)\(; the session has ended already\)\{0,1\}$/\1/p' \
			"$XRLM_TEST_WORK/ctl.out")
		echo "$tag" | grep -q "^$app-" || fail "start $i: $(cat "$XRLM_TEST_WORK/ctl.out")"
		wait_for_line "$OUT/xrlm-pre.log" "session $tag: 1 rows"
		[ "$(data_rows "$OUT/frames-$tag-pre.csv" | wc -l)" -eq 1 ] ||
			fail "session $tag: not one frame in $OUT/frames-$tag-pre.csv"
	done
	ctl_ok status "$app"
	grep -q "^recording *0$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	kill "$app"
	wait "$app" || true
	;;
hangup)
	# One frame every 20 s: the first starts the session, the second is far.
	export XRLM_RECORD=1 XRTEST_FRAME_RATE=0.05
	start_app 100 # killed when done
	wait_socket "$app"
	wait_for_line "$OUT/xrlm-pre.log" "session .*: recording to "
	$CLIENT leave "$SOCKDIR/$app.sock" 8 stop >"$XRLM_TEST_WORK/leave.out" 2>&1 ||
		fail "leave: $(cat "$XRLM_TEST_WORK/leave.out")"
	# Before the fix each waited out its 5 s: "too many clients".
	ctl_ok status "$app" --timeout 1
	grep -q "^recording *1$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	kill "$app"
	wait "$app" || true
	;;
trace_only)
	# No session daemon needed: the provider traces (to nobody) all the same.
	export XRLM_TRACE=lttng LTTNG_HOME=$XRLM_TEST_WORK/lttng-home
	mkdir -p "$LTTNG_HOME"
	start_app 9000 # killed when done
	wait_socket "$app"
	ctl_ok start "$app"
	tag=$(sed -n 's/^recording: session //p' "$XRLM_TEST_WORK/ctl.out")
	echo "$tag" | grep -q "^$app-" || fail "start: $(cat "$XRLM_TEST_WORK/ctl.out")"
	i=0
	while ctl_ok status "$app" && grep -q "^frames *0$" "$XRLM_TEST_WORK/ctl.out"; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "status: no frame counted: $(cat "$XRLM_TEST_WORK/ctl.out")"
		sleep 0.05
	done
	grep -q "^recording *1$" "$XRLM_TEST_WORK/ctl.out" || fail "status: $(cat "$XRLM_TEST_WORK/ctl.out")"
	ctl_err "mark: the session writes no files (XRLM_TRACE=lttng): a mark has none to go into" \
		mark "$app" here --timeout 1
	ctl_ok stop "$app"
	grep -qx "stopped: session $tag; no files to merge (XRLM_TRACE=lttng)" "$XRLM_TEST_WORK/ctl.out" ||
		fail "stop: $(cat "$XRLM_TEST_WORK/ctl.out")"
	[ -z "$(ls "$OUT" | grep '\.csv$')" ] || fail "files with XRLM_TRACE=lttng: $(ls "$OUT")"
	kill "$app"
	wait "$app" || true
	;;
deleted)
	# The output directory deleted during a session: stop says the session
	# is lost, not that its merge failed; each side's log says so, and the
	# app's stderr once a side.
	start_app 9000 # killed when done
	wait_socket "$app"
	ctl_ok start "$app"
	tag=$(sed -n 's/^recording: session //p' "$XRLM_TEST_WORK/ctl.out")
	[ -n "$tag" ] || fail "start: $(cat "$XRLM_TEST_WORK/ctl.out")"
	sleep 0.3
	rm -rf "$OUT"
	ctl_err "process $app: stopped; the output directory was deleted: session $tag lost" stop "$app"
	for side in pre post; do
		wait_for_line "$XRLM_TEST_WORK/app.log" "xrlm $side: output directory $OUT was deleted: session $tag lost"
	done
	! grep -q "merge" "$XRLM_TEST_WORK/app.log" || fail "a merge of the lost session: $(cat "$XRLM_TEST_WORK/app.log")"
	# The next session makes the directory again; deleted once more, its
	# loss is said on stderr again (the first time after each remaking).
	ctl_ok start "$app"
	tag2=$(sed -n 's/^recording: session //p' "$XRLM_TEST_WORK/ctl.out")
	[ -n "$tag2" ] || fail "second start: $(cat "$XRLM_TEST_WORK/ctl.out")"
	for side in pre post; do
		wait_for_line "$XRLM_TEST_WORK/app.log" "xrlm $side: output directory $OUT was deleted while the application ran: made it again"
		wait_for_line "$OUT/xrlm-$side.log" "session $tag2: recording to "
	done
	sleep 0.3
	rm -rf "$OUT"
	ctl_err "process $app: stopped; the output directory was deleted: session $tag2 lost" stop "$app"
	# Two such lines a side (the tags may be the same: both began in one second).
	for side in pre post; do
		i=0
		while [ "$(grep -c "^xrlm $side: output directory $OUT was deleted: session [^ ]* lost\$" "$XRLM_TEST_WORK/app.log")" -lt 2 ]; do
			i=$((i + 1))
			[ $i -le 200 ] || fail "$side did not say the second loss on stderr: $(cat "$XRLM_TEST_WORK/app.log")"
			sleep 0.05
		done
	done
	kill "$app"
	wait "$app" || true
	;;
protocol)
	start_app 9000 # killed when done
	wait_socket "$app"
	t256=$(printf 'm%.0s' $(seq 256))
	$CLIENT talk "$SOCKDIR/$app.sock" 'status\r' mark "mark $t256" "mark ${t256}m" quit \
		>"$XRLM_TEST_WORK/talk.out" 2>&1 || fail "talk: $(cat "$XRLM_TEST_WORK/talk.out")"
	cat >"$XRLM_TEST_WORK/talk.want" <<-END
	version=1 pid=$app app=xrlm-test-app target_layer=$TARGET recording=0 session= frames=0 output_dir=$OUT
	OK
	ERR mark needs a text: mark TEXT
	ERR not recording: a mark goes into a session's files
	ERR mark: the text must be 1 to 256 bytes of UTF-8 without control characters
	OK bye
	EOF
	END
	diff "$XRLM_TEST_WORK/talk.want" "$XRLM_TEST_WORK/talk.out" || fail "talk: $(cat "$XRLM_TEST_WORK/talk.out")"
	kill "$app"
	wait "$app" || true
	;;
off)
	# Threads named xrlm-ctl in process $1.
	ctl_threads() { cat /proc/"$1"/task/*/comm 2>/dev/null | grep -c '^xrlm-ctl$' || true; }
	start_app 9000
	wait_socket "$app"
	[ "$(ctl_threads "$app")" -eq 1 ] || fail "not one xrlm-ctl thread: $(cat /proc/"$app"/task/*/comm)"
	with=$(ls /proc/"$app"/task | wc -l)
	kill "$app"
	wait "$app" || true
	XRLM_CONTROL=off start_app 9000
	wait_for_line "$OUT/xrlm-pre.log" "control socket: off (XRLM_CONTROL=off)"
	wait_for_line "$OUT/xrlm-pre.log" "toggle signal"
	sleep 0.5
	[ "$(ctl_threads "$app")" -eq 0 ] || fail "an xrlm-ctl thread with XRLM_CONTROL=off"
	without=$(ls /proc/"$app"/task | wc -l)
	[ "$without" -eq $((with - 1)) ] || fail "threads: $with with the socket, $without without"
	[ ! -e "$SOCKDIR/$app.sock" ] || fail "a socket with XRLM_CONTROL=off"
	kill "$app"
	wait "$app" || true
	for how in unset relative link; do
		: >"$OUT/xrlm-pre.log"
		case $how in
		unset) env -u XDG_RUNTIME_DIR "$XRLM_TEST_APP" --graphics headless --frames 60 >>"$XRLM_TEST_WORK/app.log" 2>&1 ;;
		relative) XDG_RUNTIME_DIR=run "$XRLM_TEST_APP" --graphics headless --frames 60 >>"$XRLM_TEST_WORK/app.log" 2>&1 ;;
		link)
			rm -rf "$SOCKDIR" && mkdir -m 700 "$XRLM_TEST_WORK/elsewhere" && ln -s "$XRLM_TEST_WORK/elsewhere" "$SOCKDIR"
			"$XRLM_TEST_APP" --graphics headless --frames 60 >>"$XRLM_TEST_WORK/app.log" 2>&1 ;;
		esac || fail "the app failed with XDG_RUNTIME_DIR $how"
		[ "$(grep -c "control socket: .*none this time" "$OUT/xrlm-pre.log")" -eq 1 ] ||
			fail "XDG_RUNTIME_DIR $how: $(cat "$OUT/xrlm-pre.log")"
		[ -z "$(ls "$XRLM_TEST_WORK/elsewhere" 2>/dev/null)" ] || fail "a socket through the planted link"
	done
	;;
*)
	fail "unknown case $CASE"
	;;
esac
note "ctl $CASE: ok"
