#!/bin/sh
# An output directory the monitor cannot (fully) use never breaks the app:
# it runs all its frames with exit 0, one clear line says what happened,
# nothing is written outside the output directory, no symlink is followed.
#   missing:  a directory three levels deep that does not exist, named with a
#             trailing '/': created, itself 0700, those on the way 0755
#   full:     a 64 KiB tmpfs fills up mid-session (ENOSPC), and the same with
#             `ulimit -f` (EFBIG) where mounting is not allowed
#   readonly: a read-only tmpfs: the directory cannot be created under it,
#             or exists but no file can be created in it (the default
#             directory is used instead, both times)
#   symlinks: symlinks planted where the session's files and the log will
#             be created, pointing at a file outside: nothing goes through
#   deleted:  the directory is deleted between two sessions: the next one
#             makes it again (saying so once per side) and is recorded there
#   links:    a path through a chain of the user's own links: 40 links (the
#             kernel's own limit) are followed, 41 refused (too many levels
#             of symbolic links, said with the first link's name; the
#             default directory used), and so is a loop of two links
# (Links and directories planted by another user: shared_dir.sh.)
# (A path under a regular file is tests/layer/hostile_env.sh's.)
. "$(dirname "$0")/rel_lib.sh"
W=$XRLM_TEST_WORK

# A clean work directory (lib.sh's setup), recording from the first frame.
prepare() {
	umount "$W/full" "$W/ro" 2>/dev/null || true # left by an interrupted run
	setup
	export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
}

# mount_tmpfs DIR OPTIONS: false (with a note) where mounting is not allowed.
mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "$2" xrlm-test "$1" 2>/dev/null && return 0
	note "cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)"
	return 1
}

# Frames the app ran (its --stats "run" line); fails unless at least $1.
ran_all() {
	ran=$(sed -n 's/^run .*frames_run=\([0-9]*\).*/\1/p' "$W/app.log")
	[ -n "$ran" ] && [ "$ran" -ge "$1" ] || fail "the app ran ${ran:-no} frames, not $1"
}

case_missing() {
	prepare
	# A trailing '/' names the same directory: still the last component.
	export XRLM_OUTPUT_DIR=$W/new/a/b/out/
	run_app_traced --graphics headless --frames 200
	OUT=$W/new/a/b/out
	[ "$(check_all_sessions)" -eq 1 ] || fail "no session in the created directory"
	only_written_under "$OUT"
	# Private (0700), the directories on the way to it not (0755), less the umask.
	mode=$(stat -c %a "$OUT")
	[ "$mode" = "$(printf %o $((0700 & ~$(umask))))" ] || fail "$OUT was made $mode, not 0700"
	mode=$(stat -c %a "$W/new/a/b")
	[ "$mode" = "$(printf %o $((0755 & ~$(umask))))" ] || fail "$W/new/a/b was made $mode, not 0755"
	note "missing directory created, session recorded and merged"
}

# The directory fills up: the app unaffected; the side whose frames file
# failed says once that it stopped recording, each side at most once that
# its calls file failed (the frames file goes on without it), nothing more; the stopped
# session's files are closed all the same.
fill_up() {
	run_app_traced --graphics headless --frames 20000 --stats
	ran_all 20000
	only_written_under "$OUT"
	left=$(unclosed_csv_files "$OUT")
	[ -z "$left" ] || fail "files of the stopped session never closed: $left"
	grep -h "failed" "$W/app.log" "$OUT"/xrlm-*.log 2>/dev/null | grep -E "$1" >"$W/msgs" || true
	[ -s "$W/msgs" ] || fail "no line says the disk is full ($1)"
	for side in pre post; do
		stopped=$(grep -c " $side: .*; recording stopped" "$W/msgs" || true)
		calls=$(grep -c " $side: .*; calls no longer recorded" "$W/msgs" || true)
		[ "$stopped" -le 1 ] || fail "$side said $stopped times that it stopped recording: $(cat "$W/msgs")"
		[ "$calls" -le 1 ] && [ "$(grep -c " $side: " "$W/msgs")" -eq $((stopped + calls)) ] ||
			fail "more lines for $side than its calls file's and the stop's: $(cat "$W/msgs")"
	done
	# The side whose frames file failed stops both (a side whose file is
	# still whole stops silently, at the other's request).
	grep -q "; recording stopped" "$W/msgs" || fail "no side said it stopped recording: $(cat "$W/msgs")"
	note "$(head -n 1 "$W/msgs" | sed 's/^.*\(pre\|post\): //')"
}

case_full() {
	prepare
	if mount_tmpfs "$W/full" size=64k; then
		trap 'umount "$W/full" 2>/dev/null' EXIT
		export XRLM_OUTPUT_DIR=$W/full
		OUT=$W/full
		fill_up "No space left on device|disk full"
		umount "$W/full"
		trap - EXIT
	fi
	# Same without root: a file size limit (SIGXFSZ ignored, as a host may).
	prepare
	trap '' XFSZ
	(ulimit -f 128 && fill_up "File too large|disk full") || exit 1
}

case_readonly() {
	prepare
	mount_tmpfs "$W/ro" ro,size=64k || exit 77
	trap 'umount "$W/ro" 2>/dev/null' EXIT
	export XRLM_OUTPUT_DIR=$W/ro/out
	run_app_traced --graphics headless --frames 200 --stats
	ran_all 200
	# A directory that cannot be made is a bad setting: the default is used.
	only_written_under "$W/ro/out" "$XDG_STATE_HOME/xr-layer-monitor"
	one_line "$W/app.log" "pre: output directory $W/ro/out cannot be used: .*; using the default"
	ls "$XDG_STATE_HOME"/xr-layer-monitor/frames-merged-*.csv >/dev/null 2>&1 ||
		fail "nothing recorded in the default directory"
	# One that exists but cannot be written to is refused too: the
	# default is used, not a directory that would record nothing.
	rm -rf "$XDG_STATE_HOME/xr-layer-monitor"
	umount "$W/ro"
	mount_tmpfs "$W/ro" size=64k || fail "cannot mount $W/ro again"
	mkdir "$W/ro/out"
	mount -o remount,ro "$W/ro" || fail "cannot remount $W/ro read-only"
	run_app_traced --graphics headless --frames 200 --stats
	ran_all 200
	only_written_under "$W/ro/out" "$XDG_STATE_HOME/xr-layer-monitor"
	one_line "$W/app.log" "pre: output directory $W/ro/out cannot be used: $W/ro/out cannot be written to: Read-only file system; using the default"
	one_line "$W/app.log" "post: output directory $W/ro/out cannot be used: .*Read-only file system; using the default"
	ls "$XDG_STATE_HOME"/xr-layer-monitor/frames-merged-*.csv >/dev/null 2>&1 ||
		fail "nothing recorded in the default directory"
	note "read-only: $(grep -h "cannot" "$W/app.log" | head -n 1)"
}

# plant KIND N...: symlinks frames-<pid>-<time><-n>-KIND.csv (or merged) for
# the seconds around now, for each suffix N ("" = none), to the victim.
plant() {
	kind=$1
	shift
	now=$(date +%s)
	for s in $(seq $((now - 1)) $((now + 3))); do
		stamp=$(date -d "@$s" +%Y%m%dT%H%M%S)
		for n in "$@"; do
			case $kind in
			merged) ln -s "$VICTIM" "$OUT/frames-merged-$APP_PID-$stamp$n.csv" ;;
			*) ln -s "$VICTIM" "$OUT/frames-$APP_PID-$stamp$n-$kind.csv" ;;
			esac
			PLANTED=$((PLANTED + 1))
		done
	done
}

# One recorded session of about 0.5 s, toggled by signal, with planting
# done by "$@" once the app's handler is installed.
session_with_plants() {
	start_app --graphics headless --frames 3000 --stats
	wait_for_line "$W/app.log" "toggle signal: "
	"$@"
	kill -USR2 "$APP_PID"
	sleep 0.5
	kill -USR2 "$APP_PID"
	wait_app
}

plant_logs() {
	PLANTED=2
	ln -s "$VICTIM" "$OUT/xrlm-pre.log"
	ln -s "$VICTIM" "$OUT/xrlm-post.log"
}

victim_intact() {
	[ "$(find "$OUT" -type l | wc -l)" -eq "$PLANTED" ] || fail "a planted symlink was replaced"
	[ -f "$VICTIM" ] && [ ! -L "$VICTIM" ] || fail "the victim file was replaced"
	[ "$(cat "$VICTIM")" = "victim" ] || fail "something was written through a symlink"
	for l in "$OUT"/*; do
		[ -L "$l" ] || continue
		[ "$(readlink "$l")" = "$VICTIM" ] || fail "planted symlink $l was changed"
	done
}

case_symlinks() {
	prepare
	VICTIM=$W/victim
	echo victim >"$VICTIM"
	export XRTEST_FRAME_RATE=500
	unset XRLM_RECORD
	# The logs: a symlink in place of each, so the log goes to stderr.
	plant_logs
	# Pre finds its plain tag taken and uses "-1"; post finds "-1" taken
	# (and stops the recording: a second toggle starts another session).
	session_with_plants eval 'plant pre "" && plant post -1'
	victim_intact
	ls "$OUT"/frames-"$APP_PID"-*-1-pre.csv >/dev/null 2>&1 || fail "pre did not move on to a free tag"
	one_line "$W/app.log" "post: .*cannot create its post file.*File exists"
	rm -f "$OUT"/*

	plant_logs
	# The merged file's name is taken: the merge must not write through it.
	session_with_plants eval 'plant pre "" && plant merged -1'
	victim_intact
	# Named by the directory's path, not the descriptor the merge reads it by.
	one_line "$W/app.log" "post: merge [^ ]*: $OUT/frames-merged-$APP_PID-[0-9T]*-1\.csv: error: already exists; not overwriting"
	note "no symlink followed: $(grep -h "exists" "$W/app.log" | tail -n 1 | sed 's/^.*post: //')"
}

# One session toggled by signal, recorded and merged.
toggled_session() {
	before=$(ls "$OUT"/frames-merged-*.csv 2>/dev/null | wc -l)
	kill -USR2 "$APP_PID"
	sleep 0.4
	kill -USR2 "$APP_PID"
	i=0
	while [ "$(ls "$OUT"/frames-merged-*.csv 2>/dev/null | wc -l)" -le "$before" ]; do
		i=$((i + 1))
		[ $i -le 200 ] || fail "no merged file for the session after the toggle"
		sleep 0.05
	done
}

case_deleted() {
	prepare
	unset XRLM_RECORD
	export XRTEST_FRAME_RATE=500
	start_app --graphics headless --frames 3000 --stats
	wait_for_line "$OUT/xrlm-pre.log" "toggle signal: "
	toggled_session
	rm -rf "$OUT"
	toggled_session
	wait_app
	ran_all 3000
	[ "$(check_all_sessions)" -eq 1 ] || fail "the session after the deletion was not recorded in the new directory"
	for side in pre post; do
		one_line "$W/app.log" "$side: output directory $OUT was deleted while the application ran: made it again"
	done
	grep -q "recording to $OUT" "$OUT/xrlm-pre.log" || fail "the log did not move to the new directory"
	note "deleted directory made again, next session recorded there"
}

case_links() {
	prepare
	mkdir "$W/real"
	ln -s "$W/real" "$W/l1"
	for i in $(seq 2 41); do
		ln -s "$W/l$((i - 1))" "$W/l$i"
	done
	export XRLM_OUTPUT_DIR=$W/l40/out
	run_app --graphics headless --frames 50
	OUT=$W/real/out
	[ "$(check_all_sessions)" -eq 1 ] || fail "nothing recorded through 40 links: $(cat "$W/app.log")"
	! grep -q "cannot be used" "$W/app.log" || fail "40 links were refused: $(cat "$W/app.log")"
	rm -rf "$OUT"
	export XRLM_OUTPUT_DIR=$W/l41/out
	run_app --graphics headless --frames 50
	# The reason is said, whatever the chain's length (it was cut off).
	for side in pre post; do
		one_line "$W/app.log" "$side: output directory $XRLM_OUTPUT_DIR cannot be used: $W/l41: too many levels of symbolic links (more than 40); using the default"
	done
	[ ! -e "$OUT" ] || fail "41 links were followed"
	ls "$XDG_STATE_HOME"/xr-layer-monitor/frames-merged-*.csv >/dev/null 2>&1 ||
		fail "nothing recorded in the default directory"
	# A loop of two links: refused the same way, not followed for ever.
	ln -s "$W/loop2" "$W/loop1"
	ln -s "$W/loop1" "$W/loop2"
	export XRLM_OUTPUT_DIR=$W/loop1/out
	run_app --graphics headless --frames 50
	for side in pre post; do
		one_line "$W/app.log" "$side: output directory $XRLM_OUTPUT_DIR cannot be used: $W/loop1: too many levels of symbolic links (more than 40); using the default"
	done
	note "40 links followed, 41 refused, a loop refused"
}

case $1 in
missing) case_missing ;;
links) case_links ;;
deleted) case_deleted ;;
full) case_full ;;
readonly) case_readonly ;;
symlinks) case_symlinks ;;
*) fail "unknown case $1" ;;
esac
