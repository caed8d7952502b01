#!/bin/sh
# Item 1 b/c for two builds side by side (a refactor's before/after): the
# per-side frame-thread cost idle and recording of build A and build B,
# interleaved none/idle/rec A, then B, REPS times in the same minutes, so
# that the machine's other users hit both alike. Each figure is the paired
# difference to the same build's "none" run of the same repetition, halved
# (per side), as in frame_cost.sh; median and p25-p75 over repetitions.
#
#   WORK=... [AB_FUNCTIONS=LIST] bench/frame_cost_ab.sh BUILD_A BUILD_B [REPS]
#
# AB_FUNCTIONS, if set, is XRLM_FUNCTIONS for both builds' runs (a build
# older than the every-function recording ignores it): AB_FUNCTIONS=end
# records xrEndFrame alone, as such a build does, so the two compare alike.
set -eu
bench=$(cd "$(dirname "$0")" && pwd)
a=$1 b=$2 reps=${3:-15}
args="cost --frames 200000 --block 1000 --warmup 20000 --gap-ms 2"

: >"$WORK/ab"
i=0
while [ "$i" -lt "$reps" ]; do
	for tree in A B; do
		BUILD=$([ $tree = A ] && echo "$a" || echo "$b")
		. "$bench/lib.sh"
		if [ -n "${AB_FUNCTIONS:-}" ]; then export XRLM_FUNCTIONS="$AB_FUNCTIONS"; fi
		for cfg in none idle rec; do
			out=$(with_config $cfg "$FRAMES_BIN" $args 2>/dev/null)
			echo "$i $tree $cfg $(echo "$out" | field p50) $(echo "$out" | field p10)" >>"$WORK/ab"
		done
	done
	i=$((i + 1))
done

# The per-side cost of configuration $2 in tree $1, per repetition: block
# median (column 4), or with $3 = 5 the block p10 (quiet estimate).
per_side() {
	awk -v t="$1" -v c="$2" -v f="${3:-4}" '$2 == t && $3 == "none" { n[$1] = $f }
		$2 == t && $3 == c { x[$1] = $f }
		END { for (i in x) if (i in n) print (x[i] - n[i]) / 2 }' "$WORK/ab"
}
for cfg in idle rec; do
	for tree in A B; do
		set -- $(per_side $tree $cfg | quartiles)
		q=$(per_side $tree $cfg 5 | quartiles | cut -d' ' -f1)
		printf '| %s | %s | %s ns (p25–p75 %s–%s, %s reps) | quiet estimate %s ns |\n' \
			"$cfg" "$tree" "$1" "$2" "$3" "$4" "$q"
	done
done
