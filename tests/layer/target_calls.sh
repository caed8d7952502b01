#!/bin/sh
# Calls the target answers itself, induced calls and the target's own-thread
# calls are seen as such, with the right counts, in the calls files and in
# functions-merged-<tag>.csv (the synthetic target's knobs, tests/README.md):
#   answer:  XRTEST_TARGET_ANSWER_xrLocateSpace=1: pre records every
#            xrLocateSpace of the app, post none;
#   induce:  XRTEST_TARGET_INDUCE_xrBeginFrame=xrLocateSpace:50: post records
#            50 more xrLocateSpace per frame than pre, all inside pre's
#            xrBeginFrame, reported as induced; the target's exclusive time
#            in xrBeginFrame leaves out the runtime's time in them;
#   thread:  XRTEST_TARGET_THREAD_CALLS=xrLocateSpace:2 at 200 Hz: post
#            records them on a thread pre never sees, reported as own-thread.
# Usage: target_calls.sh answer|induce|thread
. "$(dirname "$0")/lib.sh"
case=$1
FRAMES=200

# Value of column $3 in the row of function $2 of functions file $1 (0 without a row).
fn_value() {
	col=$(column_of "$1" "$3")
	[ -n "$col" ] || fail "$1 has no $3 column"
	data_rows "$1" | awk -F, -v f="$2" -v c="$col" '$1 == f { v = $c } END { print v + 0 }'
}

# Rows of function $2 in calls file $1.
calls_of() {
	data_rows "$1" | grep -c "^$2," || true
}

setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=$FRAMES
case $case in
answer) export XRTEST_TARGET_ANSWER_xrLocateSpace=1 ;;
induce) export XRTEST_TARGET_INDUCE_xrBeginFrame=xrLocateSpace:50 ;;
thread) export XRTEST_FRAME_RATE=200 XRTEST_TARGET_THREAD_CALLS=xrLocateSpace:2 XRTEST_TARGET_THREAD_HZ=200 ;;
*) fail "usage: target_calls.sh answer|induce|thread" ;;
esac
run_app --graphics headless --frames $((FRAMES + 20))
pre=$(ls "$OUT"/calls-*-pre.csv 2>/dev/null) || fail "no pre calls file"
post=$(ls "$OUT"/calls-*-post.csv 2>/dev/null) || fail "no post calls file"
functions=$(ls "$OUT"/functions-merged-*.csv 2>/dev/null) || fail "no functions-merged file"
pre_n=$(calls_of "$pre" xrLocateSpace)
post_n=$(calls_of "$post" xrLocateSpace)
frames=$(calls_of "$pre" xrEndFrame)
[ "$frames" -eq $FRAMES ] || fail "pre recorded $frames frames, not $FRAMES"

case $case in
answer)
	[ "$pre_n" -ge $((5 * FRAMES)) ] || fail "pre recorded only $pre_n xrLocateSpace"
	[ "$post_n" -eq 0 ] || fail "post recorded $post_n xrLocateSpace the target answered itself"
	note "answered by the target: pre $pre_n xrLocateSpace, post 0"
	;;
induce)
	induced=$(fn_value "$functions" xrLocateSpace induced_calls)
	[ "$post_n" -eq $((pre_n + 50 * FRAMES)) ] ||
		fail "post recorded $post_n xrLocateSpace, pre $pre_n: not 50 more per frame"
	[ "$induced" -eq $((50 * FRAMES)) ] ||
		fail "functions file: $induced induced xrLocateSpace, not $((50 * FRAMES))"
	# The runtime's time in the 50 induced calls is left out: the phase
	# column stays near 0 (the target burns nothing of its own there).
	# What remains is the target's own loop around the 50 calls and the
	# halves of post's brackets no clock sees: 0.4-0.6 us a frame here
	# against the runtime's ~12, but 1.6-5.5 us against 22-42 under ASan,
	# which slows both alike. So the bound is 3 us or a third of the
	# runtime's share, whichever is more; a leak adds the whole share.
	merged=$(merged_files)
	col=$(column_of "$merged" target_begin_us)
	[ -n "$col" ] || fail "no target_begin_us column"
	median=$(column_median "$merged" "$col")
	runtime=$(data_rows "$post" | awk -F, '$1 == "xrLocateSpace" { s += $4 - $3; n++ } END { printf "%.3f", s / n * 50 / 1000 }')
	bound=$(awk -v r="$runtime" 'BEGIN { b = r / 3; print (b > 3 ? b : 3) }')
	note "induced: $induced xrLocateSpace; target_begin_us median $median, the runtime's share in them ~$runtime us per frame (bound $bound)"
	near "$median" 0 "$bound" || fail "target_begin_us median $median: the induced calls' time is not left out"
	;;
thread)
	app_threads=$(data_rows "$pre" | cut -d, -f2 | sort -u)
	own=$(data_rows "$post" | awk -F, -v t="$(echo $app_threads)" 'BEGIN { n = split(t, a, " "); for (i = 1; i <= n; i++) app[a[i]] = 1 }
		$1 == "xrLocateSpace" && !($2 in app) { c++ } END { print c + 0 }')
	reported=$(fn_value "$functions" xrLocateSpace own_thread_calls)
	[ "$own" -ge 100 ] || fail "post recorded only $own xrLocateSpace on the target's own thread"
	[ "$reported" -eq "$own" ] || fail "functions file: $reported own-thread xrLocateSpace, post recorded $own"
	note "own thread: $own xrLocateSpace on a thread the app never used, reported as own-thread"
	;;
esac
