#!/bin/sh
# The merges xrlm's profile-guided build learns from (merge/pgo.cmake):
#
#   pgo_train.sh XRLM GEN PROFILE_DIR STAMP
#
# XRLM is the instrumented xrlm, GEN the session generator. Nothing is done
# while STAMP is newer than XRLM; otherwise PROFILE_DIR is emptied, the
# instrumented xrlm merges sessions like the benchmark's (10^4 frames with
# and without calls files, 10^5 with them; GPU files; on the machine's CPUs
# and on 8 threads, so that the paths of a many-CPU machine, such as the
# rows formatted early, are counted on a small one too), its counts land
# in PROFILE_DIR, and STAMP is touched.
set -eu
xrlm=$1
gen=$2
profile=$3
stamp=$4

if [ -f "$stamp" ] && [ "$stamp" -nt "$xrlm" ]; then
	exit 0
fi
rm -rf "$profile"
mkdir -p "$profile"
dir=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-pgo-XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

"$gen" "$dir" c4 10000 --calls 3 >/dev/null
"$gen" "$dir" f4 10000 >/dev/null
"$gen" "$dir" c5 100000 --calls 3 >/dev/null
for s in c4 f4 c5 c4 f4; do
	for threads in "" "--threads 8"; do
		rm -f "$dir/out.csv" "$dir/out.functions.csv"
		# shellcheck disable=SC2086
		"$xrlm" merge $threads "$dir/frames-$s-pre.csv" "$dir/frames-$s-post.csv" \
			-o "$dir/out.csv" >/dev/null
	done
done
n=$(find "$profile" -name '*.gcda' | wc -l)
if [ "$n" -eq 0 ]; then
	echo "pgo_train: the instrumented xrlm wrote no profile under $profile" >&2
	exit 1
fi
touch "$stamp"
