#!/bin/sh
# `xrlm trace` throughput: a synthetic session of FRAMES frames (frames and
# GPU files, tests/merge/tm_gen_session.c) converted RUNS times; prints the
# events written per second of wall time (median) and per second of CPU
# time (user + system: what a loaded machine's wall clock hides), and the
# peak resident memory, for two session lengths, so that bounded memory
# shows as equal figures.
#
#   bench/trace_throughput.sh BUILD [--runs N] [--frames N]
set -eu
build=$1
shift
runs=3 frames=400000
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--frames) frames=$2; shift 2 ;;
	*) echo "usage: trace_throughput.sh BUILD [--runs N] [--frames N]" >&2; exit 2 ;;
	esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-trace-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

for n in $((frames / 4)) "$frames"; do
	rm -f "$work"/*.csv
	"$build/tests/merge/xrlm_gen_session" "$work" B1 "$n" >/dev/null
	i=0
	: >"$work/rates"
	while [ $i -lt "$runs" ]; do
		rm -f "$work/t.json"
		/usr/bin/time -f "%e %M %U %S" -o "$work/time" "$build/merge/xrlm" trace "$work/frames-B1-pre.csv" \
			-o "$work/t.json" --max-size 100000 >"$work/out"
		events=$(sed -n 's/.*: \([0-9]*\) events.*/\1/p' "$work/out")
		set -- $(cat "$work/time")
		echo "$events $1 $2 $(awk -v u="$3" -v s="$4" 'BEGIN { print u + s }')" >>"$work/rates"
		i=$((i + 1))
	done
	size=$(du -m "$work/t.json" | cut -f1)
	sort -t' ' -k2 -g "$work/rates" | awk -v n="$n" -v size="$size" -v runs="$runs" '
		{ e[NR] = $1; s[NR] = $2; m[NR] = $3; c[NR] = $4 }
		END { k = int((NR + 1) / 2); rate = s[k] > 0 ? e[k] / s[k] : 0; crate = c[k] > 0 ? e[k] / c[k] : 0
		      printf "%d frames: %d events, %d MB of JSON in %.2f s wall, %.2f s CPU (median of %d): %.2f M events/s wall, %.2f M events/CPU-s; peak RSS %d kB\n",
		             n, e[k], size, s[k], c[k], runs, rate / 1e6, crate / 1e6, m[k] }'
done
