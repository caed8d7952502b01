#!/bin/sh
# merge_memory: the streaming merge's memory does not grow with the
# session's length. Generates sessions of 10^6 and 10^7 frames with
# xrlm_gen_session, merges each with `xrlm merge` and compares the peak
# RSS (getrusage of the child): they must differ by less than 10 MB. Twice:
# CPU files only (~0.1 and ~1 GB in the build tree's temporary directory),
# then with calls files of two calls per frame (xrWaitFrame, xrEndFrame:
# the sandwich's per-frame totals and frame map, ~0.3 and ~3 GB). Then an
# unpaced app's session (frames 4 µs apart, three calls a frame) of 10^5
# and 10^6 frames: the sandwich holds calls by rows, not for a second of
# them (which was +154 MB from 10^5 to 10^6 frames there). Its per-thread
# array of held calls doubles as it fills, so a run may end at either of two
# capacities (~8 or ~17 MB) and its peak RSS varies by ~8 MB: that check
# allows 32 MB.
#
# Each size is merged three times and its median peak RSS compared: the
# heap grows in 2 MiB huge pages, and one run's peak differs from the
# next's by up to ~4 MB with the threads' timing (10^6 frames with calls
# files: 42.4, 44.5 and 46.6 MB on the 2-CPU VM), which once took a
# single run's difference past 10 MB.
#
#   memory_test.sh XRLM GEN_SESSION
set -eu
xrlm=$1 gen=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-mem-XXXXXX")
trap 'rm -rf "$work"' EXIT
# A signal ends the script (the EXIT trap then cleans up) with 128 + n.
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 141' PIPE; trap 'exit 143' TERM

# The median of three runs' peak RSS (kB) of the merge OUT_CSV -- COMMAND...:
# each run's own (a fresh child), its output removed before the next.
peak_kb() {
	python3 -c 'import os, subprocess, sys
out, cmd = sys.argv[1], sys.argv[3:]
peaks = []
for run in range(3):
    for f in (out, out[:-len(".csv")] + ".functions.csv"):
        if os.path.exists(f):
            os.unlink(f)
    pid = subprocess.Popen(cmd, stdout=subprocess.DEVNULL).pid
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit("merge failed: status %d" % status)
    peaks.append(usage.ru_maxrss)
print(sorted(peaks)[1])' "$@"
}

# check NAME SMALL LARGE LIMIT_KB GEN_OPTIONS: both sizes merged, their peak RSS compared.
check() {
	name=$1 small=$2 large=$3 limit_kb=$4
	shift 4
	for n in $small $large; do
		"$gen" "$work" "m$n" "$n" --no-gpu "$@"
		kb=$(peak_kb "$work/merged-m$n.csv" -- "$xrlm" merge "$work/frames-m$n-pre.csv" \
			"$work/frames-m$n-post.csv" -o "$work/merged-m$n.csv")
		frames=$(sed -n 's/^# frame_count=//p' "$work/merged-m$n.csv")
		[ "$frames" = "$n" ] || { echo "FAIL ($name): $n frames generated, $frames merged"; exit 1; }
		echo "$name: frames=$n peak_rss_kb=$kb"
		eval "kb_$n=$kb"
		rm -f "$work"/*-m"$n"-*.csv "$work/merged-m$n.csv" "$work/merged-m$n.functions.csv"
	done
	eval "diff=\$((kb_$large - kb_$small))"
	echo "$name: peak RSS $large - $small frames: $diff kB (limit < $limit_kb kB)"
	[ "${diff#-}" -lt "$limit_kb" ] || { echo "FAIL ($name): the merge's memory grows with the session"; exit 1; }
}

check "frames files" 1000000 10000000 10240
check "with calls files" 1000000 10000000 10240 --calls 2
check "unpaced, with calls files" 100000 1000000 32768 --calls 3 --period-ns 4000
