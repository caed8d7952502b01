#!/bin/sh
# A shared directory (sticky, world-writable, like /tmp) where another user
# plants links and directories for the one who records. The app runs as
# `nobody`, the attacker as `daemon`; the monitor must never write through a
# planted link, never create directories through one, never use a directory
# another user owns, and must say why on stderr, once per side. The app runs
# all its frames with exit 0 in every case.
#
# The kernel's fs.protected_symlinks would already refuse some of these
# follows in the sticky directory; it is set to 0 for those cases where it
# can be (root, writable /proc/sys) and restored after, and they are left
# out (said in the output) where it cannot. The same two links are also
# planted in a directory of the attacker's own (not sticky, where the
# kernel follows any link), which runs everywhere: the monitor's own
# checks are what is tested, whatever the kernel's setting.
#
# Needs root (to become nobody and daemon): exit 77 (skipped) otherwise.
. "$(dirname "$0")/rel_lib.sh"
W=$XRLM_TEST_WORK

[ "$(id -u)" -eq 0 ] || { note "not root: cannot run as nobody"; exit 77; }
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1

# Everything nobody needs, copied where nobody can read it (the build tree
# may be under a private home), with the manifests pointing at the copies.
T=$(mktemp -d /tmp/xrlm-shared-dir-XXXXXX)
SYSCTL=/proc/sys/fs/protected_symlinks
OLD_PROTECT=
cleanup() {
	[ -z "$OLD_PROTECT" ] || echo "$OLD_PROTECT" >"$SYSCTL"
	rm -rf "$T"
}
trap cleanup EXIT
chmod 755 "$T"
mkdir "$T/bin" "$T/layers"
stage() { # stage MANIFEST_DIR: its manifests and their libraries into $T/layers
	for m in "$1"/*.json; do
		lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$m")
		cp "$lib" "$T/layers/"
		sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$T/layers/$(basename "$lib")\"|" \
			"$m" >"$T/layers/$(basename "$m")"
	done
}
stage "$XRLM_TEST_MANIFESTS"
stage "$XRLM_TEST_TARGET_MANIFESTS"
rt_lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$XRLM_TEST_RUNTIME_JSON")
cp "$rt_lib" "$T/bin/"
sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$T/bin/$(basename "$rt_lib")\"|" \
	"$XRLM_TEST_RUNTIME_JSON" >"$T/bin/runtime.json"
cp "$XRLM_TEST_APP" "$T/bin/app"
chmod -R a+rX "$T"
export XR_RUNTIME_JSON=$T/bin/runtime.json XR_API_LAYER_PATH=$T/layers HOME=/nonexistent
# nobody's default directory, where a refused one sends the layers.
NSTATE=$T/nstate
mkdir -m 700 "$NSTATE" && chown nobody:nogroup "$NSTATE"
export XDG_STATE_HOME=$NSTATE

SHARED=$T/shared
mkdir -m 1777 "$SHARED"
# nobody's own private directory: the attacker's target.
PRIVATE=$T/private
mkdir -m 700 "$PRIVATE" && chown nobody:nogroup "$PRIVATE"

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
as_daemon() {
	setpriv --reuid=daemon --regid=daemon --clear-groups "$@"
}

# Runs the app as nobody with XRLM_OUTPUT_DIR=$1; all frames, exit 0.
run_nobody() {
	XRLM_OUTPUT_DIR=$1 timeout 120 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$T/bin/app" --graphics headless --frames 50 --stats \
		>"$W/app.log" 2>&1 || { cat "$W/app.log" >&2; fail "the app failed (or hung) with XRLM_OUTPUT_DIR=$1"; }
	ran=$(sed -n 's/^run .*frames_run=\([0-9]*\).*/\1/p' "$W/app.log")
	[ "${ran:-0}" -eq 50 ] || fail "the app ran ${ran:-no} frames, not 50"
}

# refused DIR PATTERN: nothing written in the private directory, one line
# per side on stderr naming the cause; the session recorded in nobody's
# default directory instead.
refused() {
	run_nobody "$1"
	[ -z "$(ls -A "$PRIVATE")" ] || fail "written through a link into the private directory: $(ls -A "$PRIVATE")"
	for side in pre post; do
		one_line "$W/app.log" "xrlm $side: output directory $1 cannot be used: .*$2.*; using the default"
	done
	ls "$NSTATE"/xr-layer-monitor/frames-merged-*.csv >/dev/null 2>&1 ||
		fail "nothing recorded in the default directory after $1 was refused"
	rm -rf "${NSTATE:?}"/xr-layer-monitor
	note "refused $1: $(sed -n 's/^xrlm pre: output directory [^:]*: //p' "$W/app.log")"
}

protect_off=0
if OLD_PROTECT=$(cat "$SYSCTL" 2>/dev/null) && echo 0 >"$SYSCTL" 2>/dev/null; then
	protect_off=1
else
	OLD_PROTECT=
	note "cannot set fs.protected_symlinks (read-only /proc/sys?): the cases the kernel would refuse on its own are left out"
fi

# planted_links DIR: in DIR (writable by daemon), the output directory
# itself is another user's link to nobody's private directory; then
# directories would be created through another user's link.
planted_links() {
	as_daemon ln -s "$PRIVATE" "$1/out"
	refused "$1/out" "is a symbolic link"
	as_daemon ln -s "$PRIVATE" "$1/lnk"
	refused "$1/lnk/a/b" "is a symbolic link owned by another user"
}
[ $protect_off -eq 0 ] || planted_links "$SHARED"
# daemon's own directory, which nobody may enter but not write in.
mkdir -m 755 "$T/daemons" && chown daemon:daemon "$T/daemons"
planted_links "$T/daemons"
# nobody's own link as the output directory: still not followed.
as_nobody ln -s "$PRIVATE" "$SHARED/mine"
refused "$SHARED/mine" "is a symbolic link"
# nobody's own link to daemon's (in daemon's own directory, where the
# kernel follows any link): the chain is walked, daemon's link refused.
as_nobody ln -s "$T/daemons/lnk" "$SHARED/chain"
refused "$SHARED/chain/a" "$SHARED/chain -> $T/daemons/lnk is a symbolic link owned by another user"
# A directory another user made (and can empty or swap at will).
as_daemon mkdir -m 777 "$SHARED/taken"
run_nobody "$SHARED/taken"
[ -z "$(ls -A "$SHARED/taken")" ] || fail "files were written into another user's directory"
for side in pre post; do
	one_line "$W/app.log" "xrlm $side: output directory $SHARED/taken cannot be used: .*owned by another user"
done

# nobody's own directory that others may write in (sticky, as /tmp is for
# root): daemon plants a FIFO as pre's log (opening it would block the app
# for ever) and a file of its own as post's. Neither is used, one line per
# side says why, and the session is recorded there all the same.
as_nobody mkdir -m 1777 "$SHARED/open"
as_daemon mkfifo -m 666 "$SHARED/open/xrlm-pre.log"
as_daemon sh -c 'echo daemon >"$1" && chmod 666 "$1"' sh "$SHARED/open/xrlm-post.log"
run_nobody "$SHARED/open"
[ "$(cat "$SHARED/open/xrlm-post.log")" = daemon ] || fail "lines were written into daemon's file"
one_line "$W/app.log" "xrlm pre: log file in $SHARED/open cannot be used: xrlm-pre.log: not a regular file"
one_line "$W/app.log" "xrlm post: log file in $SHARED/open cannot be used: xrlm-post.log: owned by another user"
ls "$SHARED/open"/frames-merged-*.csv >/dev/null 2>&1 || fail "nothing recorded beside the planted logs"
# With no log file, every line of the side goes to stderr, not only the loud ones.
for side in pre post; do
	grep -q "^xrlm $side: session [^ ]*: recording to $SHARED/open/frames-" "$W/app.log" ||
		fail "$side's log was refused, and its lines did not go to stderr: $(cat "$W/app.log")"
done
# A log refused is no log that failed: not said as a write error (whose
# rule then keeps all but the first line of each kind off stderr).
! grep -q "cannot write xrlm-" "$W/app.log" || fail "a refused log was said to fail: $(cat "$W/app.log")"

# What is nobody's own works: a new directory, and one behind nobody's own
# link (not the last component), whose resolved path the log names.
as_nobody mkdir "$SHARED/home"
as_nobody ln -s "$SHARED/home" "$SHARED/homelink"
run_nobody "$SHARED/homelink/new/out"
OUT=$SHARED/home/new/out
[ "$(stat -c %U "$OUT")" = nobody ] || fail "$OUT was not created by nobody"
ls "$OUT"/frames-merged-*.csv >/dev/null 2>&1 || fail "nothing recorded in nobody's own directory: $(cat "$W/app.log")"
grep -q "output directory $SHARED/homelink/new/out resolves to $OUT" "$OUT/xrlm-pre.log" ||
	fail "the log does not name the resolved path"
! grep -q "cannot be used" "$W/app.log" || fail "a usable directory was refused"
# A chain of nobody's own links, the second one relative: followed too.
as_nobody ln -s home "$SHARED/rel"
as_nobody ln -s "$SHARED/rel" "$SHARED/chain2"
run_nobody "$SHARED/chain2/new2"
ls "$SHARED/home/new2"/frames-merged-*.csv >/dev/null 2>&1 ||
	fail "nothing recorded through nobody's own chain of links: $(cat "$W/app.log")"
! grep -q "cannot be used" "$W/app.log" || fail "nobody's own chain of links was refused"
# A link root owns (as the system's own are) is followed too.
ln -s "$SHARED/home" "$SHARED/rootlink"
run_nobody "$SHARED/rootlink/new3"
ls "$SHARED/home/new3"/frames-merged-*.csv >/dev/null 2>&1 ||
	fail "nothing recorded through root's link: $(cat "$W/app.log")"
! grep -q "cannot be used" "$W/app.log" || fail "root's link was refused"
note "nobody's own directory used; planted links and directories refused"

# xrlm-run (run by nobody) follows the layers' rule before it makes the
# output directory: a path through another user's link is refused (exit
# 2, one line, nothing created through the link), one through nobody's
# own link is recorded through.
mkdir -p "$T/share/xr-layer-monitor"
cp "$XRLM_TEST_MANIFESTS/../share/xr-layer-monitor/xrlm-limits.sh" "$T/share/xr-layer-monitor/"
cp "$(dirname "$0")/../../scripts/xrlm-run" "$XRLM_TEST_XRLM" "$T/bin/"
chmod -R a+rX "$T/bin" "$T/share"
run_wrapped() { # run_wrapped OUT: xrlm-run as nobody (PATH=$wrap_path), its status in $rc
	rc=0
	PATH=$wrap_path XRLM_MANIFEST_DIR=$T/layers TMPDIR=$T/shared timeout 120 \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/bin/xrlm-run" \
		--target XR_APILAYER_XRLM_test_target --frames 20 --out "$1" -- \
		"$T/bin/app" --graphics headless --frames 50 >"$W/run.log" 2>&1 || rc=$?
}
wrap_path=$PATH
run_wrapped "$T/daemons/lnk/x/y"
[ "$rc" -eq 2 ] || { cat "$W/run.log" >&2; fail "xrlm-run through daemon's link exited $rc, not 2"; }
one_line "$W/run.log" "^xrlm-run: the output directory $T/daemons/lnk/x/y goes through $T/daemons/lnk, a symbolic link owned by another user (uid [0-9]*): not followed"
[ -z "$(ls -A "$PRIVATE")" ] || fail "xrlm-run created through daemon's link: $(ls -A "$PRIVATE")"
# nobody's own link to daemon's: the path leads through daemon's all the
# same (a check of the links named in the path alone let it through).
as_nobody ln -s "$T/daemons/lnk" "$SHARED/via"
run_wrapped "$SHARED/via/x/y"
[ "$rc" -eq 2 ] || { cat "$W/run.log" >&2; fail "xrlm-run through nobody's link to daemon's exited $rc, not 2"; }
one_line "$W/run.log" "^xrlm-run: the output directory $SHARED/via/x/y goes through $T/daemons/lnk, a symbolic link owned by another user (uid [0-9]*): not followed"
[ -z "$(ls -A "$PRIVATE")" ] || fail "xrlm-run created through daemon's link behind nobody's: $(ls -A "$PRIVATE")"
# A link whose owner cannot be read (stat missing or failing) is refused,
# not followed unchecked.
mkdir "$T/nostat"
printf '#!/bin/sh\nexit 127\n' >"$T/nostat/stat"
chmod -R a+rx "$T/nostat"
wrap_path=$T/nostat:$PATH
run_wrapped "$T/daemons/lnk/x/y"
wrap_path=$PATH
[ "$rc" -eq 2 ] || { cat "$W/run.log" >&2; fail "xrlm-run without stat exited $rc, not 2"; }
one_line "$W/run.log" "^xrlm-run: the output directory $T/daemons/lnk/x/y goes through $T/daemons/lnk, a symbolic link whose owner cannot be read"
[ -z "$(ls -A "$PRIVATE")" ] || fail "xrlm-run without stat created through daemon's link: $(ls -A "$PRIVATE")"
run_wrapped "$SHARED/homelink/wrapped"
[ "$rc" -eq 0 ] || { cat "$W/run.log" >&2; fail "xrlm-run through nobody's own link exited $rc"; }
ls "$SHARED/home/wrapped"/frames-merged-*.csv >/dev/null 2>&1 ||
	fail "xrlm-run recorded nothing through nobody's own link: $(cat "$W/run.log")"
note "xrlm-run: another user's link refused, also behind nobody's own and without stat; nobody's own followed"
