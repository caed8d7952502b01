#!/bin/sh
# Two or more `xrlm` builds merging the same sessions, interleaved: the
# method behind bench/RESULTS.md's merge comparisons.
#
#   bench/merge_ab.sh [--build DIR] [--rounds N] [--runs N] [--sizes "N[:calls] ..."]
#                     XRLM[@VAR=VALUE] XRLM[@VAR=VALUE] ...
#
# For each size a session is generated once (xrlm_gen_session: 90 Hz, GPU
# files; "N:calls" adds calls files of 3 calls a frame), then every XRLM
# merges it RUNS times (default 9) in each of ROUNDS rounds (default 10),
# timed by xrlm-bench-spawn from its spawn to its exit (process start
# counted); each round's figure is the p50 of its runs. The builds take turns
# within a round, their order reversed every other round, so that drift and
# the machine's other users hit them alike. XRLM@VAR=VALUE runs XRLM with
# VAR=VALUE in its environment: one binary with a switch against itself.
#
# Before timing, every XRLM's merged and functions files must be the same
# bytes as the first one's: a change that alters the output is not a speed
# comparison, and the script stops (exit 1) naming it. Then, per size and
# XRLM: the median of its rounds' figures, their p10-p90 (xrlm's method,
# pct.awk) and in how many rounds it was below the first XRLM's.
#
# DIR (default build/) holds tests/merge/xrlm_gen_session and
# bench/xrlm-bench-spawn. Sessions go under ${TMPDIR:-/tmp} (put it on
# /dev/shm to leave the disk out); removed at the end. Paths and values
# are taken apart at blanks: give them without.
set -eu

bench=$(cd "$(dirname "$0")" && pwd)
build=build
rounds=10
runs=9
sizes="10000:calls 10000"
usage() {
	echo "usage: $0 [--build DIR] [--rounds N] [--runs N] [--sizes \"N[:calls] ...\"] XRLM[@VAR=VALUE] XRLM[@VAR=VALUE] ..." >&2
	exit 2
}
number() {
	case $2 in
	'' | *[!0-9]* | 0) echo "merge_ab: $1 must be a positive number" >&2; exit 2 ;;
	esac
}
while [ $# -gt 0 ]; do
	case $1 in
	--build) [ $# -ge 2 ] || usage; build=$2; shift ;;
	--rounds) [ $# -ge 2 ] || usage; number --rounds "$2"; rounds=$2; shift ;;
	--runs) [ $# -ge 2 ] || usage; number --runs "$2"; runs=$2; shift ;;
	--sizes) [ $# -ge 2 ] || usage; sizes=$2; shift ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 2 ] || usage
gen=$build/tests/merge/xrlm_gen_session
spawn=$build/bench/xrlm-bench-spawn
for f in "$gen" "$spawn"; do
	[ -x "$f" ] || { echo "merge_ab: missing $f (build first)" >&2; exit 1; }
done
for x in "$@"; do
	[ -x "${x%%@*}" ] || { echo "merge_ab: $x: no such program" >&2; exit 1; }
	case $x in
	*@*=*) ;;
	*@*) echo "merge_ab: $x: expected XRLM@VAR=VALUE" >&2; exit 2 ;;
	esac
done
for s in $sizes; do
	case ${s%:calls} in
	'' | *[!0-9]* | 0) echo "merge_ab: bad size \"$s\" (N or N:calls)" >&2; exit 2 ;;
	esac
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-ab-XXXXXX")
trap 'rm -rf "$dir"' EXIT
# A signal ends the script (the EXIT trap then cleans up) with 128 + n.
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 141' PIPE; trap 'exit 143' TERM

# The environment assignment env(1) runs XRLM[@VAR=VALUE] $1 with: VAR=VALUE,
# or a variable of no meaning when it names none, so that every build goes
# through the same command.
env_of() {
	case $1 in
	*@*) echo "${1#*@}" ;;
	*) echo XRLM_MERGE_AB=1 ;;
	esac
}

# The merge of session $1 by $2, its outputs' checksum on stdout.
outputs() {
	rm -f "$dir/o.csv" "$dir/o.functions.csv"
	env "$(env_of "$2")" "${2%%@*}" merge "$dir/frames-$1-pre.csv" "$dir/frames-$1-post.csv" \
		-o "$dir/o.csv" >/dev/null 2>"$dir/err" ||
		{ echo "merge_ab: $2 failed:" >&2; cat "$dir/err" >&2; exit 1; }
	cat "$dir/o.csv" "$dir/o.functions.csv" 2>/dev/null | cksum
}

# One round's figure: the p50 wall ms of RUNS spawned merges of session $1 by $2.
figure() {
	env "$(env_of "$2")" "$spawn" --runs "$runs" --rm "$dir/o.csv" --rm "$dir/o.functions.csv" -- \
		"${2%%@*}" merge "$dir/frames-$1-pre.csv" "$dir/frames-$1-post.csv" -o "$dir/o.csv" \
		2>/dev/null | sed -n 's/^wall_ms .* p50=\([^ ]*\) .*/\1/p'
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg);" \
	"$rounds rounds of $runs spawned merges a build; ms, process start counted"
for s in $sizes; do
	n=${s%%:*}
	calls=
	tag=s$n
	case $s in *:calls) calls="--calls 3" tag=s${n}c ;; esac
	rm -f "$dir"/*
	# shellcheck disable=SC2086
	"$gen" "$dir" "$tag" "$n" $calls >/dev/null
	want=
	for x in "$@"; do
		got=$(outputs "$tag" "$x")
		[ -n "$want" ] || want=$got
		[ "$got" = "$want" ] ||
			{ echo "merge_ab: $x's output differs from $1's at $s: not compared" >&2; exit 1; }
	done
	: >"$dir/rounds"
	r=1
	while [ "$r" -le "$rounds" ]; do
		order=$*
		if [ $((r % 2)) = 0 ]; then
			order=
			for x in "$@"; do order="$x $order"; done
		fi
		for x in $order; do
			f=$(figure "$tag" "$x")
			[ -n "$f" ] || { echo "merge_ab: $x: no timing from $spawn" >&2; exit 1; }
			echo "$r $x $f" >>"$dir/rounds"
		done
		r=$((r + 1))
	done
	echo "$s"
	for x in "$@"; do
		stats=$(awk -v x="$x" '$2 == x { print $3 }' "$dir/rounds" | sort -g |
			awk -v q="0.5 0.1 0.9" -v fmt=%.2f -f "$bench/pct.awk")
		lower=$(awk -v a="$1" -v x="$x" '$2 == a { ref[$1] = $3 } $2 == x { v[$1] = $3 }
			END { for (r in v) if ((r in ref) && v[r] < ref[r]) n++; print n + 0 }' "$dir/rounds")
		echo "$stats" | awk -v x="$x" -v lower="$lower" -v rounds="$rounds" '{
			printf "  %-32s p50 %8s  (p10-p90 %s-%s)  below the first in %d of %d rounds\n",
			       x, $1, $2, $3, lower, rounds }'
	done
done
