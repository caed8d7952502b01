#!/bin/sh
# Ctrl+C under xrlm-run loses nothing: the application is started by a
# launcher script (sh -c, not exec, so its pid is not the one xrlm-run
# started), records at 90 Hz, and is stopped by
#   wrapper-int   INT to xrlm-run alone (kill -INT <xrlm-run>)
#   app-int       INT to the application alone
#   wrapper-term  TERM to xrlm-run alone
#   group-int     INT to the whole process group, as a terminal's Ctrl+C does
#   implicit-int  INT to xrlm-run measuring the target as an implicit layer
#                 (its generated manifest's temporary directory goes too)
# Each must end with the session merged (recovered with xrlm merge), its
# summary and path printed, the application gone, the status of the signal,
# and no temporary file left, neither in TMPDIR nor in the output directory.
. "$(dirname "$0")/lib.sh"
how=$1
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM
export XRTEST_FRAME_RATE=90 XRTEST_TARGET_CPU_US=100
export TMPDIR=$XRLM_TEST_WORK/tmp
mkdir -p "$TMPDIR"
log=$XRLM_TEST_WORK/run.log
if [ "$how" = implicit-int ]; then
	: "${XRLM_TEST_IMPLICIT_MANIFESTS:?}"
	dir=$XRLM_TEST_WORK/xdg/openxr/1/api_layers/implicit.d
	mkdir -p "$dir"
	cp "$XRLM_TEST_IMPLICIT_MANIFESTS/absolute/XrApiLayer_xrlm_test_target.json" "$dir/"
	export XDG_CONFIG_DIRS=$XRLM_TEST_WORK/xdg XDG_CONFIG_HOME=$XRLM_TEST_WORK/none
	export XR_API_LAYER_PATH=$SYSTEM_LAYERS
fi

# Its own session (process group), as a shell gives a foreground job, with
# INT and QUIT not ignored (a background job of this script would have them
# ignored).
setsid env --default-signal=INT,QUIT "$XRLM_TEST_RUN" --target "$TARGET" --out "$OUT" -- \
	sh -c '"$@"; status=$?; exit $status' launcher \
	"$XRLM_TEST_APP" --graphics headless --frames 100000 >"$log" 2>&1 &
wrapper=$!
app=""
# Nothing of this test survives it, whatever happens.
trap 'set +e; kill -9 -"$wrapper" $app 2>/dev/null' EXIT
i=0
until [ "$(cut -d' ' -f5 "/proc/$wrapper/stat")" = "$wrapper" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "xrlm-run does not lead its process group"
	sleep 0.02
done

# Wait for the session to have rows on disk (the writers flush every 0.5 s).
i=0
while :; do
	pre=$(ls "$OUT"/frames-*-pre.csv 2>/dev/null | head -n 1)
	[ -n "$pre" ] && [ "$(data_rows "$pre" | wc -l)" -ge 30 ] && break
	i=$((i + 1))
	[ $i -le 300 ] || fail "no rows recorded: $(cat "$log")"
	sleep 0.05
done
app=$(basename "$pre" | sed 's/^frames-\([0-9]*\)-.*/\1/')
[ "$app" != "$wrapper" ] || fail "the application's pid is the wrapper's"
grep -q "launcher" "/proc/$(cut -d' ' -f4 "/proc/$app/stat")/cmdline" ||
	fail "the application was not started by the launcher"

case $how in
implicit-int)
	[ -n "$(ls "$TMPDIR"/*/*.json 2>/dev/null)" ] || fail "no generated manifest in $TMPDIR"
	kill -INT "$wrapper"; want=130 ;;
wrapper-int) kill -INT "$wrapper"; want=130 ;;
app-int) kill -INT "$app"; want=130 ;;
wrapper-term) kill -TERM "$wrapper"; want=143 ;;
group-int) kill -INT -"$wrapper"; want=130 ;;
*) fail "unknown case $how" ;;
esac
note "sent the signal ($how) to a recording application $app under xrlm-run $wrapper"

# True while process $1 exists and is not a zombie (the launcher's children
# go to an ancestor that may be slow to reap them).
alive() {
	[ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# xrlm-run must end by itself; give it 30 s.
i=0
while alive "$wrapper"; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "xrlm-run did not end: $(cat "$log")"
	sleep 0.05
done
set +e
wait "$wrapper"
status=$?
set -e
cat "$log"
! alive "$app" || fail "the application is still running"
[ "$status" -eq "$want" ] || fail "xrlm-run exited $status, not $want"
merged=$(sed -n 's/^merged CSV: //p' "$log")
[ -n "$merged" ] && [ -f "$merged" ] || fail "no merged CSV printed"
case $merged in "$OUT"/frames-merged-"$app"-*.csv) ;; *) fail "the merged CSV $merged is not the application's session" ;; esac
grep -q "^target_cpu_us" "$log" || fail "no summary printed"
n=$(header_value "$merged" frame_count)
[ "$n" -ge 30 ] || fail "only $n frames in $merged"
left=$(ls -A "$TMPDIR"; ls -A "$OUT" | grep -v -e '^frames-' -e '^calls-' -e '^functions-merged-' -e '^xrlm-p[a-z]*\.log$' || true)
[ -z "$left" ] || fail "temporary files left behind: $left"
note "$how: $n frames merged and summarised, status $status, nothing left behind"
