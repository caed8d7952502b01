#!/bin/sh
# A later recording that never starts (its delay never comes) creates no
# file and leaves earlier sessions' files untouched: every one of them,
# frames, calls, GPU and merged files alike.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
run_app --graphics headless --frames 50
# The sessions' files, named and hashed (the logs are appended to: not theirs).
session_files() {
	(cd "$OUT" && ls -1 | grep -E '^(frames|calls|gpu|functions)-' | while read -r f; do
		echo "$f $(md5sum <"$f")"
	done)
}
before=$(session_files)
[ "$(echo "$before" | grep -c '^calls-')" -eq 2 ] || fail "the first session has no calls files: $before"

export XRLM_RECORD_DELAY_S=3600
run_app --graphics headless --frames 50
after=$(session_files)
[ "$before" = "$after" ] || fail "earlier session files changed or new ones appeared: $after"
note "earlier files intact after a recording that never started"
