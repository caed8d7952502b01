#!/bin/sh
# Bad input never stops the application: an unusable output directory and
# malformed settings each get a clear line and a safe default (the default
# directory is recorded in), and the app runs all frames with exit status 0.
# Control bytes in a value or a path are shown escaped: one line each.
. "$(dirname "$0")/lib.sh"
export XRTEST_FRAME_RATE=0

setup
echo "not a directory" >"$XRLM_TEST_WORK/file"
export XRLM_RECORD=1 XRLM_OUTPUT_DIR=$XRLM_TEST_WORK/file/sub
# Traced: each stderr line of pre and post must be one write(2), so that
# lines of the two sides and the app never interleave.
strace -f -qq -s 4096 -e trace=write -o "$XRLM_TEST_WORK/writes" \
	"$XRLM_TEST_APP" --graphics headless --frames 100 >"$XRLM_TEST_WORK/app.log" 2>&1 ||
	fail "the app exited non-zero: $(cat "$XRLM_TEST_WORK/app.log")"
for side in pre post; do
	line="xrlm $side: output directory $XRLM_OUTPUT_DIR cannot be used: .*; using the default,"
	grep -q "$line $XDG_STATE_HOME/xr-layer-monitor\$" "$XRLM_TEST_WORK/app.log" ||
		fail "no $side line about the unusable directory: $(cat "$XRLM_TEST_WORK/app.log")"
done
# As any bad setting: the default is used (README, Output directory).
ls "$XDG_STATE_HOME"/xr-layer-monitor/frames-merged-*.csv >/dev/null 2>&1 ||
	fail "nothing recorded in the default directory"
# The default directory the layers made is private (0700), the one on the
# way to it not (0755), less the umask. The /tmp fallback is made alike.
mode=$(stat -c %a "$XDG_STATE_HOME/xr-layer-monitor")
[ "$mode" = "$(printf %o $((0700 & ~$(umask))))" ] || fail "the default directory was made $mode, not 0700"
mode=$(stat -c %a "$XDG_STATE_HOME")
[ "$mode" = "$(printf %o $((0755 & ~$(umask))))" ] || fail "$XDG_STATE_HOME was made $mode, not 0755"
grep 'write(2, "xrlm ' "$XRLM_TEST_WORK/writes" >"$XRLM_TEST_WORK/xrlm_writes" || fail "no traced stderr line"
# strace -f prints a write another thread's call interrupted as
# "... <unfinished ...>"; its buffer is shown whole all the same.
if grep -v -E '\\n", [0-9]+(\) = [0-9]+| <unfinished \.\.\.>)$' "$XRLM_TEST_WORK/xrlm_writes"; then
	fail "a layer line reached stderr in more than one write"
fi

setup
export XRLM_RECORD=banana XRLM_RECORD_FRAMES=-5 XRLM_RECORD_S=abc XRLM_RECORD_DELAY_S=1e999 \
	XRLM_SIGNAL=KILL
run_app --graphics headless --frames 50
for v in XRLM_RECORD= XRLM_RECORD_FRAMES= XRLM_RECORD_S= XRLM_RECORD_DELAY_S= XRLM_SIGNAL=; do
	grep -q "setting ignored: $v" "$OUT/xrlm-pre.log" || fail "no log line for bad $v"
done
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "recorded although XRLM_RECORD was invalid (default off)"
# A default is said in words, not as the number that stands for "unset".
for v in XRLM_RECORD_FRAMES XRLM_RECORD_S XRLM_RECORD_DELAY_S; do
	grep "setting ignored: $v=" "$OUT/xrlm-pre.log" | grep -q "using the default: unset (no " ||
		fail "the line for bad $v does not say what its default means: $(grep "$v=" "$OUT/xrlm-pre.log")"
done
# A negative number is called negative, not "not a number".
grep -q 'setting ignored: XRLM_RECORD_FRAMES="-5" is negative' "$OUT/xrlm-pre.log" ||
	fail "-5 is not called negative: $(grep "XRLM_RECORD_FRAMES=" "$OUT/xrlm-pre.log")"

# A runtime whose name fills all of runtimeName, with no NUL: the layers
# read no byte past the array (the structure's last member, on pre's and
# post's stacks; an ASan build, XRLM_SANITIZE=address, fails on a read
# past it), log the name cut at its 128 bytes, and record as usual.
setup
export XRLM_RECORD=1 XRTEST_RUNTIME_NAME_FULL=1
run_app --graphics headless --frames 50
name=$(printf 'R%.0s' $(seq 128))
for side in pre post; do
	grep -q "runtime \"$name\" 0\.1\.0;" "$OUT/xrlm-$side.log" ||
		fail "$side does not log the runtime's full-length name: $(grep 'instance:' "$OUT/xrlm-$side.log")"
done
[ -n "$(merged_files)" ] || fail "nothing recorded with a full-length runtime name"

# Control bytes in the settings reach neither the terminal nor the log
# raw: every message shows the value with C escapes (as xrlm shows file
# names), so that it stays one line and cannot forge one.
setup
esc=$(printf '\033')
nl='
'
echo "a file" >"$XRLM_TEST_WORK/afile"
export XRLM_OUTPUT_DIR="$XRLM_TEST_WORK/afile/$esc[2J$esc[31mevil${nl}xrlm pre: fake"
export XRLM_RECORD="1${nl}2026-01-01 fake line" XRLM_RECORD_FRAMES="5${esc}[31m" \
	XRLM_GPU_MODE="off${nl}gpu" XRLM_SIGNAL="USR1${nl}sig" XRLM_TRACE="csv${nl}tr" \
	XRLM_CONTROL="on${esc}]0;title" XRLM_FUNCTIONS="xrPollEvent,xrFoo${nl}fn\\x" \
	XDG_RUNTIME_DIR="$XRLM_TEST_WORK/no${esc}[1Arun"
run_app --graphics headless --frames 20
logs="$XRLM_TEST_WORK/app.log $XDG_STATE_HOME/xr-layer-monitor/xrlm-pre.log $XDG_STATE_HOME/xr-layer-monitor/xrlm-post.log"
for f in $logs; do
	[ -s "$f" ] || fail "no $f"
	! grep -q "$esc" "$f" || fail "an ESC byte reached $f: $(grep "$esc" "$f" | od -c | head)"
	! grep -q -E '^(xrlm pre: fake|2026-01-01 fake|gpu|sig|tr|fn)' "$f" ||
		fail "a value's line end split a message in $f: $(cat "$f")"
done
grep -q -F "xrlm pre: output directory $XRLM_TEST_WORK/afile/\\033[2J\\033[31mevil\\nxrlm pre: fake cannot be used" \
	"$XRLM_TEST_WORK/app.log" || fail "the output directory is not shown escaped: $(cat "$XRLM_TEST_WORK/app.log")"
for side in pre post; do
	log=$XDG_STATE_HOME/xr-layer-monitor/xrlm-$side.log
	for shown in 'XRLM_RECORD="1\n2026-01-01 fake line" is not 0 or 1' \
		'XRLM_RECORD_FRAMES="5\033[31m" is not' 'XRLM_GPU_MODE="off\ngpu" is not' \
		'XRLM_SIGNAL="USR1\nsig" is not' 'XRLM_TRACE="csv\ntr" is not' \
		'XRLM_CONTROL="on\033]0;title" is not' '"xrFoo\nfn\\x"'; do
		grep -q -F "setting ignored: " "$log" && grep -F "setting ignored" "$log" | grep -q -F "$shown" ||
			fail "$side: no one-line message showing $shown: $(cat "$log")"
	done
done
grep -q -F "control socket: XDG_RUNTIME_DIR $XRLM_TEST_WORK/no\\033[1Arun" \
	"$XDG_STATE_HOME/xr-layer-monitor/xrlm-pre.log" ||
	fail "XDG_RUNTIME_DIR is not shown escaped: $(grep 'control socket' "$XDG_STATE_HOME/xr-layer-monitor/xrlm-pre.log")"

# An application (and a layer chain) whose names hold control bytes: the
# instance line shows them escaped, on one line.
setup
export XRLM_RECORD=1 XRLM_RECORD_FRAMES=5 XRTEST_APP_NAME="app$esc[31m${nl}xrlm pre: fake"
run_app --graphics headless --frames 10
for side in pre post; do
	log=$OUT/xrlm-$side.log
	! grep -q "$esc" "$log" || fail "an ESC byte reached $log"
	! grep -q '^xrlm pre: fake' "$log" || fail "the app's name split a line of $log: $(cat "$log")"
	grep -q -F 'instance: app "app\033[31m\nxrlm pre: fake" 1,' "$log" ||
		fail "$side: the application's name is not shown escaped: $(grep 'instance:' "$log")"
done
unset XRTEST_APP_NAME

# A usable directory so named: the files go there, named as always, and
# the lines naming it (start, the sessions' files, the merge) escape it.
setup
OUT="$XRLM_TEST_WORK/out$esc[31m${nl}x"
export XRLM_OUTPUT_DIR="$OUT" XRLM_RECORD=1 XRLM_RECORD_FRAMES=10
run_app --graphics headless --frames 30
[ -n "$(merged_files)" ] || fail "nothing merged in a directory named with control bytes"
shown="$XRLM_TEST_WORK/out\\033[31m\\nx"
for side in pre post; do
	log=$OUT/xrlm-$side.log
	! grep -q "$esc" "$log" || fail "an ESC byte reached $log"
	! grep -q '^x' "$log" || fail "the directory's line end split a line of $log: $(cat "$log")"
	grep -q -F "output directory: $shown" "$log" && grep -q -F "recording to $shown/frames-" "$log" ||
		fail "$side: the directory is not shown escaped: $(cat "$log")"
done
grep -q -F "merged into $shown/frames-merged-" "$OUT/xrlm-post.log" ||
	fail "the merged file is not shown escaped: $(cat "$OUT/xrlm-post.log")"

note "bad settings logged (control bytes escaped), defaults used, app unaffected"
