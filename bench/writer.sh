#!/bin/sh
# Item 6: the writers keep up. The test app (headless) at 1000 frames per
# second for SECONDS s through pre:target:post, recording from the first
# frame; the merged CSV's dropped_queue_full_pre/post must be 0.
#
#   BUILD=... WORK=... bench/writer.sh SECONDS
set -eu
. "$(dirname "$0")/lib.sh"
secs=${1:-60}

with_config rect env XRTEST_FRAME_RATE=1000 "$APP" --graphics headless \
	--frames $((secs * 1000)) >/dev/null 2>&1 || true
csv=$(merged_csv)
key() { sed -n "s/^# $1=//p" "$csv" | head -n 1; }
if [ -z "$csv" ]; then
	row "6 writer keeps up at 1000 Hz for $secs s" "no merged CSV" "dropped = 0" "—" "run failed"
	exit 0
fi
row "6 writer keeps up at 1000 Hz for $secs s: dropped_queue_full pre / post" \
	"$(key dropped_queue_full_pre) / $(key dropped_queue_full_post) of $(key frame_count) frames" \
	"0 / 0" "— (queue of ~256)" "frame rate $(key frame_rate_hz) Hz"
