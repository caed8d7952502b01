#!/bin/sh
# scripts/xrlm-run puts pre, the target and post in order, records N frames,
# prints the summary and the merged CSV's path, and passes the exit status through.
. "$(dirname "$0")/lib.sh"
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM XRTEST_FRAME_RATE=0 XRTEST_TARGET_CPU_US=100

"$XRLM_TEST_RUN" --target "$TARGET" --frames 120 --out "$OUT" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 200 >"$XRLM_TEST_WORK/run.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/run.log")"
cat "$XRLM_TEST_WORK/run.log"
path=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/run.log")
[ -f "$path" ] || fail "xrlm-run did not print an existing merged CSV path"
[ "$(header_value "$path" frame_count)" -eq 120 ] || fail "expected 120 frames in $path"
grep -q "target_cpu_us" "$XRLM_TEST_WORK/run.log" || fail "no summary table printed"

set +e
"$XRLM_TEST_RUN" --target "$TARGET" --out "$OUT" -- "$XRLM_TEST_APP" --frames banana \
	>"$XRLM_TEST_WORK/bad.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "exit status $status was not passed through (expected 2)"

set +e
"$XRLM_TEST_RUN" --target NO_SUCH_LAYER -- true >"$XRLM_TEST_WORK/bad.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] && grep -q "no manifest for layer" "$XRLM_TEST_WORK/bad.log" ||
	fail "an unknown target was not refused clearly"
# A merge the application's exit cut short (its temporary file left, by a
# process now gone, and no merged file): xrlm-run recovers the session with
# xrlm merge and removes the temporary files (the merged file's and the
# functions file's).
OUT2=$XRLM_TEST_WORK/cut
mkdir -p "$OUT2"
cat >"$XRLM_TEST_WORK/cut.sh" <<CUT
#!/bin/sh
"$XRLM_TEST_APP" --graphics headless --frames 50 || exit \$?
for m in "$OUT2"/frames-merged-*.csv; do
	tag=\${m##*/frames-merged-}
	tag=\${tag%.csv}
	rm -f "\$m" "$OUT2/functions-merged-\$tag.csv"
	dead=\$(sh -c 'echo \$\$')
	echo partial >"$OUT2/.frames-merged-\$tag.csv.tmp-\$dead-1"
	echo partial >"$OUT2/.functions-merged-\$tag.csv.tmp-\$dead-1"
done
CUT
chmod +x "$XRLM_TEST_WORK/cut.sh"
"$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$OUT2" -- "$XRLM_TEST_WORK/cut.sh" \
	>"$XRLM_TEST_WORK/cut.log" 2>&1 || fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/cut.log")"
grep -q "recovering it with xrlm merge" "$XRLM_TEST_WORK/cut.log" || fail "no recovery: $(cat "$XRLM_TEST_WORK/cut.log")"
ls "$OUT2"/frames-merged-*.csv >/dev/null 2>&1 || fail "the session was not merged again"
[ -z "$(ls -A "$OUT2" | grep tmp)" ] || fail "the cut merge's temporary files were left: $(ls -A "$OUT2")"
note "xrlm-run prints the summary and path and passes the status through; a cut merge is recovered"

# --out through the user's own link (the layers refuse a last component
# that is a link): recorded in the directory it names, whose path is printed.
mkdir -p "$XRLM_TEST_WORK/real"
ln -s "$XRLM_TEST_WORK/real" "$XRLM_TEST_WORK/link"
"$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$XRLM_TEST_WORK/link" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 40 >"$XRLM_TEST_WORK/link.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/link.log")"
path=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/link.log")
case $path in "$XRLM_TEST_WORK/real/frames-merged-"*.csv) ;; *)
	fail "--out through a link: merged CSV '$path': $(cat "$XRLM_TEST_WORK/link.log")" ;; esac

# No --out, no XRLM_OUTPUT_DIR: the layers' default directory, where a
# relative XDG_STATE_HOME counts for nothing (XDG base directory spec).
export HOME=$XRLM_TEST_WORK/home
mkdir -p "$HOME" "$XRLM_TEST_WORK/cwd"
(cd "$XRLM_TEST_WORK/cwd" && XDG_STATE_HOME=relstate "$XRLM_TEST_RUN" --target "$TARGET" \
	--frames 20 -- "$XRLM_TEST_APP" --graphics headless --frames 40) >"$XRLM_TEST_WORK/def.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/def.log")"
path=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/def.log")
case $path in "$HOME/.local/state/xr-layer-monitor/frames-merged-"*.csv) ;; *)
	fail "relative XDG_STATE_HOME: merged CSV '$path' (files in cwd: $(ls -A "$XRLM_TEST_WORK/cwd"))" ;; esac
[ -z "$(ls -A "$XRLM_TEST_WORK/cwd")" ] || fail "xrlm-run wrote under the relative XDG_STATE_HOME"

# A relative HOME counts for nothing either: the layers then take the home
# of the password database, and so does xrlm-run (it used to create
# relhome/ under the current directory and find no session). The session
# lands in the real home: its files are removed after.
pw_home=$(getent passwd "$(id -ru)" 2>/dev/null | cut -d: -f6)
case $pw_home in /*) ;; *) pw_home="" ;; esac
[ -z "$pw_home" ] || { [ -d "$pw_home" ] && [ -w "$pw_home" ]; } || pw_home=""
[ -n "$pw_home" ] || note "no writable home in the password database: relative HOME not tried"
if [ -n "$pw_home" ]; then
	pw_dir=$pw_home/.local/state/xr-layer-monitor
	# Which of its directories this run makes, to take them away after.
	made=""
	for d in "$pw_home/.local" "$pw_home/.local/state" "$pw_dir"; do
		[ -d "$d" ] || made="$d${made:+
$made}"
	done
	(cd "$XRLM_TEST_WORK/cwd" && HOME=relhome XDG_STATE_HOME= "$XRLM_TEST_RUN" --target "$TARGET" \
		--frames 20 -- "$XRLM_TEST_APP" --graphics headless --frames 40) >"$XRLM_TEST_WORK/relhome.log" 2>&1 ||
		fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/relhome.log")"
	path=$(sed -n 's/^merged CSV: //p' "$XRLM_TEST_WORK/relhome.log")
	tag=${path##*/frames-merged-}
	tag=${tag%.csv}
	[ -z "$tag" ] || rm -f "$pw_dir"/*"-$tag"*.csv "$pw_dir"/*"-$tag-"*.csv
	if [ -n "$made" ]; then
		rm -f "$pw_dir/xrlm-pre.log" "$pw_dir/xrlm-post.log"
		printf '%s\n' "$made" | while IFS= read -r d; do rmdir "$d" 2>/dev/null || true; done
	fi
	case $path in "$pw_dir/frames-merged-"*.csv) ;; *)
		fail "relative HOME: merged CSV '$path': $(cat "$XRLM_TEST_WORK/relhome.log")" ;; esac
	[ -z "$(ls -A "$XRLM_TEST_WORK/cwd")" ] || fail "xrlm-run wrote under the relative HOME"
fi

# An output directory whose name ends in a newline is used as named, not
# the one without it.
nl='
'
"$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$XRLM_TEST_WORK/nl/x$nl" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 40 >"$XRLM_TEST_WORK/nl.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/nl.log")"
[ ! -e "$XRLM_TEST_WORK/nl/x" ] || fail "recorded in nl/x, not in 'nl/x<newline>'"
ls "$XRLM_TEST_WORK/nl/x$nl"/frames-merged-*.csv >/dev/null 2>&1 || fail "nothing recorded in 'nl/x<newline>'"

# An application that cannot run (here: not a program, run by sh, which
# does not find it): said as such, not as a session missing.
printf '\177ELF garbage\n' >"$XRLM_TEST_WORK/garbage"
chmod +x "$XRLM_TEST_WORK/garbage"
status=0
"$XRLM_TEST_RUN" --target "$TARGET" --out "$OUT" -- "$XRLM_TEST_WORK/garbage" \
	>"$XRLM_TEST_WORK/garbage.log" 2>&1 || status=$?
[ $status -eq 126 ] || [ $status -eq 127 ] || fail "garbage: exit $status: $(cat "$XRLM_TEST_WORK/garbage.log")"
grep -q "nothing was recorded: the application exited with status $status" "$XRLM_TEST_WORK/garbage.log" ||
	fail "garbage: $(cat "$XRLM_TEST_WORK/garbage.log")"
note "relative HOME, a name ending in a newline, an application that cannot run"

# An output directory xrlm-run makes is made as the layers make it: 0700,
# its parents 0755 (it was 0755, the files in it 0644: readable by anyone).
rm -rf "$XRLM_TEST_WORK/fresh"
(umask 022 && "$XRLM_TEST_RUN" --target "$TARGET" --frames 5 --out "$XRLM_TEST_WORK/fresh/a/b" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 20) >"$XRLM_TEST_WORK/fresh.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$XRLM_TEST_WORK/fresh.log")"
[ "$(stat -c %a "$XRLM_TEST_WORK/fresh/a/b")" = 700 ] ||
	fail "the output directory xrlm-run made is $(stat -c %a "$XRLM_TEST_WORK/fresh/a/b"), not 700"
[ "$(stat -c %a "$XRLM_TEST_WORK/fresh/a")" = 755 ] ||
	fail "its parent is $(stat -c %a "$XRLM_TEST_WORK/fresh/a"), not 755"
# An application that never loads the layers, in a directory holding an
# earlier run's logs: those are not this run's, and not pointed at.
status=0
"$XRLM_TEST_RUN" --target "$TARGET" --seconds 1 --out "$XRLM_TEST_WORK/fresh/a/b" -- true \
	>"$XRLM_TEST_WORK/stale.log" 2>&1 || status=$?
[ $status -eq 0 ] || fail "true through xrlm-run: exit $status"
grep -q "the layers wrote no log: were they loaded?" "$XRLM_TEST_WORK/stale.log" ||
	fail "a run that loaded no layer: $(cat "$XRLM_TEST_WORK/stale.log")"
note "a directory xrlm-run makes is 0700; an earlier run's logs are not taken for this one's"
