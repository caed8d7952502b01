#!/bin/sh
# scripts/demo shows the session its own run recorded, and says so when
# the run recorded none: not an earlier run's merged file, even one newer
# by its time stamp. The demo runs in a copy of the tree whose set-up,
# build, xrlm-run and xrlm are stubs (nothing is installed, built or run).
set -eu
. "$(dirname "$0")/lib.sh"
W=$XRLM_TEST_WORK
top=$W/top
out=$top/out/demo
mkdir -p "$top/scripts" "$top/build/merge" "$W/bin" "$out"
cp "$XRLM_TEST_SOURCE/scripts/demo" "$top/scripts/demo"
printf '#!/bin/sh\nexit 0\n' >"$top/scripts/setup-debian"
printf '#!/bin/sh\nexit 0\n' >"$W/bin/cmake"
printf '#!/bin/sh\nexit 0\n' >"$top/build/merge/xrlm"
# xrlm-run: records the session named in $W/session, if any.
cat >"$top/scripts/xrlm-run" <<EOF
#!/bin/sh
[ -s "$W/session" ] || exit 0
touch "$out/frames-merged-\$(cat "$W/session").csv"
EOF
chmod +x "$top/scripts/setup-debian" "$W/bin/cmake" "$top/build/merge/xrlm" "$top/scripts/xrlm-run"

# An earlier run's session, its time stamp in the future.
old=frames-merged-111-20260101T000000
touch -d '+1 hour' "$out/$old.csv"

# demo WHAT: runs the demo; its status in $status, its output in $W/log.
demo() {
	status=0
	PATH="$W/bin:$PATH" timeout 20 sh "$top/scripts/demo" 5 >"$W/log" 2>&1 || status=$?
}

: >"$W/session"
demo
! grep -q "$old" "$W/log" || fail "a run that recorded nothing showed an earlier session: $(cat "$W/log")"
! grep -q "The same session" "$W/log" || fail "a run that recorded nothing showed a session: $(cat "$W/log")"
[ $status -eq 1 ] || fail "a run that recorded nothing exited $status, not 1: $(cat "$W/log")"
grep -q "^demo: this run recorded no session in $out" "$W/log" ||
	fail "a run that recorded nothing did not say so: $(cat "$W/log")"

new=222-20261130T120000
echo "$new" >"$W/session"
demo
[ $status -eq 0 ] || fail "a run that recorded a session exited $status: $(cat "$W/log")"
grep -q "The same session" "$W/log" && grep -q "charts (open in a browser): $out/frames-merged-$new.html" "$W/log" ||
	fail "the run's own session was not shown: $(cat "$W/log")"
! grep -q "$old" "$W/log" || fail "an earlier session was shown: $(cat "$W/log")"
echo "-- scripts/demo shows its own run's session, or says that it recorded none"
