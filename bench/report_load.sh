#!/bin/sh
# How long `xrlm report` and `xrlm compare` take on a 10^6-frame session,
# and how long the report takes to open in a browser.
#
#   bench/report_load.sh [BUILD_DIR] [--frames N] [--runs R]
#
# BUILD_DIR (default build/) holds merge/xrlm and tests/merge/xrlm_gen_merged.
# The session (target CPU and GPU time, frame interval; default 10^6 frames)
# is generated once into a temporary directory. Printed: the wall and CPU
# time of `xrlm report` and of `xrlm compare` (two such sessions), the page's size,
# and over R (default 3) loads in headless chromium from file:// the time
# from navigation start until every chart is drawn (the page's own
# performance.now() at that point), median and range. Target: the page is
# drawn within 10 s on this 2-core machine.
set -eu

build=build
frames=1000000
runs=3
while [ $# -gt 0 ]; do
	case $1 in
	--frames) frames=$2; shift ;;
	--runs) runs=$2; shift ;;
	-*) echo "usage: $0 [BUILD_DIR] [--frames N] [--runs R]" >&2; exit 2 ;;
	*) build=$1 ;;
	esac
	shift
done
xrlm=$build/merge/xrlm
gen=$build/tests/merge/xrlm_gen_merged
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-report-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$gen" "$work/frames-merged-a.csv" --frames "$frames" --seed 1
"$gen" "$work/frames-merged-b.csv" --frames "$frames" --seed 2 --shift-pct 2

# timed WHAT CMD...: wall and CPU seconds of one command (CPU time is what
# counts on a loaded machine; wall time is what a user waits).
timed() {
	what=$1
	shift
	/usr/bin/time -f "$what: %e s wall, %U s user + %S s sys" -o "$work/time" "$@" >/dev/null
	cat "$work/time"
}
timed "xrlm report, $frames frames" "$xrlm" report "$work/frames-merged-a.csv"
echo "page: $(stat -c %s "$work/frames-merged-a.html") bytes"
timed "xrlm compare, 2 x $frames frames, 3 columns" \
	"$xrlm" compare "$work/frames-merged-a.csv" "$work/frames-merged-b.csv"

i=0
: >"$work/ms"
while [ $i -lt "$runs" ]; do
	rm -rf "$work/profile"
	timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
		--screenshot="$work/shot.png" --window-size=1400,1000 \
		"file://$work/frames-merged-a.html" >/dev/null 2>"$work/err" || true
	sed -n 's/.*xrlm report ready: .* \([0-9][0-9]*\) ms".*/\1/p' "$work/err" >>"$work/ms"
	i=$((i + 1))
done
[ "$(wc -l <"$work/ms")" -eq "$runs" ] || { echo "the page did not become ready every time" >&2; exit 1; }
sort -n "$work/ms" | awk -v runs="$runs" '{ v[NR] = $1 } END {
	printf "page drawn after %d ms (median of %d; range %d-%d), target <= 10000 ms: %s\n",
		v[int((NR + 1) / 2)], runs, v[1], v[NR], v[int((NR + 1) / 2)] <= 10000 ? "ok" : "ABOVE" }'
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
