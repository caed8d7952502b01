#!/bin/sh
# Two OpenXR loaders in one process create their instances at the same
# moment, 20 rounds (rel_two_loaders.c): no crash or hang, every instance
# runs its frames, and each round has exactly one monitored session, whose
# files are complete and merged (the layers, loaded once, monitor one
# instance at a time and pass the other through).
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
ROUNDS=20
loader=$(ldconfig -p | sed -n 's/^[[:space:]]*libopenxr_loader\.so\.1 (.*) => //p' | head -n 1)
[ -f "$loader" ] || fail "libopenxr_loader.so.1 not found by ldconfig"
# The copy answers to another soname (same length), or dlopen would
# return the first one again.
python3 - "$loader" "$XRLM_TEST_WORK/libopenxr_loadeX.so.1" <<'PY' || fail "cannot make the loader's copy"
import sys
data = open(sys.argv[1], 'rb').read()
old, new = b'libopenxr_loader.so.1\0', b'libopenxr_loadeX.so.1\0'
if data.count(old) < 1:
    sys.exit('no soname in ' + sys.argv[1])
open(sys.argv[2], 'wb').write(data.replace(old, new))
PY
timeout 300 "$XRLM_TEST_TWO_LOADERS" "$loader" "$XRLM_TEST_WORK/libopenxr_loadeX.so.1" $ROUNDS 30 \
	>"$XRLM_TEST_WORK/app.log" 2>&1 || { tail -n 20 "$XRLM_TEST_WORK/app.log" >&2; fail "rel_two_loaders failed (status $?)"; }
[ "$(grep -c '^round .* A=ok B=ok$' "$XRLM_TEST_WORK/app.log")" -eq $ROUNDS ] || fail "not every round ran"
n=$(check_all_sessions)
[ "$n" -eq $ROUNDS ] || fail "$n monitored sessions in $ROUNDS rounds, want one a round"
note "$ROUNDS rounds of two loaders creating instances at once: one monitored session each, all consistent"
