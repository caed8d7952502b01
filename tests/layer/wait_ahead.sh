#!/bin/sh
# A frame loop on one thread that waits for frame N + 1 before it ends
# frame N (the test app's --wait-ahead: xrWaitFrame(N+1) between
# xrBeginFrame(N) and xrEndFrame(N), as the runtime allows once
# xrBeginFrame(N) began). In each side's calls file (rows of one thread,
# in t_entry order): the app did wait ahead for most frames; every
# xrEndFrame has the id of the xrBeginFrame before it, not that of the
# xrWaitFrame in between; no two xrEndFrame share an id, and each is the
# one before it + 1.
. "$(dirname "$0")/lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=100
run_app --graphics headless --frames 120 --wait-ahead

for side in pre post; do
	calls=$(ls "$OUT"/calls-*-$side.csv 2>/dev/null) || fail "no $side calls file"
	data_rows "$calls" | awk -F, -v side="$side" '
		function bad(msg) { print side ": line " NR ": " msg ": " $0 > "/dev/stderr"; failed = 1; exit 1 }
		$1 == "xrBeginFrame" { begun = $5; open = 1; waited = 0; next }
		$1 == "xrWaitFrame" { if (open) waited = 1; next }
		$1 == "xrEndFrame" {
			if (!open) next # the frame the recording started in
			if ($5 != begun) bad("xrEndFrame has id " $5 ", its xrBeginFrame " begun)
			if (ends && $5 != last + 1) bad("xrEndFrame id does not follow " last)
			last = $5; ends++; ahead += waited; open = 0
		}
		END {
			if (failed) exit 1
			if (ends < 90 || ahead < 90) { print side ": " ends " xrEndFrame rows, " ahead " waited ahead" > "/dev/stderr"; exit 1 }
		}
	' || fail "$side calls file: see above"
done
note "xrWaitFrame(N+1) before xrEndFrame(N) on one thread: each xrEndFrame in its own frame"
