#!/bin/sh
# A full disk without root (no tmpfs: rel_nospace_shim.so, LD_PRELOADed,
# fails the writes to chosen files with ENOSPC). Sessions of 10 frames at
# 1 kHz, shorter than the writers' 0.5 s flush: the first session's files
# are flushed at its start and written whole; the later sessions of the
# same second (tags with a "-<n>": the files that fail) write nothing
# before their close.
#   close: the per-side CSV files of those cannot be written. Each lost
#          session is said as lost (the file and the error), no "rows" line
#          claims it, nothing of it is handed to the merge, its empty files
#          are removed, and once a session's files failed for lack of space
#          the next ones are not made (said once): not one failure burst per
#          toggle.
#   close_pre: the same with pre's files alone failing: post's files of
#          those sessions are whole, and post says it leaves them unmerged
#          (pre's are lost), handing none to the merge.
#   log:   the logs cannot be written (the sessions' files can): each side
#          says so once on stderr, which then gets the first line of each
#          kind (and the loud ones), not every session's lines.
. "$(dirname "$0")/rel_lib.sh"
: "${XRLM_TEST_NOSPACE_SHIM:?}"

# The files of the sessions with a "-<n>" in their tag.
LATER='*T[0-9][0-9][0-9][0-9][0-9][0-9]-[0-9]*.csv'

# The app: $2 frames at 1 kHz, sessions of 10 frames (toggled by signal).
run_full() {
	setup
	export XRTEST_FRAME_RATE=1000
	LD_PRELOAD="${XRLM_TEST_PRELOAD:+$XRLM_TEST_PRELOAD:}$XRLM_TEST_NOSPACE_SHIM" \
		REL_NOSPACE_FILES=$1 run_app --graphics headless --frames "$2" --calls frame \
		--toggle-every 10
}

# The sessions the side's lines ($1: a file of lines) say lost, at least one.
lost_sessions() {
	n=$(grep -c "its files could not be written (.*: No space left on device): the session is lost" "$1" || true)
	[ "$n" -ge 1 ] || fail "no line of $1 says a session is lost: $(cat "$1")"
	echo "$n"
}

case_close() {
	run_full "$LATER" 300
	for side in pre post; do
		log=$OUT/xrlm-$side.log
		for tag in $(sed -n 's/.* session \([^ ]*\): its files could not be written .*/\1/p' "$log"); do
			! grep "session $tag: [0-9]* rows" "$log" ||
				fail "$side claims rows for session $tag, whose files could not be written"
			[ -z "$(ls "$OUT"/*-"$tag"*.csv 2>/dev/null)" ] ||
				fail "files of the lost session $tag left: $(ls -l "$OUT")"
		done
		n=$(lost_sessions "$log")
		# The files of the sessions open when the first failed, then none.
		[ "$n" -le 3 ] || fail "$side lost $n sessions: one failure burst per toggle"
		grep -q "its files, which held nothing, are removed" "$log" ||
			fail "$side does not say the empty files were removed: $(cat "$log")"
	done
	one_line "$W/app.log" "pre: sessions are not recorded for now: .*No space left on device"
	! grep "merge failed\|error:" "$OUT/xrlm-post.log" || fail "a lost session was handed to the merge"
	# The sessions written whole are merged as ever.
	[ "$(check_all_sessions)" -ge 1 ] || fail "the first session was not recorded"
	note "$(grep -h "is lost" "$OUT/xrlm-pre.log" | head -n 1 | sed 's/^.*pre: //')"
}

# Pre's files alone fail: post's of the same sessions are whole, and its
# merge must not take them for a session whose pre files are lost.
case_close_pre() {
	run_full "*T[0-9][0-9][0-9][0-9][0-9][0-9]-[0-9]*-pre.csv" 300
	n=$(grep -c "not merged: pre's files of it are lost (No space left on device; see xrlm-pre.log)" \
		"$OUT/xrlm-post.log" || true)
	[ "$n" -ge 1 ] || fail "post does not say it left pre's lost sessions unmerged: $(cat "$OUT/xrlm-post.log")"
	! grep "merge failed\|error:" "$OUT/xrlm-post.log" || fail "a session pre lost was handed to the merge"
	note "post left $n sessions unmerged whose pre files were lost"
}

case_log() {
	# Eight sessions: as many as post's merge queue holds
	# (XL_HOOK_QUEUE), so that all are merged in the app even when its
	# merges, at SCHED_IDLE, get no CPU time until the end (a loaded
	# host: more sessions were left for `xrlm merge`, as they should).
	run_full "xrlm-*.log" 160
	for side in pre post; do
		one_line "$W/app.log" "^xrlm $side: cannot write xrlm-$side.log: No space left on device"
		# The first line of a kind only: not one per session.
		one_line "$W/app.log" "^xrlm $side: session [^ ]*: [0-9]* rows"
	done
	# The toggles' lines (the loud ones, on stderr anyway) aside: the
	# init lines and the first of each other kind, not ~7 a session.
	n=$(grep '^xrlm ' "$W/app.log" | grep -c -v 'recording \(started\|stopped\) by signal' || true)
	[ "$n" -le 30 ] || fail "$n lines on stderr with the logs unwritable: $(cat "$W/app.log")"
	[ "$(check_all_sessions)" -eq 8 ] || fail "the sessions were not all recorded"
	note "$n lines on stderr (the toggles' aside)"
}

W=$XRLM_TEST_WORK
case $1 in
close) case_close ;;
close_pre) case_close_pre ;;
log) case_log ;;
*) fail "unknown case $1" ;;
esac
