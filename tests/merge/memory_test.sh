#!/bin/sh
# merge_memory: the streaming merge's memory does not grow with the
# session's length. Generates sessions of 10^6 and 10^7 frames with
# xrlm_gen_session, merges each with `xrlm merge` and compares the peak
# RSS (getrusage of the child): they must differ by less than 10 MB. Twice:
# CPU files only (~0.1 and ~1 GB in the build tree's temporary directory),
# then with calls files of two calls per frame (xrWaitFrame, xrEndFrame:
# the sandwich's per-frame totals and frame map, ~0.3 and ~3 GB).
#
#   memory_test.sh XRLM GEN_SESSION
set -eu
xrlm=$1 gen=$2
limit_kb=10240
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-mem-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Peak RSS in kB of "$@" (which must succeed).
peak_kb() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# check NAME GEN_OPTIONS: both sizes merged, their peak RSS compared.
check() {
	name=$1
	shift
	for n in 1000000 10000000; do
		"$gen" "$work" "m$n" "$n" --no-gpu "$@"
		kb=$(peak_kb "$xrlm" merge "$work/frames-m$n-pre.csv" "$work/frames-m$n-post.csv" \
			-o "$work/merged-m$n.csv")
		frames=$(sed -n 's/^# frame_count=//p' "$work/merged-m$n.csv")
		[ "$frames" = "$n" ] || { echo "FAIL ($name): $n frames generated, $frames merged"; exit 1; }
		echo "$name: frames=$n peak_rss_kb=$kb"
		eval "kb_$n=$kb"
		rm -f "$work"/*-m"$n"-*.csv "$work/merged-m$n.csv" "$work/merged-m$n.functions.csv"
	done
	diff=$((kb_10000000 - kb_1000000))
	echo "$name: peak RSS 10^7 - 10^6 frames: $diff kB (limit < $limit_kb kB)"
	[ "${diff#-}" -lt "$limit_kb" ] || { echo "FAIL ($name): the merge's memory grows with the session"; exit 1; }
}

check "frames files"
check "with calls files" --calls 2
