#!/bin/sh
# xrlm-run removes its temporary directory however a signal ends it, and
# then dies by that signal (status 128 + n): dash runs no EXIT trap when a
# signal kills the shell. Three moments:
#   before   HUP, INT or TERM after the temporary directory is made, before
#            the application starts (xrlm-run is held there by an `id` of
#            the test's, which it runs to check the output directory's path)
#   during   TERM while the application runs (it is passed on to it)
#   pipe     `xrlm-run ... | head -n 1`: the summary written after head
#            has gone (SIGPIPE)
. "$(dirname "$0")/lib.sh"
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM
W=$XRLM_TEST_WORK
export TMPDIR=$W/tmp
mkdir -p "$TMPDIR" "$W/bin"
log=$W/run.log
wrapper=""
trap 'set +e; [ -z "$wrapper" ] || kill -9 "$wrapper" 2>/dev/null' EXIT

# An `id` that, while $W/hold exists, says it was reached and waits 2 s
# before answering: xrlm-run's signal arrives while it is held there.
cat >"$W/bin/id" <<EOF
#!/bin/sh
if [ -e "$W/hold" ]; then
	rm -f "$W/hold"
	touch "$W/held"
	sleep 2
fi
exec /usr/bin/id "\$@"
EOF
chmod +x "$W/bin/id"

# True while process $1 exists and is not a zombie.
alive() {
	[ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# until_file FILE WHAT: waits (10 s at most) for FILE to exist.
until_file() {
	i=0
	until [ -e "$1" ]; do
		i=$((i + 1))
		[ $i -le 200 ] || fail "$2: never happened: $(cat "$log")"
		sleep 0.05
	done
}

# Starts xrlm-run in the background on APP..., INT and QUIT not ignored
# (a background job's would be).
start() {
	rm -f "$W/held" "$W/started"
	env --default-signal=INT,QUIT PATH="$W/bin:$PATH" "$XRLM_TEST_RUN" --target "$TARGET" \
		--out "$OUT" -- "$@" >"$log" 2>&1 &
	wrapper=$!
}

# finish WANT WHAT: xrlm-run $wrapper ended with status WANT and left
# nothing in TMPDIR.
finish() {
	set +e
	wait "$wrapper"
	status=$?
	set -e
	wrapper=""
	[ "$status" -eq "$1" ] || fail "$2: xrlm-run exited $status, not $1: $(cat "$log")"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$2: left $(ls -A "$TMPDIR") in TMPDIR"
	note "$2: status $status, nothing left in TMPDIR"
}

for sig in HUP:129 INT:130 TERM:143; do
	touch "$W/hold"
	start "$XRLM_TEST_APP" --graphics headless --frames 30
	until_file "$W/held" "before, ${sig%:*}: xrlm-run reaching its id"
	[ -n "$(ls -A "$TMPDIR")" ] || fail "before: no temporary directory made yet"
	kill -s "${sig%:*}" "$wrapper"
	finish "${sig#*:}" "before the application, ${sig%:*}"
	grep -q "^merged CSV" "$log" && fail "before, ${sig%:*}: the application ran"
done

start sh -c 'touch "$0"; exec sleep 30' "$W/started"
until_file "$W/started" "during: the application's start"
app=$(pgrep -f "sleep 30" -P "$wrapper" || true)
[ -n "$app" ] || fail "during: the application is not xrlm-run's child"
kill -s TERM "$wrapper"
finish 143 "during the application, TERM"
! alive "$app" || fail "during: the application still runs"

# The application prints a line first; head takes it and goes, and the
# summary after the run meets a closed pipe.
rm -f "$W/status"
{
	status=0
	XRTEST_FRAME_RATE=90 "$XRLM_TEST_RUN" --target "$TARGET" --frames 20 --out "$OUT" -- \
		sh -c 'echo started; exec "$@"' app "$XRLM_TEST_APP" --graphics headless --frames 30 2>"$log" ||
		status=$?
	echo "$status" >"$W/status"
} | head -n 1 >"$W/head.out"
[ "$(cat "$W/head.out")" = started ] || fail "pipe: head read '$(cat "$W/head.out")'"
[ "$(cat "$W/status")" -eq 141 ] || fail "pipe: xrlm-run exited $(cat "$W/status"), not 141 (SIGPIPE): $(cat "$log")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "pipe: left $(ls -A "$TMPDIR") in TMPDIR"
note "| head -n 1: died by SIGPIPE, nothing left in TMPDIR"
