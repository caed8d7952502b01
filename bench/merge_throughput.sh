#!/bin/sh
# Throughput of `xrlm merge` on synthetic sessions of 10^4..10^7 frames.
#
#   bench/merge_throughput.sh [BUILD_DIR] [--runs N] [--no-gpu] [--calls N] [--sizes "N ..."]
#
# BUILD_DIR (default build/) holds merge/xrlm and tests/merge/xrlm_gen_session.
# Each size is generated once into a temporary directory (removed at the
# end; needs ~1.7 GB free for 10^7 frames with GPU files), then merged N
# times (default 5, -o into the same directory); the median wall time
# (ns clock around /usr/bin/time -v) and peak RSS (from time -v) are printed with frames/s and peak RSS
# per frame, next to the target of 2 million frames/s. --calls N adds calls
# files of N calls per frame (the every-function columns and the functions
# file; the target does not apply to them: the calls files are N times the
# frames files).
set -eu

build=build
runs=5
gpu=""
calls=""
sizes="10000 100000 1000000 10000000"
target=2000000
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift ;;
	--no-gpu) gpu=--no-gpu ;;
	--calls) calls="--calls $2"; shift ;;
	--sizes) sizes=$2; shift ;;
	-*) echo "usage: $0 [BUILD_DIR] [--runs N] [--no-gpu] [--calls N] [--sizes \"N ...\"]" >&2; exit 2 ;;
	*) build=$1 ;;
	esac
	shift
done
xrlm=$build/merge/xrlm
gen=$build/tests/merge/xrlm_gen_session
for f in "$xrlm" "$gen" /usr/bin/time; do
	[ -x "$f" ] || { echo "merge_throughput: missing $f (build first; apt-get install time)" >&2; exit 1; }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

# Median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-10s %10s %14s %12s %12s  %s\n' frames seconds frames/s peak_rss_MB bytes/frame "target >= $target frames/s"
for n in $sizes; do
	# shellcheck disable=SC2086
	"$gen" "$dir" "b$n" "$n" $gpu $calls
	: >"$dir/wall" && : >"$dir/rss"
	i=0
	while [ "$i" -lt "$runs" ]; do
		rm -f "$dir/out.csv" "$dir/out.functions.csv"
		t0=$(date +%s%N)
		/usr/bin/time -v "$xrlm" merge "$dir/frames-b$n-pre.csv" "$dir/frames-b$n-post.csv" \
			-o "$dir/out.csv" >"$dir/stdout" 2>"$dir/time" ||
			{ cat "$dir/time" >&2; exit 1; }
		t1=$(date +%s%N)
		# time -v prints the wall time in 10 ms steps: too coarse for the
		# small sizes, so the wall time is taken around it in ns.
		echo "$t0 $t1" | awk '{ printf "%.6f\n", ($2 - $1) / 1e9 }' >>"$dir/wall"
		sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time" >>"$dir/rss"
		i=$((i + 1))
	done
	frames=$(sed -n 's/^matched frames: //p' "$dir/stdout")
	secs=$(median <"$dir/wall")
	rss_kb=$(median <"$dir/rss")
	awk -v n="$frames" -v s="$secs" -v r="$rss_kb" -v t="$target" 'BEGIN {
		fps = s > 0 ? n / s : 0
		printf "%-10d %10.3f %14.0f %12.1f %12.1f  %s\n", n, s, fps, r / 1024, r * 1024 / n,
		       (fps >= t ? "ok" : "BELOW")
	}'
	rm -f "$dir"/*
done
