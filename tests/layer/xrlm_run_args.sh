#!/bin/sh
# xrlm-run's command line: --help on stdout with exit 0; every bad command
# line (an application that cannot run, an output directory the layers
# would refuse) is one line on stderr, exit 2, and the application is not started;
# and the wrapper accepts exactly the --frames/--seconds/--delay values the
# layers accept (each value is tried on both: no value the layers would
# ignore gets through, none they take is refused).
. "$(dirname "$0")/lib.sh"
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM XRTEST_FRAME_RATE=0
W=$XRLM_TEST_WORK
marker=$W/app-ran
run() {
	status=0
	"$XRLM_TEST_RUN" "$@" >"$W/out.log" 2>"$W/err.log" || status=$?
}

run --help
[ $status -eq 0 ] && [ ! -s "$W/err.log" ] && grep -q -- "--target LAYER" "$W/out.log" ||
	fail "--help: status $status, stdout '$(head -n 2 "$W/out.log")', stderr '$(cat "$W/err.log")'"

touch "$W/not-executable" "$W/a-file"
printf '#!/no/such/interpreter\n' >"$W/bad-interpreter"
printf '#!/no/such/interpreter' >"$W/bad-interpreter-no-newline"
chmod +x "$W/bad-interpreter" "$W/bad-interpreter-no-newline"
# An output directory the layers would refuse (and record elsewhere): as
# root, one of another user's (root may write to any, read-only mounts aside).
others=""
if mkdir -p "$W/others" && chown nobody "$W/others" 2>/dev/null; then
	others="--target $TARGET --out $W/others -- touch $marker|belongs to another user"
else
	note "not root: the output directory of another user is not tried"
fi
# One bad command line per line: the words, then what the message must say.
while IFS='|' read -r words expect; do
	[ -n "$words" ] || continue
	rm -f "$marker"
	eval "run $words"
	[ $status -eq 2 ] || fail "[$words] exited $status, not 2"
	[ "$(wc -l <"$W/err.log")" -eq 1 ] || fail "[$words] not one line on stderr: $(cat "$W/err.log")"
	grep -q -- "$expect" "$W/err.log" || fail "[$words] said '$(cat "$W/err.log")', not '$expect'"
	[ ! -s "$W/out.log" ] && [ ! -e "$marker" ] || fail "[$words] ran the application"
	note "refused [$words]: $(cat "$W/err.log")"
done <<EOF2
--target $TARGET --out '' -- touch $marker|--out needs a directory
--target $TARGET --out -x -- touch $marker|looks like an option
--target $TARGET --out=--frames -- touch $marker|looks like an option
--target $TARGET --out|--out needs a value
--target -- touch $marker|--target needs a value
--target $TARGET --frames -- touch $marker|--frames needs a value
--target $TARGET --frames 5 --frames 6 -- touch $marker|--frames given twice
--target $TARGET --target $TARGET -- touch $marker|--target given twice
--target $TARGET --delay=1 --delay 2 -- touch $marker|--delay given twice
--target $PRE -- touch $marker|the monitor itself
--target $POST -- touch $marker|the monitor itself
--target $TARGET -- /no/such/app|does not exist
--target $TARGET -- no-such-app-xrlm|not found on PATH
--target $TARGET -- $W|is a directory
--target $TARGET -- $W/not-executable|not executable
--target $TARGET -- $W/bad-interpreter|its interpreter /no/such/interpreter is missing
--target $TARGET -- $W/bad-interpreter-no-newline|its interpreter /no/such/interpreter is missing
$others
--target $TARGET --out $W/a-file -- touch $marker|cannot create the output directory $W/a-file: File exists
--target $TARGET --out $W/a-file/sub -- touch $marker|cannot create the output directory $W/a-file/sub: Not a directory
--target $TARGET --seconds 0 -- touch $marker|out of range
--target $TARGET --seconds 99999999 -- touch $marker|out of range
--target $TARGET --delay 999999999 -- touch $marker|out of range
--target $TARGET --frames 0 -- touch $marker|out of range
--target $TARGET --seconds 1e999 -- touch $marker|out of range
--target $TARGET --seconds 0x10 -- touch $marker|not a number
--target $TARGET --frames 2.5 -- touch $marker|not a whole number
--target $TARGET --frobnicate -- touch $marker|unknown option
--target $TARGET|no application
--frames 5 -- touch $marker|--target LAYER is required
--target 'a b' -- touch $marker|not a layer name
--target "\$(printf 'NOSUCH\\n$TARGET')" -- touch $marker|not a layer name
--target "\$(printf 'a\\033[31mb')" -- touch $marker|--target 'a\\\\033\\[31mb' is not a layer name
EOF2

# File names with control bytes (ESC, a line end, U+009B: a terminal's CSI)
# and a backslash are shown escaped, as xrlm shows them: one line, no
# control byte from the name reaches the terminal.
esc=$(printf '\033')
csi=$(printf '\302\233')
nl='
'
for words in "--out|$W/a-file/${esc}[31mred${nl}fake\\line${csi}2J|cannot create the output directory $W/a-file/\\033[31mred\\nfake\\\\line\\302\\2332J: Not a directory" \
	"app|$W/no-app-${esc}[1m${nl}x|application '$W/no-app-\\033[1m\\nx' does not exist"; do
	kind=${words%%|*} rest=${words#*|}
	name=${rest%%|*} expect=${rest#*|}
	rm -f "$marker"
	if [ "$kind" = --out ]; then
		run --target "$TARGET" --out "$name" -- touch "$marker"
	else
		run --target "$TARGET" -- "$name"
	fi
	[ $status -eq 2 ] && [ ! -e "$marker" ] || fail "[$kind with control bytes] exited $status"
	[ "$(wc -l <"$W/err.log")" -eq 1 ] || fail "[$kind with control bytes] not one line: $(cat -v "$W/err.log")"
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177\200-\237]')" "$W/err.log" ||
		fail "[$kind with control bytes] a control byte reached stderr: $(cat -v "$W/err.log")"
	grep -qF -- "$expect" "$W/err.log" || fail "[$kind with control bytes] said '$(cat -v "$W/err.log")', not '$expect'"
	note "refused [$kind with control bytes]: $(cat "$W/err.log")"
done

rm -f "$marker"
XRLM_TOOL=/no/such/xrlm run --target "$TARGET" -- touch "$marker"
[ $status -eq 2 ] && [ ! -e "$marker" ] && grep -q "XRLM_TOOL='/no/such/xrlm' is not an executable program" "$W/err.log" ||
	fail "XRLM_TOOL=/no/such/xrlm: status $status: $(cat "$W/err.log")"

# The same values through the wrapper and straight to the layers (all three
# variables at once: the layers report each bad one by name).
layer_run() { # VALUE
	rm -f "$OUT"/xrlm-*.log
	env XRLM_RECORD_S="$1" XRLM_RECORD_DELAY_S="$1" XRLM_RECORD_FRAMES="$1" \
		XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST XRLM_OUTPUT_DIR=$OUT \
		XR_API_LAYER_PATH=$XRLM_TEST_MANIFESTS:$XRLM_TEST_TARGET_MANIFESTS \
		"$XRLM_TEST_APP" --graphics headless --frames 2 >"$W/app.log" 2>&1 || fail "the app failed: $(cat "$W/app.log")"
	grep -q "instance:" "$OUT/xrlm-pre.log" || fail "the layers did not run"
}
# The application is checked after the numbers: a missing one makes the
# wrapper stop right after accepting them.
wrapper_accepts() { # OPTION VALUE
	run --target "$TARGET" --out "$OUT" "$1" "$2" -- /no/such/app
	[ $status -eq 2 ] || fail "xrlm-run ran /no/such/app"
	grep -q "does not exist" "$W/err.log"
}
verdict() { [ "$1" -eq 0 ] && echo "accept${2-}" || echo "refuse${2-}"; }
checked=0
for v in 0 -0 0.001 0.0009 .001 1. +5 -1 604800 604800.0001 6.048e5 99999999 1e999 1e-310 \
	'' ' 1' 0x10 inf 1e 281474976710656 281474976710657 \
	+0000000000000000000005 00000000000000000005 000000000000000000005; do
	layer_run "$v"
	for pair in --seconds:XRLM_RECORD_S --delay:XRLM_RECORD_DELAY_S --frames:XRLM_RECORD_FRAMES; do
		opt=${pair%%:*} var=${pair#*:}
		l=0
		! grep -q "$var=" "$OUT/xrlm-pre.log" || l=1
		w=0
		wrapper_accepts "$opt" "$v" || w=1
		[ $l -eq $w ] || fail "$opt '$v': the layers $(verdict $l) it, xrlm-run $(verdict $w s) it ($(cat "$W/err.log"))"
		checked=$((checked + 1))
	done
done
note "xrlm-run and the layers agree on $checked values"

# A relative XRLM_MANIFEST_DIR reaches the loader absolute: an application
# (or its launcher) that changes directory first still loads the monitor.
rel=$(basename "$XRLM_TEST_MANIFESTS")
status=0
(cd "$(dirname "$XRLM_TEST_MANIFESTS")" &&
	XRLM_MANIFEST_DIR=$rel "$XRLM_TEST_RUN" --target "$TARGET" --frames 5 --out "$W/relative" -- \
		sh -c 'cd / && exec "$0" --graphics headless --frames 10' "$XRLM_TEST_APP") \
	>"$W/out.log" 2>"$W/err.log" || status=$?
[ $status -eq 0 ] && grep -q "^merged CSV: $W/relative/frames-merged-" "$W/out.log" ||
	fail "a relative XRLM_MANIFEST_DIR and an application that changes directory: status $status: $(cat "$W/err.log")"
