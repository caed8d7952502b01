#!/bin/sh
# A later recording that never sees a frame (never started, or started and
# stopped between two frames) creates no file and leaves earlier sessions'
# files untouched.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
run_app --graphics headless --frames 50
before=$(cd "$OUT" && ls frames-* && cat frames-* | md5sum)

export XRLM_RECORD_DELAY_S=3600
run_app --graphics headless --frames 50
after=$(cd "$OUT" && ls frames-* && cat frames-* | md5sum)
[ "$before" = "$after" ] || fail "earlier session files changed or new ones appeared"
note "earlier files intact after a recording that never started"
