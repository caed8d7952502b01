#!/bin/sh
# Throughput of `xrlm merge` on synthetic sessions of 10^4..10^7 frames.
#
#   bench/merge_throughput.sh [BUILD_DIR] [--runs N] [--no-gpu] [--calls N] [--sizes "N ..."]
#
# BUILD_DIR (default build/) holds merge/xrlm, bench/xrlm-bench-spawn and
# tests/merge/xrlm_gen_session. Each size is generated once into a
# temporary directory (removed at the end; needs ~1.7 GB free for 10^7
# frames with GPU files), then merged N times (default 5, -o into the same
# directory) by xrlm-bench-spawn, which times each run from its spawn to its
# exit: the process start is counted, and no wrapper's own start is. The
# median wall time, CPU time (user + system) and peak RSS are printed with
# frames/s, next to the target of 2 million frames/s. --calls N adds calls
# files of N calls per frame (the every-function columns and the functions
# file); the target applies with them too (issue 14: "with the per-function
# files included"), though their bytes are about N times the frames files'.
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
spawn=$build/bench/xrlm-bench-spawn
for f in "$xrlm" "$gen" "$spawn"; do
	[ -x "$f" ] || { echo "merge_throughput: missing $f (build first)" >&2; exit 1; }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT
# A signal ends the script (the EXIT trap then cleans up) with 128 + n.
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 141' PIPE; trap 'exit 143' TERM

# The median of xrlm-bench-spawn's series NAME in file $1.
p50() {
	sed -n "s/^$2 .* p50=\([^ ]*\) .*/\1/p" "$1"
}

# "busy steal" CPU time in ms so far, all CPUs (/proc/stat: user, nice,
# system, irq, softirq; steal apart), and the wall clock in ms.
cpu_now() {
	awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.0f %.0f", ($2 + $3 + $4 + $7 + $8) * 1000 / hz, $9 * 1000 / hz }' /proc/stat
	echo " $(($(date +%s%N) / 1000000))"
}

# The machine's other work while a size's runs went on: the CPU time
# every process but the merges used (all CPUs' busy time less the runs'
# own, whose sum xrlm-bench-spawn gives as mean * n), steal, and the load
# average at their end. A slow set beside a busy machine is told apart
# from a slow merge by this line. It is coarse: /proc/stat counts busy
# time by the clock ticks it samples, so a set of short merges reads a
# few hundred CPU-ms either way (a negative figure is printed as 0): it
# tells a machine with other work on a CPU or more from an idle one, not
# less.
say_load() {
	set -- $1 $(cpu_now)
	awk -v b0="$1" -v s0="$2" -v w0="$3" -v b1="$4" -v s1="$5" -v w1="$6" \
	    -v own="$(sed -n 's/^cpu_ms n=\([0-9]*\) .* mean=\([^ ]*\).*/\1 \2/p' "$dir/spawn")" \
	    -v load="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
		split(own, o, " ")
		other = b1 - b0 - o[1] * o[2]
		if (other < 0)
			other = 0
		wall = w1 - w0
		printf "    machine: other processes %.0f CPU-ms in %.0f ms (%.2f CPUs on average), steal %.0f ms, load %s\n",
		       other, wall, (wall > 0 ? other / wall : 0), s1 - s0, load
	}'
}

printf '%-10s %10s %14s %12s %12s %8s  %s\n' frames seconds frames/s peak_rss_MB bytes/frame cpu_s "target >= $target frames/s"
for n in $sizes; do
	# shellcheck disable=SC2086
	"$gen" "$dir" "b$n" "$n" $gpu $calls
	before=$(cpu_now)
	"$spawn" --runs "$runs" --rm "$dir/out.csv" --rm "$dir/out.functions.csv" -- \
		"$xrlm" merge "$dir/frames-b$n-pre.csv" "$dir/frames-b$n-post.csv" -o "$dir/out.csv" \
		>"$dir/spawn" 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
	frames=$(sed -n 's/^matched frames: //p' "$dir/spawn" | head -n 1)
	awk -v n="$frames" -v ms="$(p50 "$dir/spawn" wall_ms)" -v cms="$(p50 "$dir/spawn" cpu_ms)" \
	    -v r="$(p50 "$dir/spawn" maxrss_kb)" -v t="$target" 'BEGIN {
		s = ms / 1000
		fps = s > 0 ? n / s : 0
		printf "%-10d %10.4f %14.0f %12.1f %12.1f %8.3f  %s\n", n, s, fps, r / 1024, r * 1024 / n,
		       cms / 1000, (fps >= t ? "ok" : "BELOW")
	}'
	grep '^wall_ms' "$dir/spawn" | sed 's/^/    /'
	say_load "$before"
	rm -f "$dir"/*
done
