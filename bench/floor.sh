#!/bin/sh
# The monitor's own floor end to end: the test app (its full per-frame
# calls: actions, spaces, views, swapchain, events) through pre:post with
# nothing between them, so the truth of every target column is 0; every
# function recorded, the headless test runtime. Paced at 90 Hz (the frame
# thread sleeps in xrWaitFrame, as a real app's does, and its caches cool)
# and unpaced. Per run: the median, over its frames after the first 100,
# of target_us and of each phase column (µs); RUNS runs of each.
#
#   BUILD=... WORK=... bench/floor.sh [RUNS]     (FLOOR_FRAMES, default 1000)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-3}
frames=${FLOOR_FRAMES:-1000}
cols="target_us target_wait_us target_begin_us target_end_us target_locate_views_us
target_sync_actions_us target_swapchain_us target_other_us target_total_us"

# The median of the numbers on stdin, or "-".
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { printf "-"; exit }
		printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Column $1's values in merged file $2, its first 100 rows left out.
column() {
	awk -F, -v name="$1" '
		h && $c != "" { print $c }
		/^display_time,/ { for (i = 1; i <= NF; i++) if ($i == name) c = i; h = 1 }
	' "$2" | tail -n +101
}

echo "The monitor's own floor end to end (bench/floor.sh: nothing between pre and post, truth 0; medians in µs):"
for rate in 90 0; do
	r=1
	while [ "$r" -le "$runs" ]; do
		XRTEST_FRAME_RATE=$rate with_config rec "$APP" --frames "$frames" --graphics headless \
			>"$WORK/floor-app.log" 2>&1 || { cat "$WORK/floor-app.log" >&2; exit 1; }
		m=$(merged_csv)
		[ -n "$m" ] || { echo "floor: no merged file" >&2; exit 1; }
		line="rate=$rate run=$r frames=$(grep -c '^[0-9]' "$m")"
		for col in $cols; do
			line="$line $col=$(column "$col" "$m" | median)"
		done
		echo "$line"
		r=$((r + 1))
	done
done
