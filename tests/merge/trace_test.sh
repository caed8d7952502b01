#!/bin/sh
# `xrlm trace` (README, "Timeline view: xrlm trace"): every output is read
# back with python3's json module (tests/merge/trace_check.py, which also
# checks that slices nest) and with jq.
#
# Usage: trace_test.sh XRLM GEN_SESSION CASE
#   calls       calls files, 3 threads, target-made calls: slice counts, target_us sums
#   frames      frames files only (xrlm_gen_session): one target slice per frame
#   empty       header-only files: a valid document with no slice
#   killed      cut mid-row, no footer: a warning per file, once; a valid document
#   fuzzed      60 mutated sessions: an error line and no file, or a valid document
#   window      --from/--to in seconds and frame ids
#   size        --max-size: a warning past it, and the whole file all the same
#   one_side    one side's calls or GPU file only: traced without them, each said
#               in one warning line, in the words of xrlm merge's
#   errors      bad arguments and sessions: one line, non-zero, no file
#   write_limit past `ulimit -f` (the spools of either pass, the output): one line, no file
#   other_session files whose # session= lines differ: refused, no file
#   clock_freq  frames files counting in 2 GHz ticks: the same trace as in ns
#   gpu_wrap    GPU files of a 25-bit clock (# gpu_valid_bits=25) that wraps 65 times:
#               every GPU event where the same session's 64-bit files put it
#   merged_gpu  GPU files with a bracket correction that changes mid-session: the target
#               GPU slices and counter hold the merged CSV's target_gpu_us (and raw);
#               none where post's GPU period or clock width is not pre's, as the
#               merged CSV has none
#   merged_cpu  calls the target makes inside xrEndFrame, frames it answers itself: the
#               target_us counter is the merged CSV's target_us, row for row
#   no_calibration  GPU files without a "# calibration" line (a Vulkan 1.0 device, as
#               hello_xr's, has no VK_EXT_calibrated_timestamps): no GPU event, and one
#               warning line per GPU file saying so, not a silent absence
#   times       every event where the session's files put it, to the nanosecond
#               (trace_times.py): calls, target slices, frame markers, marks, GPU
#               timestamps through the latest of two calibration lines, a GPU pair
#               that runs backwards; frame ids 1, 2, ... from frames files; the
#               window's edges, the span in its message, --max-size not reached
xrlm=$1
gen_session=$2
case_name=$3
here=$(dirname "$0")
. "$here/cli_lib.sh"

# check FILE: valid JSON for jq and trace_check.py; its figures in $stats.
check() {
	jq empty "$1" 2>"$work/jq.err" || fail "jq cannot parse $1: $(head -c 300 "$work/jq.err")"
	stats=$(python3 "$here/trace_check.py" "$1") || fail "$stats"
}

# field N of $stats
stat() {
	echo "$stats" | cut -d' ' -f"$1"
}

gen() {
	python3 "$here/trace_gen.py" "$@" >"$work/gen.out" || fail "trace_gen.py failed"
}

# calibrate TAG: a "# calibration" line in xrlm_gen_session's GPU files (it writes
# none), as a device with VK_EXT_calibrated_timestamps gives: without it the trace
# says, in one line per GPU file, that their timestamps are left out (no_calibration).
calibrate() {
	sed -i '/^display_time,/a # calibration gpu_ticks=1234567890 monotonic_ns=17834950000000 max_deviation_ns=1' \
		"$work/gpu-$1-pre.csv" "$work/gpu-$1-post.csv" || fail "calibrate $1"
}

# against_merged TAG: the session's trace, from its calls files and then from
# its frames files only, against its merged CSV (trace_vs_merged.py).
against_merged() {
	run merge "$work/frames-$1-pre.csv" "$work/frames-$1-post.csv" -o "$work/m-$1.csv"
	[ "$rc" = 0 ] || fail "xrlm merge failed: $(cat "$work/err")"
	for files in calls frames; do
		[ $files = frames ] && rm "$work"/calls-$1-*.csv
		rm -f "$work/t.json"
		run trace "$work/frames-$1-pre.csv" -o "$work/t.json"
		[ "$rc" = 0 ] || fail "status $rc ($files files)"
		check "$work/t.json"
		compared=$(python3 "$here/trace_vs_merged.py" "$work/t.json" "$work/m-$1.csv") ||
			fail "$files files: $compared"
		echo "$files files: $compared (merged rows, with GPU) agree"
	done
}

case $case_name in
calls)
	gen "$work" T1 200 --threads 3 --induced
	run trace "$work/calls-T1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/t.json"
	pre_calls=$(cut -d' ' -f1 "$work/gen.out")
	[ "$(stat 1)" = "$pre_calls" ] || fail "pre slices $(stat 1), $pre_calls calls"
	[ "$(stat 3)" = "$pre_calls" ] || fail "target slices $(stat 3), not one per recorded call ($pre_calls)"
	[ "$(stat 2)" = $((pre_calls + 40)) ] || fail "post slices $(stat 2)"
	[ "$(stat 4)" = 200 ] || fail "target GPU slices $(stat 4), 200 frames"
	[ "$(stat 5)" = "$(cut -d' ' -f2 "$work/gen.out")" ] ||
		fail "xrEndFrame target_us sums to $(stat 5), expected $(cut -d' ' -f2 "$work/gen.out")"
	[ "$(stat 8)" = 20 ] || fail "$(stat 8) post slices outside pre's (expected the 20 on another thread)"
	# The frame markers: entry and exit of xrWaitFrame, xrBeginFrame, xrEndFrame.
	[ "$(grep -c '"name":"wait_begin"' "$work/t.json")" = 200 ] || fail "wait_begin markers"
	[ "$(grep -c '"name":"end_end"' "$work/t.json")" = 200 ] || fail "end_end markers"
	grep -q '"target_layer":"XR_APILAYER_test \\"q\\" \\u003ct\\u003e"' "$work/t.json" ||
		fail "the target layer's name is not escaped"
	# The user's mark from pre's frames file, unescaped then escaped for JSON, once.
	[ "$(grep -c '{"name":"shader cache, \\"warm\\"","ph":"i","pid":1,"tid":0,"s":"g"' "$work/t.json")" = 1 ] ||
		fail "the mark is not in the trace once"
	# The directory works as well as a file, and names the default output.
	rm "$work/trace-T1.json" 2>/dev/null
	run trace "$work"
	[ "$rc" = 0 ] && [ -f "$work/trace-T1.json" ] || fail "xrlm trace DIR wrote no trace-T1.json"
	cmp -s "$work/t.json" "$work/trace-T1.json" || fail "DIR and FILE give different traces"
	;;
frames)
	"$gen_session" "$work" F1 500 >/dev/null || fail "gen_session failed"
	run trace "$work/frames-F1-post.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/t.json"
	[ "$(stat 1)" = 500 ] && [ "$(stat 2)" = 500 ] || fail "pre/post slices: $stats"
	[ "$(stat 3)" = 500 ] || fail "target slices $(stat 3), 500 frames"
	[ "$(stat 6)" -ge 500 ] || fail "counters: $(stat 6)"
	# The target's time per frame is the merge's target_us (bracket correction included).
	gen "$work" F2 300
	rm "$work"/calls-F2-*
	run trace "$work/frames-F2-pre.csv" -o "$work/t2.json"
	check "$work/t2.json"
	[ "$(stat 3)" = 300 ] || fail "target slices $(stat 3), 300 frames"
	[ "$(grep -c '"name":"end_end"' "$work/t2.json")" = 300 ] || fail "end_end markers"
	run merge "$work/frames-F2-pre.csv" "$work/frames-F2-post.csv" -o "$work/m.csv"
	[ "$rc" = 0 ] || fail "xrlm merge failed"
	sum=$(grep -v '^#' "$work/m.csv" | tail -n +2 | awk -F, '{ s += $6 } END { printf "%.3f", s }')
	awk -v a="$sum" -v b="$(stat 5)" 'BEGIN { d = a - b; exit !(d < 0.2 && d > -0.2) }' ||
		fail "target_us sums to $(stat 5) in the trace, $sum in the merge"
	;;
clock_freq)
	# A frames file's times are in ticks of its "# clock_freq", converted
	# as the merge and a calls file convert them: the same session written
	# at 2 GHz (every t_entry and t_exit doubled) gives the same trace.
	gen "$work" C1 300
	rm "$work"/calls-C1-*
	mkdir "$work/ghz" || fail "mkdir"
	cp "$work"/gpu-C1-* "$work/ghz/" || fail "cp"
	python3 - "$work" <<'PY' || fail "rescaling the frames files failed"
import sys
for side in ("pre", "post"):
    name = "/frames-C1-%s.csv" % side
    with open(sys.argv[1] + name) as src, open(sys.argv[1] + "/ghz" + name, "w") as dst:
        for line in src:
            f = line.rstrip("\n").split(",")
            if line.startswith("# clock_freq="):
                line = "# clock_freq=2000000000\n"
            elif not line.startswith("#") and f[0] != "display_time":
                line = ",".join(f[:2] + [str(2 * int(f[2])), str(2 * int(f[3]))]) + "\n"
            dst.write(line)
PY
	grep -q '^# clock_freq=2000000000$' "$work/ghz/frames-C1-pre.csv" || fail "no 2 GHz header"
	run trace "$work/frames-C1-pre.csv" -o "$work/ns.json"
	[ "$rc" = 0 ] || fail "status $rc in ns"
	run trace "$work/ghz/frames-C1-pre.csv" -o "$work/ghz.json"
	[ "$rc" = 0 ] || fail "status $rc at 2 GHz: $(cat "$work/err")"
	check "$work/ghz.json"
	[ "$(stat 3)" = 300 ] || fail "target slices $(stat 3), 300 frames"
	cmp -s "$work/ns.json" "$work/ghz.json" ||
		fail "a 2 GHz frames file gives another trace than the same times in ns"
	;;
gpu_wrap)
	# The same session twice, its GPU files once as a 64-bit clock writes
	# them and once as a 25-bit one (1 ns ticks: a wrap every 33.5 ms,
	# frames 11.1 ms apart): the GPU events must land at the same times,
	# only their raw gpu_ticks differ.
	mkdir "$work/plain" "$work/wrap" || fail "mkdir"
	gen "$work/plain" G1 200
	gen "$work/wrap" G1 200 --wrap-bits 25
	grep -q '^# gpu_valid_bits=25$' "$work/wrap/gpu-G1-pre.csv" || fail "no width line"
	wraps=$(awk -F, '/^[0-9]/ { if (n++ && $2 < last) w++; last = $2 } END { print w + 0 }' \
		"$work/wrap/gpu-G1-pre.csv")
	[ "$wraps" -ge 2 ] || fail "pre's GPU clock wraps $wraps times, the test needs >= 2"
	for d in plain wrap; do
		run trace "$work/$d/frames-G1-pre.csv" -o "$work/$d.json"
		[ "$rc" = 0 ] || fail "status $rc ($d)"
		check "$work/$d.json"
		[ "$(stat 4)" = 200 ] || fail "$d: $(stat 4) target GPU slices, 200 frames"
		[ "$(jq '[.traceEvents[] | select(.name == "GPU timestamp")] | length' "$work/$d.json")" = 400 ] ||
			fail "$d: not every GPU timestamp is placed"
		jq -S 'del(.traceEvents[].args.gpu_ticks)' "$work/$d.json" >"$work/$d.cmp" || fail "jq"
	done
	cmp -s "$work/plain.cmp" "$work/wrap.cmp" ||
		fail "a wrapping GPU clock ($wraps wraps) places its events elsewhere: $(diff "$work/plain.cmp" "$work/wrap.cmp" | head -n 4)"
	echo "gpu_wrap: $wraps wraps in pre's GPU file, every event in place"
	;;
merged_gpu)
	gen "$work" G1 200 --gpu-bracket
	grep -q '^# gpu_bracket_ns=15000$' "$work/gpu-G1-pre.csv" || fail "no bracket line"
	against_merged G1
	[ "$(echo "$compared" | cut -d' ' -f2)" = 200 ] || fail "$compared: not every frame's GPU"
	# Post's GPU period differs from pre's in frames 50 to 59: the merged
	# rows leave target_gpu_us blank there, and so do the slices.
	gen "$work" G2 200 --gpu-bracket
	awk -F, 'BEGIN { OFS = "," } /^[0-9]/ && ++n >= 50 && n < 60 { $3 = "1.000001" } { print }' \
		"$work/gpu-G2-post.csv" >"$work/g" && mv "$work/g" "$work/gpu-G2-post.csv" || fail "awk"
	against_merged G2
	[ "$(echo "$compared" | cut -d' ' -f2)" = 190 ] || fail "$compared: 190 frames' GPU expected"
	# Post's GPU clock 63 bits wide, pre's 64: no frame has a figure.
	gen "$work" G3 50
	sed -i 's/^# session=G3$/&\n# gpu_valid_bits=63/' "$work/gpu-G3-post.csv" || fail "sed"
	grep -q '^# gpu_valid_bits=63$' "$work/gpu-G3-post.csv" || fail "no width line"
	against_merged G3
	[ "$(echo "$compared" | cut -d' ' -f2)" = 0 ] || fail "$compared: no frame's GPU expected"
	;;
merged_cpu)
	gen "$work" M1 200 --threads 2 --induced --answered 7
	against_merged M1
	[ "$(echo "$compared" | cut -d' ' -f1)" = 172 ] || fail "$compared: 172 matched frames expected"
	;;
empty)
	gen "$work" E1 0
	run trace "$work/frames-E1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/t.json"
	[ "$(stat 1) $(stat 3)" = "0 0" ] || fail "slices in an empty session: $stats"
	;;
killed)
	gen "$work" K1 50 --threads 2
	for f in "$work"/*-K1-*.csv; do
		# A killed writer: no footer, the last row cut short.
		grep -v '^# session_end' "$f" | head -c -7 >"$f.cut" && mv "$f.cut" "$f"
	done
	run trace "$work/calls-K1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc on a killed session"
	grep -q "warning" "$work/err" || fail "no warning for the cut rows"
	check "$work/t.json"
	[ "$(stat 3)" = "$(stat 1)" ] || fail "target slices $(stat 3), pre calls $(stat 1)"
	# Each file's warning is said once, not again with the next file read.
	[ "$(wc -l <"$work/err")" = 6 ] && [ -z "$(sort "$work/err" | uniq -d)" ] ||
		fail "not one warning per cut file: $(cat "$work/err")"
	# The same from the frames files alone.
	rm "$work"/calls-K1-*.csv
	run trace "$work/frames-K1-pre.csv" -o "$work/f.json"
	[ "$rc" = 0 ] || fail "status $rc on a killed session's frames files"
	[ "$(wc -l <"$work/err")" = 4 ] && [ -z "$(sort "$work/err" | uniq -d)" ] ||
		fail "frames files: not one warning per cut file: $(cat "$work/err")"
	;;
fuzzed)
	gen "$work" Z1 20 --threads 2 --induced
	python3 "$here/trace_mutate.py" "$work" Z1 60 || fail "trace_mutate.py failed"
	valid= refused=0
	for i in $(seq 1 60); do
		run trace "$work/z$i" -o "$work/z$i.json"
		if [ "$rc" = 0 ]; then
			valid="$valid $work/z$i.json"
		else
			[ ! -e "$work/z$i.json" ] || fail "mutation $i: status $rc left a file"
			grep -q '^xrlm: ' "$work/err" || fail "mutation $i: no message"
			refused=$((refused + 1))
		fi
	done
	[ -n "$valid" ] && [ $refused -gt 0 ] || fail "the mutations tested one outcome only"
	for f in $valid; do
		jq empty "$f" 2>"$work/jq.err" || fail "jq cannot parse $f: $(head -c 300 "$work/jq.err")"
	done
	out=$(python3 "$here/trace_check.py" $valid) || fail "$out"
	echo "fuzzed: $(echo $valid | wc -w) valid documents, $refused refused"
	;;
window)
	gen "$work" W1 100
	run trace "$work/calls-W1-pre.csv" -o "$work/all.json"
	check "$work/all.json"
	all=$(stat 1)
	run trace "$work/calls-W1-pre.csv" -o "$work/f.json" --from f10 --to f19
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/f.json"
	[ "$(stat 1)" = 40 ] || fail "frames 10..19: $(stat 1) pre slices, expected 40"
	[ "$(stat 3)" = 40 ] || fail "frames 10..19: $(stat 3) target slices"
	# The "wrote" line counts what the file holds, not the whole session.
	marks=$(jq '[.traceEvents[] | select(.cat == "mark")] | length' "$work/f.json")
	want="wrote $work/f.json: $(jq '.traceEvents | length' "$work/f.json") events ($(($(stat 1) + $(stat 2))) calls, $(stat 3) target slices, $marks marks)"
	[ "$(cat "$work/out")" = "$want" ] || fail "'$(cat "$work/out")', expected '$want'"
	# Frames are 11.1 ms apart from t = 0: 0.1 s to 0.2 s holds frames 10 to 18.
	run trace "$work/calls-W1-pre.csv" -o "$work/s.json" --from 0.1 --to 0.2
	check "$work/s.json"
	[ "$(stat 1)" -gt 0 ] && [ "$(stat 1)" -lt "$all" ] || fail "seconds window: $(stat 1) of $all"
	run trace "$work/calls-W1-pre.csv" -o "$work/x.json" --from xyz
	expect_error 2 "--from takes seconds"
	# A window that holds no event (past the end, in seconds or frames) is
	# an error naming it and the session's span; no file is written.
	for w in "--from 1000|--from 1000" "--from f500 --to f600|--from f500 --to f600" \
		"--from=100|--from 100"; do
		run trace "$work/calls-W1-pre.csv" -o "$work/e.json" ${w%%|*}
		expect_error 1 "the window ${w#*|} holds no event: session W1 runs from 0 to 1\.[0-9]* s, frames f[0-9]* to f[0-9]*$"
		[ ! -e "$work/e.json" ] || fail "a trace of the empty window ${w#*|}"
	done
	! ls -a "$work" | grep -q '\.tmp-' || fail "temporary file left"
	;;
size)
	"$gen_session" "$work" S1 20000 >/dev/null || fail "gen_session failed"
	calibrate S1
	run trace "$work/frames-S1-pre.csv" -o "$work/t.json" --max-size 1
	[ "$rc" = 0 ] || fail "status $rc"
	stderr_once "warning: .* MB, more than 1 MB"
	check "$work/t.json"
	[ "$(stat 3)" = 20000 ] || fail "the file was cut: $(stat 3) target slices"
	;;
one_side)
	# pre's calls and GPU files without post's: the trace falls back to
	# xrEndFrame from the frames files and leaves the target's GPU slices
	# out, as the merge leaves its columns out, and says so as it does.
	gen "$work" O1 50
	rm "$work/calls-O1-post.csv" "$work/gpu-O1-post.csv"
	run trace "$work/frames-O1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/t.json"
	[ "$(stat 4)" = 0 ] || fail "target GPU slices $(stat 4) with one GPU file"
	[ "$(wc -l <"$work/err")" = 2 ] || fail "expected two warning lines"
	grep -q "gpu-O1-pre.csv: warning: no GPU file for the post side; " "$work/err" ||
		fail "no warning for the missing post GPU file"
	grep -q "calls-O1-pre.csv: warning: no calls file for the post side; " "$work/err" ||
		fail "no warning for the missing post calls file"
	cp "$work/err" "$work/trace.err"
	run merge "$work/frames-O1-pre.csv" "$work/frames-O1-post.csv" -o "$work/m.csv"
	[ "$rc" = 0 ] || fail "merge status $rc"
	for kind in GPU calls; do
		[ "$(grep "no $kind file" "$work/err" | cut -d';' -f1)" = \
		  "$(grep "no $kind file" "$work/trace.err" | cut -d';' -f1)" ] ||
			fail "merge and trace word the missing $kind file differently"
	done
	# Post's only: the pre side is named.
	gen "$work" O2 20
	rm "$work/calls-O2-pre.csv"
	run trace "$work/frames-O2-pre.csv" -o "$work/t2.json"
	[ "$rc" = 0 ] || fail "status $rc with post's calls file only"
	stderr_once "calls-O2-post.csv: warning: no calls file for the pre side; "
	;;
no_calibration)
	gen "$work" N1 100
	sed -i '/^# calibration /d' "$work/gpu-N1-pre.csv" "$work/gpu-N1-post.csv" || fail "sed"
	run trace "$work/frames-N1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	check "$work/t.json"
	[ "$(stat 3)" -gt 0 ] || fail "no target slices: $stats"
	[ "$(stat 4)" = 0 ] || fail "target GPU slices $(stat 4) without a calibration"
	grep -q '"GPU timestamp"' "$work/t.json" && fail "GPU instants without a calibration"
	[ "$(wc -l <"$work/err")" = 2 ] || fail "expected two warning lines: $(cat "$work/err")"
	for side in pre post; do
		grep -q "gpu-N1-$side.csv: warning: no \"# calibration\" line before its 100 GPU timestamps" \
			"$work/err" || fail "no warning for $side's GPU file: $(cat "$work/err")"
	done
	# With the line (the generator's files as written): no such warning.
	gen "$work" N2 100
	run trace "$work/frames-N2-pre.csv" -o "$work/t2.json"
	[ "$rc" = 0 ] || fail "status $rc with calibration lines"
	grep -q 'calibration' "$work/err" && fail "a calibration warning with the lines there: $(cat "$work/err")"
	# An output already there is refused before the session is read: its
	# one line, not the warnings of a reading that is not needed.
	run trace "$work/frames-N1-pre.csv" -o "$work/t.json"
	expect_error 1 "t.json: error: already exists; not overwriting it"
	echo "no calibration: $(stat 4) target GPU slices, one warning per GPU file"
	;;
times)
	gen "$work" T1 20 --threads 2 --induced
	# A second calibration line after the tenth GPU row, 500 ns off the
	# first's line: the rows below it are placed through it alone.
	for side in pre post; do
		awk -F, '/^[0-9]/ && ++n == 11 { print "# calibration gpu_ticks=" $2 - 7 " monotonic_ns=" $1 + 500 " max_deviation_ns=1" } { print }' \
			"$work/gpu-T1-$side.csv" >"$work/g" && mv "$work/g" "$work/gpu-T1-$side.csv" || fail "awk"
	done
	[ "$(grep -c '^# calibration' "$work/gpu-T1-pre.csv")" = 2 ] || fail "no second calibration line"
	# Post's GPU timestamp of the third frame before pre's: a pair that runs backwards.
	pre3=$(awk -F, '/^[0-9]/ && ++n == 3 { print $2 }' "$work/gpu-T1-pre.csv")
	awk -F, -v t=$((pre3 - 1000)) 'BEGIN { OFS = "," } /^[0-9]/ && ++n == 3 { $2 = t } { print }' \
		"$work/gpu-T1-post.csv" >"$work/g" && mv "$work/g" "$work/gpu-T1-post.csv" || fail "awk"
	run trace "$work/frames-T1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc"
	[ ! -s "$work/err" ] || fail "stderr: $(cat "$work/err")"
	check "$work/t.json"
	n=$(python3 "$here/trace_times.py" "$work/t.json" "$work" T1) || fail "calls files: $n"
	# The window's edges: an event overlapping either is kept, one touching --to too.
	run trace "$work/frames-T1-pre.csv" -o "$work/f.json" --from f10 --to f19
	[ "$rc" = 0 ] || fail "status $rc"
	for m in wait_begin end_end; do
		[ "$(grep -c "\"name\":\"$m\"" "$work/f.json")" = 10 ] || fail "frames 10..19: not 10 $m"
	done
	# 0.31 ms after the first call: inside frame 1's xrEndFrame (0.3 to 0.3341 ms).
	run trace "$work/frames-T1-pre.csv" -o "$work/s.json" --from 0.00031 --to 0.0005
	[ "$rc" = 0 ] || fail "status $rc"
	[ "$(jq '[.traceEvents[] | select(.ph == "X" and .pid != 2 and .name == "xrEndFrame" and .args.frame_id == 1)] | length' "$work/s.json")" = 2 ] ||
		fail "frame 1's xrEndFrame, which the window's start cuts, is not kept"
	# A window of one instant (--from = --to) is not one the wrong way round.
	run trace "$work/frames-T1-pre.csv" -o "$work/z.json" --from 0 --to 0
	[ "$rc" = 0 ] || fail "--from 0 --to 0: status $rc: $(cat "$work/err")"
	run trace "$work/frames-T1-pre.csv" -o "$work/e.json" --from 100
	expect_error 1 "holds no event: session T1 runs from 0 to 0\.[0-9]* s, frames f1 to f20$"
	# A trace under --max-size: no warning.
	run trace "$work/frames-T1-pre.csv" -o "$work/m.json" --max-size 1
	[ "$rc" = 0 ] && [ ! -s "$work/err" ] || fail "a warning under --max-size: $(cat "$work/err")"
	# From the frames files: xrEndFrame only, frames numbered from 1. Post's
	# first bracket starts with pre's, its second ends with pre's: each is
	# still inside pre's, below the target.
	rm "$work"/calls-T1-*.csv
	awk -F, 'BEGIN { OFS = "," } /^[0-9]/ { n++; print n, $3, $4 }' "$work/frames-T1-pre.csv" >"$work/pre.t"
	awk -F, -v a="$(sed -n 1p "$work/pre.t" | cut -d, -f2)" -v b="$(sed -n 2p "$work/pre.t" | cut -d, -f3)" \
		'BEGIN { OFS = "," } /^[0-9]/ { n++; if (n == 1) $3 = a; if (n == 2) $4 = b } { print }' \
		"$work/frames-T1-post.csv" >"$work/g" && mv "$work/g" "$work/frames-T1-post.csv" || fail "awk"
	run trace "$work/frames-T1-pre.csv" -o "$work/fr.json"
	[ "$rc" = 0 ] || fail "status $rc"
	n=$(python3 "$here/trace_times.py" "$work/fr.json" "$work" T1) || fail "frames files: $n"
	for f in 1 2; do
		want=$(awk -F, -v f=$f '/^[0-9]/ && ++n == f { printf "%.3f", ($4 - $3) / 1000 }' "$work/frames-T1-post.csv")
		got=$(jq -r --argjson f $f '.traceEvents[] | select(.pid == 3 and .tid != 0 and .args.frame_id == $f) | .args.below_us' "$work/fr.json")
		awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 0.0005 && b - a < 0.0005) }' ||
			fail "frame $f: below_us $got, post's bracket $want us"
	done
	run trace "$work/frames-T1-pre.csv" -o "$work/e.json" --from 100
	expect_error 1 "holds no event: session T1 runs from 0 to 0\.[0-9]* s, frames f1 to f20$"
	;;
errors)
	run trace
	expect_error 2 "needs a session"
	run trace "$work/nothing.csv"
	expect_error 1 "No such file"
	echo x >"$work/notes.txt"
	run trace "$work/notes.txt"
	expect_error 2 "not a session file"
	gen "$work" A1 5
	gen "$work" A2 5
	run trace "$work"
	expect_error 2 "several sessions"
	rm "$work"/*-A2-*
	rm "$work/calls-A1-post.csv" "$work/frames-A1-post.csv"
	run trace "$work/frames-A1-pre.csv" -o "$work/t.json"
	expect_error 1 "has no post file"
	[ ! -e "$work/t.json" ] || fail "a failed trace left a file"
	# A FIFO where a side's file should be is named as what it is, not as absent.
	mkfifo "$work/frames-A1-post.csv" || fail "mkfifo"
	run trace "$work/frames-A1-pre.csv" -o "$work/t.json"
	expect_error 1 "frames-A1-post.csv: not a regular file"
	rm "$work/frames-A1-post.csv"
	# A window that holds nothing: --from after --to (seconds or frame ids).
	gen "$work" W1 5
	for w in "--from 2 --to 1" "--from f4 --to f2"; do
		run trace "$work/frames-W1-pre.csv" -o "$work/t.json" $w
		expect_error 2 "--from is after --to"
		[ ! -e "$work/t.json" ] || fail "an empty window wrote a file"
	done
	;;
write_limit)
	# A spool (post's calls or GPU rows) or the output past a file size
	# limit: one line naming the error, status 1, nothing left behind.
	"$gen_session" "$work" L1 20000 --calls 12 >/dev/null || fail "gen_session failed"
	calibrate L1
	for f in calls frames; do
		[ $f = frames ] && rm "$work"/calls-L1-*.csv
		for kib in 64 4096; do
			(ulimit -f $((kib * 2)) && exec "$xrlm" trace "$work/frames-L1-pre.csv" -o "$work/t.json") \
				>"$work/out" 2>"$work/err"
			rc=$?
			expect_error 1 "File too large"
			# The output's own write names it.
			[ $kib = 64 ] || grep -q "^xrlm: writing $work/t.json failed: File too large$" "$work/err" ||
				fail "the output not named: $(cat "$work/err")"
			[ -z "$(ls -A "$work" | grep -v "L1-\\|^out$\\|^err$")" ] || fail "left behind: $(ls -A "$work")"
		done
	done
	;;
other_session)
	# Files of one tag whose # session= lines name different sessions: refused.
	gen "$work" S1 20
	for f in calls-S1-pre frames-S1-pre gpu-S1-post; do
		cp -r "$work" "$work.x"
		sed -i 's/^# session=S1$/# session=S2/' "$work.x/$f.csv"
		run trace "$work.x/frames-S1-pre.csv" -o "$work.x/t.json"
		left=$(ls "$work.x" | grep -v "S1\|^gen.out$\|^out$\|^err$")
		rm -rf "$work.x"
		expect_error 1 "$f.csv: error: is of session S2 (by its # session= line), but .* is of session S1"
		[ -z "$left" ] || fail "left behind: $left"
	done
	run trace "$work/frames-S1-pre.csv" -o "$work/t.json"
	[ "$rc" = 0 ] || fail "status $rc with one session"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
