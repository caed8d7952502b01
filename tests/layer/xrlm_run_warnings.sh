#!/bin/sh
# xrlm-run prints, after the summary, the warnings the layers logged during
# this run (bad settings, chain problems), once each, and nothing else from
# the logs: neither the init metadata, nor an earlier run's warnings, nor
# the routine lines of a clean run.
. "$(dirname "$0")/lib.sh"
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM XRTEST_FRAME_RATE=0
log=$XRLM_TEST_WORK/run.log
xrlm_run() {
	"$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$OUT" -- \
		"$XRLM_TEST_APP" --graphics headless --frames 30 >"$log" 2>&1 ||
		fail "xrlm-run failed: $(cat "$log")"
}
# The warnings block: the lines after xrlm-run's heading.
warnings() {
	sed -n '/^xrlm-run: the layers warned/,$p' "$log" | tail -n +2
}

# An earlier run's warning stays in the log file, not in the next output.
XRLM_SIGNAL=early xrlm_run
warnings | grep -q 'XRLM_SIGNAL="early"' || fail "the first run's bad XRLM_SIGNAL was not shown: $(cat "$log")"

XRLM_GPU_MODE=banana XRLM_SIGNAL=bogus xrlm_run
cat "$log"
grep -q "^merged CSV: " "$log" || fail "no summary"
[ "$(sed -n '/^merged CSV: /=' "$log")" -lt "$(sed -n '/^xrlm-run: the layers warned/=' "$log")" ] ||
	fail "the warnings are not after the summary"
for v in XRLM_GPU_MODE XRLM_SIGNAL; do
	n=$(warnings | grep -c "$v=" || true)
	# Both sides read the settings: the same message once per side at most.
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] || fail "the bad $v was shown $n times"
done
warnings | grep -q '"early"' && fail "an earlier run's warning was shown again"
warnings | grep -Eq 'instance:|clock:|recording to|merged into|target layer:' &&
	fail "init metadata shown as warnings: $(warnings)"

# A TMPDIR it cannot use: the run goes on in /tmp, said once (not mktemp's
# own line beside a refusal), with the warnings.
rm -rf "$XRLM_TEST_WORK/tmpdir-out"
XRLM_GPU_MODE=banana TMPDIR=$XRLM_TEST_WORK/no-such-dir "$XRLM_TEST_RUN" --target "$TARGET" \
	--frames 20 --out "$XRLM_TEST_WORK/tmpdir-out" -- "$XRLM_TEST_APP" --graphics headless \
	--frames 30 >"$log" 2>&1 || fail "xrlm-run with an unusable TMPDIR failed: $(cat "$log")"
[ "$(grep -c "TMPDIR" "$log")" -eq 1 ] &&
	grep -q "^xrlm-run: warning: cannot create a temporary directory in TMPDIR=$XRLM_TEST_WORK/no-such-dir; using /tmp$" "$log" ||
	fail "an unusable TMPDIR is not said once: $(cat "$log")"
! grep -q "mktemp" "$log" || fail "mktemp's own message shown: $(cat "$log")"
grep -q "^merged CSV: $XRLM_TEST_WORK/tmpdir-out/" "$log" || fail "no summary with an unusable TMPDIR: $(cat "$log")"
warnings | grep -q "XRLM_GPU_MODE=" || fail "no warnings with an unusable TMPDIR: $(cat "$log")"

# An output directory whose name holds a line end (and a space, a tab
# and a backslash): its logs are read as those of any other, the warnings
# shown, the heading naming the directory escaped.
odd="$XRLM_TEST_WORK/odd
 name	\x"
shown_odd="$XRLM_TEST_WORK/odd\n name\t\\\\x"
XRLM_GPU_MODE=banana "$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$odd" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 30 >"$log" 2>&1 ||
	fail "xrlm-run with a line end in --out failed: $(cat "$log")"
[ -f "$odd/xrlm-pre.log" ] || fail "the layers logged elsewhere than $odd: $(cat "$log")"
grep -Fq "merged CSV: $shown_odd/frames-merged-" "$log" ||
	fail "no summary with a line end in --out: $(cat "$log")"
warnings | grep -q "XRLM_GPU_MODE=" || fail "no warnings with a line end in --out: $(cat "$log")"
grep -Fq "xrlm-run: the layers warned (logs: $shown_odd/xrlm-pre.log" "$log" ||
	fail "the heading does not name the directory: $(cat "$log")"

# A clean run shows no warnings block, whatever the graphics: the layers'
# routine lines (no GPU binding, the OpenGL queries made and frames
# stamped, the Vulkan device's) are not warnings. Paced at 90 Hz: unpaced
# on a loaded machine, a GPU sample can find every slot busy, which is a
# warning worth showing.
for graphics in headless egl vulkan2; do
	XRTEST_FRAME_RATE=90 "$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$OUT" -- \
		"$XRLM_TEST_APP" --graphics $graphics --frames 30 >"$log" 2>&1 ||
		fail "xrlm-run failed ($graphics): $(cat "$log")"
	grep -q "^merged CSV: " "$log" || fail "no summary ($graphics): $(cat "$log")"
	! grep -q "^xrlm-run: the layers warned" "$log" ||
		fail "a clean $graphics run showed warnings: $(warnings)"
done

# A chain problem: pre disabled (a pass-through), so post is alone and
# records nothing; what post says about it is shown.
set +e
DISABLE_XR_APILAYER_XRLM_monitor_pre=1 "$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$OUT" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 30 >"$log" 2>&1
set -e
cat "$log"
warnings | grep -q "^    post: " || fail "the chain problem was not shown: $(cat "$log")"
note "the layers' warnings of this run, and only those, follow the summary"
