#!/bin/sh
# CLI tests of xrlm: cli_test.sh XRLM DATA_DIR CASE GEN_SESSION
# Each case exits non-zero on failure with a line saying why.
set -u
xrlm=$1
data=$2
case_name=$3
gen=${4:-}

. "$(dirname "$0")/cli_lib.sh"

copy_session() { # copy_session TAG: the per-side files of data set TAG into $work
	cp "$data"/frames-"$1"-*.csv "$work"/
	cp "$data"/gpu-"$1"-*.csv "$work"/ 2>/dev/null || true
}

# make_sessions DIR: a session directory as the layers leave it, oldest first:
#   B 09:00 unmerged (with GPU files), A 10:00 merged, D 11:00 unmerged with a
#   malformed pre file, C 11:00 pre only, E 12:00 unmerged (no GPU files),
#   L now, written by a process that is still running (this shell, which
#   keeps L's pre file open as the writer does); and R 08:00, whose pid is
#   this shell's too, but which it does not have open: a pid used again;
# plus files that only look like a session's (a link, a directory, a bad tag).
make_sessions() {
	d=$1
	mkdir -p "$d"
	A=999999001-20261101T100000 B=999999002-20261101T090000 C=999999003-20261101T110000
	D=999999000-20261101T110000-2 E=999999004-20261101T120000
	L=$$-$(date +%Y%m%dT%H%M%S) R=$$-20261101T080000
	for t in $A $B $L $R; do
		cp "$data/frames-s1-pre.csv" "$d/frames-$t-pre.csv"
		cp "$data/frames-s1-post.csv" "$d/frames-$t-post.csv"
	done
	cp "$data/gpu-s1-pre.csv" "$d/gpu-$B-pre.csv"
	cp "$data/gpu-s1-post.csv" "$d/gpu-$B-post.csv"
	cp "$data/expected-merged-s1.csv" "$d/frames-merged-$A.csv"
	cp "$data/frames-s1-pre.csv" "$d/frames-$C-pre.csv"
	cp "$data/bad-row-pre.csv" "$d/frames-$D-pre.csv"
	cp "$data/frames-s1-post.csv" "$d/frames-$D-post.csv"
	cp "$data/frames-s3-pre.csv" "$d/frames-$E-pre.csv"
	cp "$data/frames-s3-post.csv" "$d/frames-$E-post.csv"
	ln -s "$d/frames-$B-pre.csv" "$d/frames-999999005-20261101T130000-pre.csv"
	mkdir "$d/frames-999999006-20261101T130000-post.csv"
	cp "$data/frames-s1-pre.csv" "$d/frames-12-2026110T100000-pre.csv"
	exec 9<"$d/frames-$L-pre.csv"
}

# refused_calls TAG MESSAGE: merging session TAG's files in $work fails
# with MESSAGE (status 1) and writes neither the merged nor the functions file.
refused_calls() {
	run merge "$work/frames-$1-pre.csv" "$work/frames-$1-post.csv"
	expect_error 1 "$2"
	[ ! -e "$work/frames-merged-$1.csv" ] || fail "merged file written"
	[ ! -e "$work/functions-merged-$1.csv" ] || fail "functions file written"
}

# over_limit TAG FRAMES [GEN_OPTIONS]: merges a generated session under a
# 32 KiB file size limit: one error line, status 1, and nothing left but
# the session's own files.
over_limit() {
	tag=$1
	shift
	"$gen" "$work" "$tag" "$@" || fail "generator"
	(ulimit -f 64 && exec "$xrlm" merge "$work/frames-$tag-pre.csv" "$work/frames-$tag-post.csv" \
		-o "$work/m.csv") >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" -lt 128 ] || fail "killed by a signal (status $rc)"
	expect_error 1 "m.csv: error: cannot write: File too large"
	[ -z "$(ls -A "$work" | grep -v "^frames-$tag-\\|^gpu-$tag-\\|^calls-$tag-\\|^out$\\|^err$")" ] ||
		fail "left behind: $(ls -A "$work")"
}

# wait_tmp PID WHAT: returns once a hidden temporary output
# (.<name>.tmp-<pid>-<n>) is in $work, while process PID (xrlm WHAT) runs.
wait_tmp() {
	tries=0
	while [ -z "$(find "$work" -maxdepth 1 -name '.*.tmp-*' -print)" ]; do
		case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in
		Z|'') wait "$1"; fail "xrlm $2 ended (status $?) before its temporary file was seen" ;;
		esac
		tries=$((tries + 1))
		[ $tries -lt 3000 ] || { kill "$1"; fail "xrlm $2 made no temporary file in 30 s"; }
		sleep 0.01
	done
}

# interrupt SIG STATUS ARGS...: xrlm ARGS in the background, sent SIG once
# its temporary output is there, in the middle of its writes: it must die
# of SIG (status STATUS, 128 + SIG) and leave nothing beside what $work
# held before. env restores SIG's default action, which sh takes away
# from a background job's SIGINT.
interrupt() {
	sig=$1 status=$2
	shift 2
	: >"$work/out"
	: >"$work/err"
	before=$(ls -A "$work")
	env --default-signal="$sig" "$xrlm" "$@" >"$work/out" 2>"$work/err" &
	pid=$!
	wait_tmp $pid "$1"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ "$rc" -eq "$status" ] || fail "xrlm $1 after SIG$sig: status $rc, expected $status"
	[ "$(ls -A "$work")" = "$before" ] || fail "xrlm $1 after SIG$sig left: $(ls -A "$work")"
}

case "$case_name" in
help)
	run --help
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "xrlm merge PRE.csv POST.csv" "$work/out" || fail "no usage"
	grep -q "^stats    prints the same table" "$work/out" || fail "no stats entry"
	run stats --help
	[ "$rc" -eq 0 ] || fail "stats --help: status $rc"
	grep -q "^usage: xrlm stats MERGED.csv \[--all\]$" "$work/out" || fail "no stats usage"
	# After other arguments too (as a user adds it to a command that failed);
	# after "--" it is an argument like any other.
	run merge a.csv b.csv --help
	[ "$rc" -eq 0 ] && grep -q "^usage: xrlm merge " "$work/out" || fail "merge a b --help: status $rc: $(cat "$work/err")"
	run ctl mark 1 -- --help
	grep -q "^usage:" "$work/out" && fail "ctl mark 1 -- --help printed the usage"
	# A mark's words are its text: "-h" in it is no help.
	run ctl mark 1 note -h
	grep -q "^usage:" "$work/out" && fail "ctl mark 1 note -h printed the usage"
	;;
version)
	run --version
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^xrlm [0-9]" "$work/out" || fail "no version"
	;;
merge_siblings)
	# Default output name and sibling GPU discovery; the same bytes as the
	# library's golden file.
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	cmp "$work/frames-merged-s1.csv" "$data/expected-merged-s1.csv" || fail "merged file differs"
	[ "$(tail -n 1 "$work/out")" = "wrote $work/frames-merged-s1.csv" ] || fail "no 'wrote' line"
	grep -q "^matched frames: 3$" "$work/out" || fail "no matched frames line"
	grep -q "^target_gpu_us      (microseconds, GPU):$" "$work/out" || fail "no GPU block"
	grep -q "^    count  3$" "$work/out" || fail "no GPU count"
	grep -q "^frame_interval_us median: 11000.00  (~90.9 Hz)$" "$work/out" || fail "no interval line"
	[ ! -s "$work/err" ] || fail "unexpected stderr"
	;;
merge_no_gpu)
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^# gpu_frame_count=0$" "$work/m.csv" || fail "GPU used despite --no-gpu"
	[ "$(grep -c "(no samples)" "$work/out")" -eq 2 ] || fail "expected two '(no samples)' blocks"
	# Missing statistics are empty, not 0.
	for key in target_gpu_ms_mean target_gpu_ms_min target_gpu_ms_max target_gpu_pct_mean \
		target_gpu_pct_min target_gpu_pct_max target_gpu_us_p50 target_gpu_us_p99; do
		grep -q "^# $key=$" "$work/m.csv" || fail "$key is not empty"
	done
	grep -q "^# target_cpu_ms_mean=0.0183$" "$work/m.csv" || fail "CPU statistics missing"
	# xrlm stats reads new files (empty) and old ones (0) alike.
	sed '$d' "$work/out" >"$work/merge-table"
	run stats "$work/m.csv"
	cmp "$work/out" "$work/merge-table" || fail "stats differs on a file with empty values"
	sed 's/^\(# target_gpu_[a-z0-9_]*\)=$/\1=0.0000/' "$work/m.csv" >"$work/old.csv"
	run stats "$work/old.csv"
	cmp "$work/out" "$work/merge-table" || fail "stats differs on a file with 0 values"
	;;
merge_gpu_options)
	# Explicit GPU files from elsewhere override discovery: the session's
	# own GPU files beside it are another session's (s1's, which do not
	# join with s3's frames: discovered, they would fail the merge).
	cp "$data"/frames-s3-*.csv "$work"/
	cp "$data/gpu-s1-pre.csv" "$work/gpu-s3-pre.csv"
	cp "$data/gpu-s1-post.csv" "$work/gpu-s3-post.csv"
	run merge "$work/frames-s3-pre.csv" "$work/frames-s3-post.csv" -o "$work/discovered.csv"
	[ "$rc" -ne 0 ] || fail "the planted GPU files merged: they do not tell discovery from the options"
	run merge "$work/frames-s3-pre.csv" "$work/frames-s3-post.csv" \
		--gpu-pre "$data/gpu-s3-pre.csv" --gpu-post="$data/gpu-s3-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^# gpu_frame_count=2$" "$work/frames-merged-s3.csv" || fail "GPU files not used"
	;;
bracket_correction)
	# Post's measured clock-read share is subtracted from pre - post, once,
	# and reported; pre_us and post_us stay raw.
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/raw.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	sed 's/^display_time,/# bracket_correction_ns=500\n&/' "$data/frames-s1-post.csv" \
		>"$work/frames-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/fixed.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^# bracket_correction_ns=500$" "$work/fixed.csv" || fail "correction not reported"
	! grep -q "bracket_correction" "$work/raw.csv" || fail "correction reported without one"
	grep -v '^#' "$work/raw.csv" | tail -n +2 | cut -d, -f4-6 >"$work/raw.cols"
	grep -v '^#' "$work/fixed.csv" | tail -n +2 | cut -d, -f4-6 >"$work/fixed.cols"
	awk -F, 'NR == FNR { pre[FNR] = $1; post[FNR] = $2; t[FNR] = $3; next }
		$1 != pre[FNR] || $2 != post[FNR] || sprintf("%.3f", t[FNR] - 0.5) != $3 { bad++ }
		END { exit bad > 0 || FNR == 0 }' "$work/raw.cols" "$work/fixed.cols" ||
		fail "target_us is not pre_us - post_us - 0.5 us on every row"
	# negative_target_frames counts the frames below 0, not those at 0:
	# pre - post is 20, 20 and 15 us, so 20 us less leaves 0, 0, -5 and
	# 20.001 us less three frames below 0.
	for c in 20000/1 20001/3; do
		sed "s/^display_time,/# bracket_correction_ns=${c%/*}\\n&/" "$data/frames-s1-post.csv" \
			>"$work/frames-s1-post.csv"
		run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/neg.csv"
		[ "$rc" -eq 0 ] || fail "correction ${c%/*} ns: status $rc"
		grep -q "^# negative_target_frames=${c#*/}$" "$work/neg.csv" ||
			fail "correction ${c%/*} ns: $(grep negative_target_frames "$work/neg.csv"), expected ${c#*/}"
		rm "$work/neg.csv"
	done
	sed 's/^display_time,/# bracket_correction_ns=2000000\n&/' "$data/frames-s1-post.csv" \
		>"$work/frames-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/bad.csv"
	expect_error 1 "bracket_correction_ns is not a count of ns"
	;;
stats_reproduces_merge)
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "merge status $rc"
	sed '$d' "$work/out" >"$work/merge-table"
	run stats "$work/frames-merged-s1.csv"
	[ "$rc" -eq 0 ] || fail "stats status $rc"
	cmp "$work/out" "$work/merge-table" || fail "stats table differs from merge table"
	# The same on a larger, generated session with jittered values.
	"$gen" "$work" big 20000 || fail "generator"
	run merge "$work/frames-big-pre.csv" "$work/frames-big-post.csv"
	[ "$rc" -eq 0 ] || fail "merge big status $rc"
	sed '$d' "$work/out" >"$work/merge-table"
	run stats "$work/frames-merged-big.csv"
	cmp "$work/out" "$work/merge-table" || fail "stats table differs on the big session"
	;;
truncated_warns)
	cp "$data"/frames-trunc-*.csv "$work"/
	run merge "$work/frames-trunc-pre.csv" "$work/frames-trunc-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(grep -c "warning" "$work/err")" -eq 2 ] || fail "expected two warnings"
	grep -q "frames-trunc-pre.csv:10: warning:" "$work/err" || fail "warning lacks file:line"
	grep -q "^matched frames: 2$" "$work/out" || fail "wrong frame count"
	;;
stray_quote)
	# One stray '"' must not swallow the rest of a file as a "truncated
	# last row": an error naming the file and line, in every reader.
	copy_session s1
	sed 's/^2000,7,/2000,"7,/' "$data/frames-s1-pre.csv" >"$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "frames-s1-pre.csv:9: error: a field opened by '\"'"
	[ ! -e "$work/m.csv" ] || fail "output written"
	sed 's/^2000,7,/2000,7"x,/' "$data/frames-s1-pre.csv" >"$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "frames-s1-pre.csv:9: error: column 2 (thread_id)"
	cp "$data/frames-s1-pre.csv" "$work/"
	sed 's/^1000,/"1000,/' "$data/gpu-s1-post.csv" >"$work/gpu-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "gpu-s1-post.csv:[0-9]*: error: a field opened by"
	sed 's/^2000,7,/2000,"7,/' "$data/expected-merged-s1.csv" >"$work/merged.csv"
	run stats "$work/merged.csv"
	expect_error 1 "merged.csv:[0-9]*: error: a field opened by"
	# A comment line with a quote, after the rows.
	{ cat "$data/expected-merged-s1.csv"; printf '# note,"x\n# more\n'; } >"$work/merged.csv"
	run stats "$work/merged.csv"
	expect_error 1 "merged.csv:[0-9]*: error: a field opened by"
	;;
quoted_header)
	# A spreadsheet that quotes every text cell quotes the column names
	# too: every reader takes them (the same figures), while a name
	# quoted only in part is still a wrong header.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/plain.csv"
	[ "$rc" -eq 0 ] || fail "plain files: status $rc"
	cp "$work/out" "$work/plain-table"
	for f in frames-s1-pre frames-s1-post gpu-s1-pre calls-s1-post; do
		awk '!done && !/^#/ { gsub(/[^,]+/, "\"&\""); done = 1 } 1' "$work/$f.csv" >"$work/q" &&
			mv "$work/q" "$work/$f.csv"
	done
	grep -q '^"fn","thread_id",' "$work/calls-s1-post.csv" || fail "the test did not quote the header"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/quoted.csv"
	[ "$rc" -eq 0 ] || fail "quoted column names: status $rc"
	cmp -s "$work/plain.csv" "$work/quoted.csv" || fail "quoted column names: another merged file"
	awk '!done && !/^#/ { gsub(/[^,]+/, "\"&\""); done = 1 } 1' "$work/plain.csv" >"$work/m.csv"
	cp "$work/plain.functions.csv" "$work/m.functions.csv"
	run stats "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "stats of a merged file with quoted names: status $rc"
	sed 's/^"t_entry"/t_entry/; s/,"t_exit",/,"t_exit,/' "$work/frames-s1-pre.csv" >"$work/q"
	sed -i 's/^"display_time","thread_id",/"display_time","thread"_id,/' "$work/q"
	mv "$work/q" "$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/bad.csv"
	expect_error 1 "frames-s1-pre.csv:[0-9]*: error: wrong column header: column 2"
	;;
garbage_last_row)
	# Only a row cut short may be skipped: garbage on the last line is an error.
	copy_session s1
	{ cat "$data/frames-s1-pre.csv"; printf 'abc'; } >"$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "frames-s1-pre.csv:12: error: column 1 (display_time)"
	{ cat "$data/frames-s1-pre.csv"; printf '4000,x7,1'; } >"$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "frames-s1-pre.csv:12: error: column 2 (thread_id)"
	# A row really cut short is still skipped with a warning.
	{ cat "$data/frames-s1-pre.csv"; printf '4000,7,4500'; } >"$work/frames-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "frames-s1-pre.csv:12: warning: last row has no newline" "$work/err" || fail "no warning"
	;;
other_session)
	# Files of different sessions are refused, not merged into nothing.
	copy_session s1
	copy_session s2
	run merge "$work/frames-s1-pre.csv" "$work/frames-s2-post.csv" -o "$work/m.csv"
	expect_error 1 "frames-s2-post.csv: error: is of session s2 (by its name), but .*frames-s1-pre.csv is of session s1"
	[ ! -e "$work/m.csv" ] || fail "output written"
	# GPU files of another session, given by hand.
	cp "$data"/gpu-s3-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" \
		--gpu-pre "$work/gpu-s3-pre.csv" --gpu-post "$work/gpu-s3-post.csv" -o "$work/m.csv"
	expect_error 1 "gpu-s3-pre.csv: error: is of session s3"
	# The # session= line decides when both files have one, whatever their names.
	sed 's/^display_time,/# session=1-20260101T000000\n&/' "$data/frames-s1-pre.csv" >"$work/a.csv"
	sed 's/^display_time,/# session=2-20260101T000000\n&/' "$data/frames-s1-post.csv" >"$work/b.csv"
	run merge "$work/a.csv" "$work/b.csv" -o "$work/m.csv"
	expect_error 1 "b.csv: error: is of session 2-20260101T000000 (by its # session= line)"
	sed 's/^display_time,/# session=1-20260101T000000\n&/' "$data/frames-s1-post.csv" >"$work/b.csv"
	run merge "$work/a.csv" "$work/b.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "status $rc with the same session"
	# Nothing says which session: a merge that matches no frame is an error.
	sed 's/,7,/,8,/' "$data/frames-s1-post.csv" >"$work/b.csv"
	rm -f "$work/m.csv"
	run merge "$work/a.csv" "$work/b.csv" -o "$work/m.csv"
	expect_error 1 "a.csv: error: none of its 3 frames is in .*b.csv (3 frames)"
	[ ! -e "$work/m.csv" ] || fail "output written"
	sed 's/^\([0-9]\)000,/9\1000,/' "$data/gpu-s1-pre.csv" >"$work/gp.csv"
	sed 's/^\([0-9]\)000,/9\1000,/' "$data/gpu-s1-post.csv" >"$work/gq.csv"
	cp "$data/frames-s1-post.csv" "$work/b.csv"
	run merge "$work/a.csv" "$work/b.csv" --gpu-pre "$work/gp.csv" --gpu-post "$work/gq.csv" -o "$work/m.csv"
	expect_error 1 "gp.csv: error: none of its rows matches"
	# A GPU file of the other side.
	run merge "$work/a.csv" "$work/b.csv" --gpu-pre "$data/gpu-s1-post.csv" --gpu-post "$data/gpu-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "gpu-s1-post.csv:2: error: file is side=post, expected side=pre"
	# A tag is compared whole: the process's next session in the same
	# second (-2) is another one, by its # session= line or by its name.
	sed 's/^display_time,/# session=1-20260101T000000-2\n&/' "$data/frames-s1-post.csv" >"$work/b.csv"
	run merge "$work/a.csv" "$work/b.csv" -o "$work/m.csv"
	expect_error 1 "b.csv: error: is of session 1-20260101T000000-2 (by its # session= line)"
	cp "$data/frames-s1-pre.csv" "$work/frames-7-20260101T000000-pre.csv"
	cp "$data/frames-s1-post.csv" "$work/frames-7-20260101T000000-2-post.csv"
	run merge "$work/frames-7-20260101T000000-pre.csv" "$work/frames-7-20260101T000000-2-post.csv" -o "$work/m.csv"
	expect_error 1 "is of session 7-20260101T000000-2 (by its name)"
	[ ! -e "$work/m.csv" ] || fail "output written"
	# A name that is no per-side file's (here a merged file's) says
	# nothing of its session: the rows decide.
	cp "$data/frames-s1-pre.csv" "$work/frames-merged-q.csv"
	run merge "$work/frames-merged-q.csv" "$data/frames-s1-post.csv" --no-gpu -o "$work/q.csv"
	[ "$rc" -eq 0 ] || fail "a merged file's name taken for a session's: status $rc"
	# The two sides' brackets are subtracted: they must be of one clock.
	sed 's/^# clock=CLOCK_MONOTONIC$/# clock=CLOCK_BOOTTIME/' "$data/frames-s1-post.csv" >"$work/frames-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-gpu -o "$work/m.csv"
	expect_error 1 "frames-s1-post.csv: error: clock=CLOCK_BOOTTIME but .*frames-s1-pre.csv has clock=CLOCK_MONOTONIC"
	[ ! -e "$work/m.csv" ] || fail "output written with two clocks"
	;;
write_limit)
	# Past a file size limit: one line, a non-zero exit, no file left behind.
	over_limit big 20000
	;;
calls_write_limit)
	# The same with calls files: the functions file, written first, is
	# removed again when the merged file fails, so a later try can succeed.
	over_limit big 20000 --no-gpu --calls 12
	;;
gate_column)
	# The GPU mode and the gate's trips in the summary and the table; the
	# tripped frames marked in the last column, gate_tripped.
	copy_session gate
	run merge "$work/frames-gate-pre.csv" "$work/frames-gate-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	m=$work/frames-merged-gate.csv
	grep -q "^# gpu_mode=gated$" "$m" || fail "no gpu_mode line"
	grep -q "^# gate_trips=1$" "$m" || fail "no gate_trips line"
	grep -q "^display_time,.*,target_gpu_pct_of_frame,target_wait_us,.*,app_submit_us,target_gpu_raw_us,gate_tripped$" "$m" ||
		fail "the calls columns and target_gpu_raw_us do not follow column 9, or gate_tripped is not last"
	[ "$(grep -v '^#' "$m" | tail -n +2 | cut -d, -f1,23 | tr '\n' ' ')" = "1000,0 2000,1 3000,0 " ] ||
		fail "gate_tripped column wrong"
	grep -q "^GPU mode: gated, the plain sandwich after its trip; gate tripped: 1 time$" "$work/out" ||
		fail "table lacks the GPU mode"
	grep -q "^unmatched frames: 0 pre only, 0 post only; truncated rows skipped: 0$" "$work/out" ||
		fail "table lacks the unmatched counts"
	sed '$d' "$work/out" >"$work/merge-table"
	run stats "$m"
	cmp "$work/out" "$work/merge-table" || fail "stats table differs from merge table"
	# A gate_tripped that is neither 0 nor 1: an error at its row.
	for v in 2 7; do
		awk -F, -v OFS=, -v v=$v '/^2000,/ { $23 = v } 1' "$m" >"$work/g.csv"
		line=$(grep -n '^2000,' "$work/g.csv" | cut -d: -f1)
		run stats "$work/g.csv"
		expect_error 1 "g.csv:$line: error: column 23 (gate_tripped) is not 0 or 1$"
	done
	# Without GPU files the column is blank and the table says so.
	run merge "$work/frames-gate-pre.csv" "$work/frames-gate-post.csv" --no-gpu -o "$work/n.csv"
	[ "$(grep -v '^#' "$work/n.csv" | tail -n +2 | cut -d, -f10 | tr -d '\n')" = "" ] ||
		fail "gate_tripped not blank without GPU files"
	grep -q "^GPU mode: none (no GPU files)$" "$work/out" || fail "table: no GPU mode none"
	# An older GPU file says only that the gate tripped, not in which frame.
	grep -v "gate_tripped display_time" "$data/gpu-gate-pre.csv" >"$work/gpu-gate-pre.csv"
	echo "# gpu_gate_tripped=1 (the target waited for its own GPU work: sandwich mode from then on)" \
		>>"$work/gpu-gate-pre.csv"
	run merge "$work/frames-gate-pre.csv" "$work/frames-gate-post.csv" -o "$work/o.csv"
	grep -q "^# gate_trips=1$" "$work/o.csv" || fail "older trip line not counted"
	# Merged files written before the column are still read.
	run stats "$data/merged-v1-s1.csv"
	[ "$rc" -eq 0 ] || fail "stats on an older merged file: status $rc"
	grep -q "^GPU mode: not recorded" "$work/out" || fail "older file: GPU mode line"
	# A frame named twice (in one file, or in both) is one trip; an older
	# file's line beside named frames adds none; each named frame counts.
	copy_session gate
	echo "# gate_tripped display_time=2000" >>"$work/gpu-gate-pre.csv"
	echo "# gpu_gate_tripped=1" >>"$work/gpu-gate-pre.csv"
	echo "# gate_tripped display_time=2000" >>"$work/gpu-gate-post.csv"
	run merge "$work/frames-gate-pre.csv" "$work/frames-gate-post.csv" -o "$work/t1.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^# gate_trips=1$" "$work/t1.csv" || fail "one frame named thrice: $(grep gate_trips "$work/t1.csv")"
	echo "# gate_tripped display_time=3000" >>"$work/gpu-gate-post.csv"
	run merge "$work/frames-gate-pre.csv" "$work/frames-gate-post.csv" -o "$work/t2.csv"
	grep -q "^# gate_trips=2$" "$work/t2.csv" || fail "two frames: $(grep gate_trips "$work/t2.csv")"
	[ "$(grep -v '^#' "$work/t2.csv" | tail -n +2 | cut -d, -f1,23 | tr '\n' ' ')" = "1000,0 2000,1 3000,1 " ] ||
		fail "gate_tripped column wrong with two trips"
	;;
gpu_period_range)
	# A gpu_period_ns no clock has (negative, huge) is a corrupt GPU file:
	# refused at its line as xrlm trace refuses it, not every GPU value
	# dropped in silence.
	for p in -1 1e308; do
		copy_session s1
		sed -i "7s/,1,1\$/,$p,1/" "$work/gpu-s1-post.csv"
		run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
		expect_error 1 "gpu-s1-post.csv:7: error: gpu_period_ns out of range$"
		[ ! -e "$work/frames-merged-s1.csv" ] || fail "gpu_period_ns $p: merged file written"
	done
	;;
merged_columns)
	# The merged CSV's columns as the interface fixes them: its nine, the
	# twelve every-function columns, target_gpu_raw_us, and gate_tripped
	# last. Older files, gate_tripped tenth, give xrlm stats the same table.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	m=$work/frames-merged-s1.csv
	h=$(grep -v '^#' "$m" | head -n 1)
	[ "$(echo "$h" | cut -d, -f1-9)" = "display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame" ] ||
		fail "columns 1-9 are not the interface's: $h"
	[ "$(echo "$h" | cut -d, -f10-22)" = "target_wait_us,target_begin_us,target_end_us,target_locate_views_us,target_sync_actions_us,target_swapchain_us,target_other_us,target_total_us,app_wait_us,app_cpu_us,app_render_us,app_submit_us,target_gpu_raw_us" ] ||
		fail "columns 10-22 are not the interface's: $h"
	[ "$(echo "$h" | cut -d, -f23-)" = "gate_tripped" ] || fail "gate_tripped is not last: $h"
	run stats "$data/expected-merged-s1.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "stats on a new file: status $rc"
	cp "$work/out" "$work/new-table"
	run stats "$data/merged-v2-s1.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "stats on a file with gate_tripped tenth: status $rc"
	cmp "$work/out" "$work/new-table" || fail "stats: the older layout's table differs"
	;;
merged_rows_check)
	# A merged file's rows against its summary's frame_count: a copy cut at
	# a row's end, rows added, a frame_count that is no count: one warning
	# from each reader (stats, compare, report, xlsx, ls); a whole file none.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "merge status $rc"
	m=$work/frames-merged-s1.csv
	for cmd in stats compare report xlsx; do
		case $cmd in
		compare) run compare "$m" "$m" ;;
		stats) run stats "$m" ;;
		*) run "$cmd" "$m" -o "$work/whole.$cmd" ;;
		esac
		[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "$cmd of a whole file: status $rc or stderr"
	done
	mkdir "$work/cut"
	rows=$(grep -c '^[0-9]' "$m")
	head -n -1 "$m" >"$work/cut/frames-merged-s1.csv"
	cut=$work/cut/frames-merged-s1.csv
	# Its own functions file beside it: of the same session (the summary's
	# frame count), so the one warning is the cut's.
	cp "$work/functions-merged-s1.csv" "$work/cut/"
	for cmd in stats compare report xlsx; do
		read_back "$cmd" "$cut" "$m" "$work/cut.$cmd"
		[ "$rc" -eq 0 ] || fail "$cmd of a cut file: status $rc"
		stderr_once "^xrlm: $cut: warning: $((rows - 1)) rows, but its summary says frame_count=$rows (cut short, or rows added?)"
	done
	rm "$work/cut/functions-merged-s1.csv"
	grep -q "cut short, or rows added" "$work/cut.report" || fail "the report's page does not say it"
	t=999999001-20261101T100000
	mv "$cut" "$work/cut/frames-merged-$t.csv"
	cp "$work/frames-s1-pre.csv" "$work/cut/frames-$t-pre.csv"
	cp "$work/frames-s1-post.csv" "$work/cut/frames-$t-post.csv"
	run ls "$work/cut"
	grep -q "warning: $((rows - 1)) rows, but its summary says frame_count=$rows" "$work/err" ||
		fail "ls: no warning for a cut file"
	{ cat "$m"; grep '^[0-9]' "$m"; } >"$work/twice.csv"
	run stats "$work/twice.csv"
	grep -q "warning: $((rows * 2)) rows, but its summary says frame_count=$rows" "$work/err" ||
		fail "no warning for rows added"
	sed 's/^# frame_count=.*/# frame_count=3x/' "$m" >"$work/bad.csv"
	run stats "$work/bad.csv"
	grep -q "warning: its summary's frame_count is not a count (\"3x\")" "$work/err" ||
		fail "no warning for a frame_count that is no count"
	;;
functions_check)
	# A functions file shown with a merged file is checked against it: its
	# frame_count (another session's table), its shares (rows cut off).
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "merge: status $rc or stderr"
	m=$work/frames-merged-s1.csv f=$work/functions-merged-s1.csv
	cp "$f" "$work/f.keep"
	sed 's/^# frame_count=.*/# frame_count=999/' "$work/f.keep" >"$f"
	for cmd in stats report xlsx; do
		case $cmd in
		stats) run stats "$m" ;;
		*) run "$cmd" "$m" -o "$work/other.$cmd" ;;
		esac
		[ "$rc" -eq 0 ] || fail "$cmd: status $rc"
		stderr_once "^xrlm: $f: warning: its frame_count=999 is not its merged file's 3 frames: another session's table?$"
	done
	run report "$m" -o "$work/given.html" --functions "$f"
	stderr_once "its frame_count=999 is not its merged file's 3 frames"
	# Both warnings on the page: the merged file's (cut) and the table's.
	head -n -1 "$m" >"$work/cut.csv"
	run report "$work/cut.csv" -o "$work/cut.html" --functions "$f"
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$work/err")" -eq 2 ] || fail "report of a cut file and another's table: status $rc"
	page_json "$work/cut.html" | python3 -c '
import json, sys
w = json.load(sys.stdin)["warnings"]
assert len(w) == 2 and "cut short" in w[0] and "frame_count=999" in w[1], w
' || fail "the page does not show both warnings"
	# A merged file without its frame_count line: its rows are its frames.
	mkdir "$work/nofc"
	grep -v '^# frame_count=' "$m" >"$work/nofc/frames-merged-s1.csv"
	cp "$work/f.keep" "$work/nofc/functions-merged-s1.csv"
	for cmd in stats report xlsx; do
		read_back "$cmd" "$work/nofc/frames-merged-s1.csv" "$m" "$work/nofc/o.$cmd"
		[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "$cmd of a file without frame_count: status $rc or stderr"
	done
	# ... nor when it is no count (its own warning only).
	sed 's/^# frame_count=.*/# frame_count=x/' "$m" >"$work/nofc/frames-merged-s1.csv"
	run stats "$work/nofc/frames-merged-s1.csv"
	stderr_once "warning: its summary's frame_count is not a count"
	head -n 4 "$work/f.keep" >"$f"
	run stats "$m"
	stderr_once "^xrlm: $f: warning: its functions' shares add up to [0-9.]* %, not 100: rows missing or added?$"
	sed 's/^# frame_count=.*/# frame_count=x/' "$work/f.keep" >"$f"
	run stats "$m"
	stderr_once "warning: its frame_count is not a count (\"x\")"
	grep -v '^# frame_count=' "$work/f.keep" >"$f"
	run stats "$m"
	stderr_once "warning: no frame_count line: it cannot be told to be its merged file's (3 frames)"
	# An older file's header is the full one cut after a column (from the
	# twelfth on), not inside a name.
	awk -F, 'BEGIN { OFS = "," } /^#/ { print; next } { NF = 13 } /^fn,/ { $13 = "induced" } { print }' \
		"$work/f.keep" >"$f"
	run stats "$m"
	expect_error 1 "functions-merged-s1.csv:[0-9]*: error: wrong column header: column 13 is \"induced\", expected \"induced_us\""
	cp "$work/f.keep" "$f"
	run stats "$m"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "its own table: status $rc or stderr"
	;;
gpu_mode_text)
	# A GPU mode is one of the modes, never any text to print (a terminal
	# escape in a damaged or hostile file).
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge status $rc"
	esc=$(printf '\033[2J')
	sed "s/^# gpu_mode=.*/# gpu_mode=${esc}x/" "$work/m.csv" >"$work/esc.csv"
	run stats "$work/esc.csv"
	expect_error 1 "gpu_mode is not a GPU mode (gated, sandwich, unknown or empty): \"?\[2Jx\"$"
	grep -q -F "$esc" "$work/out" "$work/err" && fail "the escape reached the terminal"
	# Nor a table's cells: a function's name, a frame count in ls.
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/c.csv"
	[ "$rc" -eq 0 ] || fail "merge with calls: status $rc"
	sed "s/^xrEndFrame,/xrEnd${esc}Frame,/" "$work/c.functions.csv" >"$work/f.csv"
	mv "$work/f.csv" "$work/c.functions.csv"
	run stats "$work/c.csv" --all
	grep -q -F "$esc" "$work/out" "$work/err" && fail "a function's name sent the escape to the terminal"
	grep -q "^xrEnd?\[2JFrame " "$work/out" || fail "the function's row is not shown with '?'"
	mkdir "$work/ls"
	t=999999001-20261101T100000
	sed "s/^# frame_count=\(.*\)/# frame_count=${esc}\1/" "$work/m.csv" >"$work/ls/frames-merged-$t.csv"
	cp "$work/frames-s1-pre.csv" "$work/ls/frames-$t-pre.csv"
	cp "$work/frames-s1-post.csv" "$work/ls/frames-$t-post.csv"
	run ls "$work/ls"
	grep -q -F "$esc" "$work/out" "$work/err" && fail "ls sent the escape to the terminal"
	grep -q "merged, ?\[2J3 frames" "$work/out" || fail "ls does not show the frame count with '?'"
	rm "$work"/calls-s1-*.csv
	sed "s/^# side=pre$/&\\n# gpu_mode=${esc}x/" "$data/gpu-s1-pre.csv" >"$work/gpu-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m2.csv"
	expect_error 1 "gpu-s1-pre.csv:[0-9]*: error: gpu_mode is neither gated nor sandwich"
	grep -q -F "$esc" "$work/out" "$work/err" && fail "the escape reached the terminal"
	;;
summary_lines)
	# Every tool that reads a merged file back reads its summary alike: a
	# gpu_mode that is no mode is an error for each (it was for stats
	# only); blanks around '=' are no part of a key or value; a key given
	# twice is read as its first, with a warning; a byte-order mark is one
	# clear message whatever the tool.
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge status $rc"
	sed 's/^# gpu_mode=.*/# gpu_mode=bogus/' "$work/m.csv" >"$work/g.csv"
	for cmd in stats report xlsx compare; do
		read_back "$cmd" "$work/g.csv" "$work/m.csv" "$work/g.$cmd"
		[ "$rc" -ne 0 ] || fail "$cmd took gpu_mode=bogus"
		stderr_once 'gpu_mode is not a GPU mode (gated, sandwich, unknown or empty): "bogus"'
	done
	[ ! -e "$work/g.report" ] && [ ! -e "$work/g.xlsx" ] || fail "an output was written"
	mkdir "$work/ls"
	t=999999001-20261101T100000
	cp "$work/g.csv" "$work/ls/frames-merged-$t.csv"
	run ls "$work/ls"
	grep -q "merged, 3 frames" "$work/out" && fail "ls lists the file as a good merged file"
	# Blanks around '=': the key is target_layer for report as for stats.
	sed 's/^# target_layer=\(.*\)/# target_layer = Spaced\1/' "$work/m.csv" >"$work/s.csv"
	run report "$work/s.csv" -o "$work/s.html"
	[ "$rc" -eq 0 ] || fail "report of blanks around '=': status $rc"
	grep -q '"target_layer":"SpacedXR_APILAYER' "$work/s.html" || fail "report does not see 'target_layer = '"
	# ... and stats, xlsx and compare frame_count: the rows of a cut file
	# are checked against ' = 3'.
	head -n -1 "$work/m.csv" | sed 's/^# frame_count=/# frame_count = /' >"$work/sc.csv"
	for cmd in stats xlsx compare; do
		read_back "$cmd" "$work/sc.csv" "$work/m.csv" "$work/sc.$cmd"
		[ "$rc" -eq 0 ] || fail "$cmd of blanks around '=': status $rc"
		stderr_once "sc.csv: warning: 2 rows, but its summary says frame_count=3 (cut short"
	done
	# A key twice: the first, and a warning, for stats as for report.
	sed 's/^# target_layer=.*/&\n# target_layer=Second/' "$work/m.csv" >"$work/d.csv"
	run stats "$work/d.csv"
	[ "$rc" -eq 0 ] || fail "stats of a key given twice: status $rc"
	stderr_once "d.csv: warning: the summary gives target_layer more than once (an edited or joined file?): the first is used$"
	grep -q "Second" "$work/out" && fail "stats took the second target_layer"
	# frame_count given twice: the first is the one the rows are checked
	# against (no second warning, of 3 rows against 999).
	sed 's/^# frame_count=.*/&\n# frame_count=999/' "$work/m.csv" >"$work/f.csv"
	run stats "$work/f.csv"
	stderr_once "f.csv: warning: the summary gives frame_count more than once"
	# A '#' line after the rows is no summary line: no key given twice.
	{ cat "$work/m.csv"; echo "# frame_count=999"; } >"$work/after.csv"
	run stats "$work/after.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "a '#' line after the rows read as the summary's"
	# Two keys given twice: the first of them is named (b, repeated
	# before a is). A key of 64 bytes or more is never taken for a repeat,
	# nor for the 63 bytes it begins with.
	k63=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk
	{ printf '# a=1\n# b=1\n# b=2\n# a=2\n'; cat "$work/m.csv"; } >"$work/t.csv"
	run stats "$work/t.csv"
	[ "$rc" -eq 0 ] || fail "stats of two keys given twice: status $rc"
	stderr_once "t.csv: warning: the summary gives b more than once (an edited or joined file?): the first is used$"
	{ printf '# %sx=1\n# %s=2\n' "$k63" "$k63"; cat "$work/m.csv"; } >"$work/k.csv"
	run stats "$work/k.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "a key of 64 bytes taken for the 63 it begins with"
	# The last of a merge's ~60 keys, given twice (after the others).
	last=$(grep '^# [a-z_0-9]*=' "$work/m.csv" | tail -n 1)
	sed "/^display_time,/i $last" "$work/m.csv" >"$work/l.csv"
	run stats "$work/l.csv"
	stderr_once "l.csv: warning: the summary gives $(echo "$last" | sed 's/^# \([^=]*\)=.*/\1/') more than once"
	# A median frame interval of 0 has no rate (it read "~0.0 Hz").
	sed -E '/^[0-9]/s/^([0-9]+),([0-9]+),[0-9.]+,/\1,\2,0.000,/' "$work/m.csv" >"$work/z.csv"
	run stats "$work/z.csv"
	grep -q "^frame_interval_us median: 0.00  (no frame rate)$" "$work/out" || fail "a rate of a 0 us interval"
	# A byte-order mark: the same words from every reader.
	printf '\357\273\277' | cat - "$work/m.csv" >"$work/bom.csv"
	for cmd in stats report compare; do
		read_back "$cmd" "$work/bom.csv" "$work/m.csv" "$work/bom.$cmd"
		[ "$rc" -ne 0 ] || fail "$cmd took a byte-order mark"
		stderr_once "bom.csv:1: error: the file begins with a UTF-8 byte-order mark (saved by a spreadsheet?): save it as CSV without one$"
	done
	;;
phases_recorded_line)
	# What XRLM_FUNCTIONS left out is said under the counts (its columns
	# are blank), by merge's table and stats'; nothing when every phase is.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge status $rc"
	grep -q "^phases recorded" "$work/out" && fail "merge: a line where every phase was recorded"
	grep -q "^# phases_recorded=wait,begin,end,locate_views,sync_actions,swapchain,other$" "$work/m.csv" ||
		fail "no phases_recorded line"
	sed 's/^# phases_recorded=.*/# phases_recorded=wait,begin,end/' "$work/m.csv" >"$work/p.csv"
	run stats "$work/p.csv"
	grep -q "^phases recorded: wait,begin,end (XRLM_FUNCTIONS left the others out: their columns and target_total_us are blank)$" \
		"$work/out" || fail "stats does not say what was left out"
	grep -v '^# phases_recorded=' "$work/m.csv" >"$work/old.csv"
	run stats "$work/old.csv"
	grep -q "^phases recorded" "$work/out" && fail "a file before the line read as leaving phases out"
	sed 's/^# phases_recorded=.*/# phases_recorded=wait,bogus/' "$work/m.csv" >"$work/bad.csv"
	run stats "$work/bad.csv"
	expect_error 1 "phases_recorded is not a list of phases: \"wait,bogus\""
	;;
calls_table)
	# With calls files: the every-function columns, the functions file, and
	# the per-function table (15 rows; --all: all 18) under the statistics,
	# the same from xrlm stats, which finds the functions file by name.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ ! -s "$work/err" ] || fail "unexpected stderr"
	m=$work/frames-merged-s1.csv f=$work/functions-merged-s1.csv
	tail -n 2 "$work/out" | grep -q "^wrote $f$" || fail "no 'wrote' line for the functions file"
	grep -q -E ",target_gpu_pct_of_frame,target_wait_us,.*,app_submit_us(,target_gpu_raw_us)?,gate_tripped$" "$m" ||
		fail "no every-function columns"
	grep -q "^# induced_calls=0$" "$m" || fail "no calls counts"
	grep -q "^# own_thread_calls=3$" "$m" || fail "own-thread calls not counted"
	# Calls a ring had no room for reach the summary from the calls files' footers.
	grep -q "^# calls_dropped_queue_full_pre=0$" "$m" || fail "no calls_dropped_queue_full_pre line"
	# pre's frames file says its ring dropped 2 records: said under the counts.
	grep -q "^frames lost (a ring was full, not recorded): 2 pre, 0 post; the frame intervals around them span them$" \
		"$work/out" || fail "merge does not show the frames lost"
	grep -q "^calls lost" "$work/out" && fail "calls lost shown where there were none"
	sed 's/^# session_end dropped_queue_full=.*/# session_end dropped_queue_full=7/' \
		"$data/calls-s1-post.csv" >"$work/calls-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/d.csv"
	grep -q "^# calls_dropped_queue_full_post=7$" "$work/d.csv" || fail "calls lost on post's ring not counted"
	# Losses are shown under the counts, by merge and by stats alike.
	grep -q "^calls lost (a ring was full, not recorded): 0 pre, 7 post$" "$work/out" ||
		fail "merge does not show the calls lost"
	sed 's/^# dropped_queue_full_pre=.*/# dropped_queue_full_pre=5/' "$work/d.csv" >"$work/lost.csv"
	cp "$work/functions-merged-s1.csv" "$work/lost.functions.csv"
	run stats "$work/lost.csv"
	grep -q "^frames lost (a ring was full, not recorded): 5 pre, 0 post; the frame intervals around them span them$" \
		"$work/out" || fail "stats does not show the frames lost"
	grep -q "^calls lost (a ring was full, not recorded): 0 pre, 7 post$" "$work/out" ||
		fail "stats does not show the calls lost"
	cp "$data/calls-s1-post.csv" "$work/"
	[ "$(grep -c '^xr' "$f")" -eq 18 ] || fail "functions file has not 18 rows"
	grep -q "^per function (.*; 15 of 18 functions, most time first; --all for every one):$" \
		"$work/out" || fail "no per-function table heading"
	sed -n '/^per function/,/^wrote/p' "$work/out" | grep -v '^wrote' >"$work/merge.table"
	[ "$(grep -c '^xr' "$work/merge.table")" -eq 15 ] || fail "not 15 rows"
	# the top row has the most target time, the own-thread column counts
	sed -n 3p "$work/merge.table" | grep -q "^xrApplyHapticFeedback  *other  *3  *1.00  *105.00 " ||
		fail "top row: $(sed -n 3p "$work/merge.table")"
	grep -q "^xrPollEvent  *other .* 0  *3$" "$work/merge.table" || fail "own-thread calls not shown"
	# every row after it has no more target time than the one above (column 5)
	awk '/^xr/ { if (n++ && $5 > last) bad = 1; last = $5 } END { exit bad || n != 15 }' \
		"$work/merge.table" || fail "the rows are not in order of target time: $(cat "$work/merge.table")"
	run stats "$m"
	[ "$rc" -eq 0 ] || fail "stats status $rc"
	sed -n '/^per function/,$p' "$work/out" >"$work/stats.table"
	cmp -s "$work/merge.table" "$work/stats.table" || fail "stats prints another table"
	run stats "$m" --all
	[ "$(sed -n '/^per function/,$p' "$work/out" | grep -c '^xr')" -eq 18 ] || fail "--all: not 18 rows"
	grep -q "; 18 of 18 functions):$" "$work/out" || fail "--all heading"
	# A merged file whose functions file is gone: the statistics, and a warning.
	rm "$f"
	run stats "$m"
	[ "$rc" -eq 0 ] || fail "stats without functions file: status $rc"
	stderr_once "warning: no per-function table: $f is missing"
	grep -q "^per function" "$work/out" && fail "a table without its file"
	# An old merged file (no calls columns) reads as before, no table.
	run stats "$data/expected-merged-s1.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "old merged file"
	grep -q "^per function" "$work/out" && fail "a table for an old file"
	;;
calls_options)
	# --no-calls: today's merged file; one calls file: a warning, today's file;
	# -o OUT: the functions file next to it, named after it.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" --no-calls
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "--no-calls: status $rc"
	cmp "$work/frames-merged-s1.csv" "$data/expected-merged-s1.csv" || fail "--no-calls: file differs"
	[ -e "$work/functions-merged-s1.csv" ] && fail "--no-calls wrote a functions file"
	rm "$work/frames-merged-s1.csv" "$work/calls-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "one calls file: status $rc"
	stderr_once "calls-s1-pre.csv: warning: no calls file for the post side"
	cmp "$work/frames-merged-s1.csv" "$data/expected-merged-s1.csv" || fail "one calls file: differs"
	cp "$data/calls-s1-post.csv" "$work/"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/run.csv"
	[ "$rc" -eq 0 ] || fail "-o: status $rc"
	[ -s "$work/run.functions.csv" ] || fail "-o: no run.functions.csv"
	run stats "$work/run.csv"
	grep -q "^per function" "$work/out" || fail "stats does not find run.functions.csv"
	;;
calls_errors)
	# A bad calls file: one line naming file and line, status 1, nothing written.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	sed -i '9s/,[0-9]*,[0-9]*,1,0$/,500,400,1,0/' "$work/calls-s1-pre.csv"
	refused_calls s1 "calls-s1-pre.csv:9: error: t_exit is before t_entry$"
	cp "$data/calls-s1-pre.csv" "$work/"
	printf 'xrEndFrame,7,1,2,3\nxrEndFrame,7,1,2,3,0\n' >>"$work/calls-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	expect_error 1 "calls-s1-post.csv:41: error: "
	# A truncated last row is a warning, as in the frames files.
	cp "$data/calls-s1-post.csv" "$work/"
	printf 'xrPollEvent,8,99999999,999' >>"$work/calls-s1-post.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "truncated: status $rc"
	stderr_once "calls-s1-post.csv:41: warning: "
	grep -q "^# truncated_rows=1$" "$work/frames-merged-s1.csv" || fail "truncated row not counted"
	;;
calls_empty)
	# A calls file with its metadata and header only (its writer killed
	# before the calls were flushed) beside a frames file with rows: still
	# merged, with one warning naming it; the full file beside it, none.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	grep '^#\|^fn,' "$data/calls-s1-pre.csv" | grep -v '^# session_end' >"$work/calls-s1-pre.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	stderr_once "calls-s1-pre.csv: warning: no calls, while $work/frames-s1-pre.csv has 3 frames: the per-function figures are not the target's$"
	[ -s "$work/functions-merged-s1.csv" ] || fail "no functions file"
	grep -q "^matched frames: 3$" "$work/out" || fail "frames not merged"
	;;
calls_errors_late)
	# A bad row late in a long session's calls file: the rows' pass, which
	# takes the sandwich's xrEndFrame calls as they come, must not wait for
	# ever when the sandwich stops; one error line, status 1, nothing written.
	"$gen" "$work" t 40000 --calls 2 || fail "generator"
	for side in pre post; do
		cp "$work/calls-t-$side.csv" "$work/good-$side.csv"
		sed -i '70000s/^\([A-Za-z]*\),\([0-9]*\),[0-9]*,[0-9]*,/\1,\2,500,400,/' "$work/calls-t-$side.csv"
		refused_calls t "calls-t-$side.csv:70000: error: t_exit is before t_entry$"
		cp "$work/good-$side.csv" "$work/calls-t-$side.csv"
	done
	run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv"
	[ "$rc" -eq 0 ] || fail "restored: status $rc"
	;;
frames_errors_late)
	# A bad row late in a long session's frames or GPU file: the
	# statistics, which read the joined records as the join publishes
	# them, must not wait for ever when the join stops; one error line,
	# status 1, nothing written.
	"$gen" "$work" t 40000 || fail "generator"
	for f in frames-t-pre frames-t-post gpu-t-pre gpu-t-post; do
		cp "$work/$f.csv" "$work/good.csv"
		sed -i '30000s/^[0-9]*,/abc,/' "$work/$f.csv"
		run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv"
		expect_error 1 "$f.csv:30000: error: column 1 (display_time) is not an integer"
		[ ! -e "$work/frames-merged-t.csv" ] || fail "$f: merged file written"
		cp "$work/good.csv" "$work/$f.csv"
	done
	run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv"
	[ "$rc" -eq 0 ] || fail "restored: status $rc"
	;;
calls_merge_dir)
	# xrlm merge DIR merges the calls files too.
	t=999999007-20261101T100000
	for k in frames calls; do
		for side in pre post; do cp "$data/$k-s1-$side.csv" "$work/$k-$t-$side.csv"; done
	done
	run merge "$work"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ -s "$work/functions-merged-$t.csv" ] || fail "no functions file"
	grep -q -E ",app_submit_us(,target_gpu_raw_us)?,gate_tripped$" "$work/frames-merged-$t.csv" ||
		fail "no every-function columns"
	# A merge killed between its functions file and its merged file left
	# the former alone: removed, and the session merged again.
	rm "$work/frames-merged-$t.csv"
	run merge "$work"
	[ "$rc" -eq 0 ] || fail "a functions file without its merged file stopped the merge: status $rc"
	grep -q "^$t: removed the functions file of a merge cut short$" "$work/out" ||
		fail "no line for the functions file removed"
	[ -s "$work/frames-merged-$t.csv" ] && [ -s "$work/functions-merged-$t.csv" ] ||
		fail "not merged again"
	# Another xrlm merging the session now (its merged file's temporary
	# file, which it holds open, named with its pid) has placed its
	# functions file and not yet its merged file: neither removed nor
	# merged beside it.
	rm "$work/frames-merged-$t.csv"
	hold_tmp "$work/frames-merged-$t.csv"
	mp=$holder
	run merge "$work"
	kill $mp
	wait $mp 2>/dev/null
	[ "$rc" -eq 0 ] || fail "a session another merge writes: status $rc"
	grep -q "^$t: skipped: pid $mp is merging it$" "$work/out" || fail "no line for the merge in progress"
	[ -s "$work/functions-merged-$t.csv" ] || fail "the running merge's functions file removed"
	[ ! -e "$work/frames-merged-$t.csv" ] || fail "merged beside the running merge"
	# Once that process is gone its files are a merge cut short's.
	run merge "$work"
	[ "$rc" -eq 0 ] || fail "after the other merge died: status $rc"
	grep -q "^$t: removed 1 temporary file of a merge cut short$" "$work/out" &&
		grep -q "^$t: removed the functions file of a merge cut short$" "$work/out" ||
		fail "what the dead merge left not removed"
	[ -s "$work/frames-merged-$t.csv" ] || fail "not merged after the other merge died"
	# A temporary file whose pid a later process has again (this shell,
	# which does not hold it): no merge at work, the session merged; the
	# file, whose writer cannot be told gone, left.
	rm "$work/frames-merged-$t.csv" "$work/functions-merged-$t.csv"
	: >"$work/.frames-merged-$t.csv.tmp-$$-1"
	run merge "$work"
	[ "$rc" -eq 0 ] && grep -q "^$t: merged " "$work/out" ||
		fail "a pid used again stopped the merge: $(cat "$work/out")"
	[ -e "$work/.frames-merged-$t.csv.tmp-$$-1" ] || fail "a live pid's temporary file removed"
	;;
threads)
	# The merged and functions files have the same bytes whatever the
	# threads: a session long enough for several reader threads, row
	# blocks per writer and statistics threads, with GPU and calls files.
	"$gen" "$work" t 40000 --calls 2 || fail "generator"
	for n in 1 2 3 8; do
		run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv" --threads "$n" -o "$work/m$n.csv"
		[ "$rc" -eq 0 ] || fail "--threads $n: status $rc: $(cat "$work/err")"
	done
	for n in 2 3 8; do
		cmp -s "$work/m1.csv" "$work/m$n.csv" || fail "--threads $n: other merged bytes than --threads 1"
		cmp -s "$work/m1.functions.csv" "$work/m$n.functions.csv" ||
			fail "--threads $n: other functions bytes than --threads 1"
	done
	[ "$(grep -c -v '^#' "$work/m1.csv")" -eq 40001 ] || fail "not 40000 rows"
	# A call of frame 20 moved to the end of pre's calls file, further than
	# the sandwich waits for: with several threads the rows formatted while
	# it ran (frame 20's among them, without that call's time, unless the
	# sandwich reached it first) are thrown away and formatted again, and
	# the bytes are still those of one thread.
	awk -F, '!moved && $1 == "xrWaitFrame" && $5 == 20 { held = $0; moved = 1; next }
		{ print }
		END { print held }' "$work/calls-t-pre.csv" >"$work/late" || fail "awk"
	mv "$work/late" "$work/calls-t-pre.csv"
	for n in 1 8; do
		run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv" --threads "$n" -o "$work/l$n.csv"
		[ "$rc" -eq 0 ] || fail "late call, --threads $n: status $rc: $(cat "$work/err")"
	done
	grep -q '^# calls_late=1$' "$work/l1.csv" || fail "the moved call is not late"
	cmp -s "$work/l1.csv" "$work/l8.csv" || fail "late call: other merged bytes with 8 threads"
	cmp -s "$work/l1.functions.csv" "$work/l8.functions.csv" ||
		fail "late call: other functions bytes with 8 threads"
	# More frames than the rows formatted early hold (MERGE_EARLY_BYTES,
	# 41943 rows), in files whose short rows (an unpaced app's, its times
	# shifted down: ~33 bytes) make their length guess fewer: the first
	# 41943 rows go early, the writers format the rest from there on.
	"$gen" "$work" e 50000 --calls 2 --period-ns 4000 || fail "generator"
	for f in "$work"/frames-e-*.csv "$work"/gpu-e-*.csv "$work"/calls-e-*.csv; do
		awk -F, -v OFS=, '/^[0-9]/ { $1 -= 33724160000000 }
			/^[0-9]/ && NF == 4 && $3 > 1000 { $3 -= 17834950000000; $4 -= 17834950000000 }
			/^xr/ { $3 -= 17834950000000; $4 -= 17834950000000 }
			{ print }' "$f" >"$work/shifted" || fail "awk"
		mv "$work/shifted" "$f"
	done
	[ "$(wc -c <"$work/frames-e-pre.csv")" -lt $((41943 * 50)) ] || fail "rows not short enough"
	for n in 1 8; do
		run merge "$work/frames-e-pre.csv" "$work/frames-e-post.csv" --threads "$n" -o "$work/e$n.csv"
		[ "$rc" -eq 0 ] || fail "50000 short rows, --threads $n: status $rc: $(cat "$work/err")"
	done
	cmp -s "$work/e1.csv" "$work/e8.csv" || fail "50000 short rows: other merged bytes with 8 threads"
	[ "$(grep -c -v '^#' "$work/e8.csv")" -eq 50001 ] || fail "not 50000 rows"
	for bad in 0 9 x -1; do
		run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv" --threads "$bad" -o "$work/b.csv"
		expect_error 2 "--threads must be 1 to 8"
	done
	[ ! -e "$work/b.csv" ] || fail "a refused command wrote a file"
	;;
missing_file)
	copy_session s1
	run merge "$work/frames-s1-pre.csv" "$work/nope-post.csv" -o "$work/m.csv"
	expect_error 1 "nope-post.csv: error: cannot open"
	[ ! -e "$work/m.csv" ] || fail "output written"
	;;
wrong_header)
	copy_session s1
	run merge "$data/bad-header-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "bad-header-pre.csv:2: error: wrong column header"
	;;
malformed_row)
	copy_session s1
	run merge "$data/bad-row-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "bad-row-pre.csv:9: error: column 3 (t_entry)"
	# t_exit before t_entry: a clock run back within a call is a corrupt
	# row, as in a calls file, not a frame for negative_target_frames. A
	# negative time: no CLOCK_MONOTONIC reading is (a sign typed into a
	# file gave a frame of 10^10 us).
	while IFS='|' read -r edit want; do
		for side in pre post; do
			copy_session s1
			sed -i "9s/$edit" "$work/frames-s1-$side.csv"
			run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
			expect_error 1 "frames-s1-$side.csv:9: error: $want"
			[ ! -e "$work/m.csv" ] || fail "$side: merged file written"
		done
	done <<-'EOF'
	^\([0-9]*,[0-9]*\),\([0-9]*\),\([0-9]*\)$/\1,\3,\2/|t_exit is before t_entry$
	^\([0-9]*,[0-9]*\),/\1,-/|t_entry or t_exit is negative
	EOF
	;;
garbage)
	copy_session s1
	run merge "$data/bad-garbage-pre.csv" "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "bad-garbage-pre.csv:1: error:"
	run merge /dev/null "$work/frames-s1-post.csv" -o "$work/m.csv"
	expect_error 1 "/dev/null: error: empty file"
	run stats "$data/bad-garbage-pre.csv"
	expect_error 1 "bad-garbage-pre.csv:1: error:"
	;;
refuses_overwrite)
	copy_session s1
	echo keep >"$work/frames-merged-s1.csv"
	run merge "$work/frames-s1-pre.csv" "$work/frames-s1-post.csv"
	expect_error 1 "frames-merged-s1.csv: error: already exists"
	[ "$(cat "$work/frames-merged-s1.csv")" = keep ] || fail "file was changed"
	;;
report_hist)
	# The page's histogram reaches p50 + 3 (p99 - p50) with the p50 and p99
	# it marks (interpolated): 148 frames of 10 us and two of 1000 us have
	# a p99 of 514.9 us, inside the range, no frame left above it.
	# The maximum at the range's top is in the last bin. target_gpu_us
	# (147 frames of 100.25 us, two of 100.37, one of 3000) is cut at
	# p50 + 3 (p99 - p50), 100.61 us: bins of 0.0036 us, one frame above.
	# The statistics have 3 decimals; a column without values has none
	# (null); blank cells are no values; the key columns no entries.
	constant a 10 100 150
	awk -F, -v OFS=, 'NR == 77 || NR == 152 { $4 = "1300.000"; $6 = "1000.000" }
		NR > 2 { $8 = NR == 10 || NR == 20 ? "100.370" : NR == 30 ? "3000.000" : "100.250" } 1' \
		"$work/a.csv" >"$work/t.csv"
	run report "$work/t.csv" -o "$work/t.html"
	[ "$rc" -eq 0 ] || fail "status $rc"
	page_json "$work/t.html" | python3 -c '
import json, sys
data = json.load(sys.stdin)
col = {c["name"]: c for c in data["columns"]}
c = col["target_us"]
h = c["hist"]
hi = h["lo"] + h["width"] * len(h["counts"])
assert abs(c["p99"] - 514.9) < 1e-9, c["p99"]
assert h["lo"] == 10 and hi >= c["p99"] and h["above"] == 0, (h["lo"], hi, h["above"])
assert abs(h["width"] - 9.9) < 1e-9 and h["counts"][0] == 148 and h["counts"][99] == 2, h
g = col["target_gpu_us"]
h = g["hist"]
assert abs(g["p99"] - 100.37) < 1e-9 and g["median"] == 100.25, (g["p99"], g["median"])
assert h["lo"] == 100.25 and abs(h["width"] - 0.0036) < 1e-9, h
assert h["above"] == 1 and h["counts"][0] == 147 and h["counts"][33] == 2 and sum(h["counts"]) == 149, h
assert g["mean"] == round((147 * 100.25 + 2 * 100.37 + 3000) / 150, 3), g["mean"]
assert col["frame_interval_us"]["count"] == 149, col["frame_interval_us"]["count"]
p = col["target_cpu_pct_of_frame"]
assert p["count"] == 0 and all(p[k] is None for k in ("mean", "median", "p95", "p99", "min", "max")), p
assert "display_time" not in col and "thread_id" not in col, list(col)
# Columns metrics.h does not know come after its own, with no series.
known = [c["order"] for c in col.values() if c["group"] != "other"]
other = [c for c in col.values() if c["group"] == "other"]
assert other and all(c["order"] > max(known) and "data" not in c for c in other), other
# The percentile curve: every 0.1 % to 99 %, then every 0.01 % to 100 %.
cdf = c["cdf"]
assert len(cdf) == 1091 and cdf[990][1] == 99 and cdf[991][1] == 99.01 and cdf[-1] == [1000, 100], cdf[-3:]
# Each series whole, little-endian float32 in base64, blanks as NaN.
import base64, math, struct
want = [float(l.split(",")[7]) for l in open(sys.argv[1]) if l[0].isdigit()]
got = struct.unpack("<150f", base64.b64decode(g["data"]))
assert all(abs(a - b) < 1e-3 for a, b in zip(got, want)), got
got = struct.unpack("<150f", base64.b64decode(col["frame_interval_us"]["data"]))
assert abs(got[0] - 11111.111) < 1e-3 and math.isnan(got[149]), got
' "$work/t.csv" || fail "the histogram's range"
	;;
huge_values)
	# A column whose values are huge and all equal: xlsx crashed (its
	# histogram's bin count, (max - min) / 0.001 from an infinite lower
	# edge, overflowed; exit 139) and left its temporary file, and the
	# report's histogram had a width of 0. Now one bin holds them all. At
	# DBL_MAX itself a bin's edge would be infinite: that column has no
	# histogram (the workbook's other charts and the page's cumulative
	# distribution remain).
	for gpu in 2e305 1.7976931348623157e308; do
		awk -v gpu=$gpu 'BEGIN {
			print "# frame_count=30"
			print "display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame,gate_tripped"
			for (i = 1; i <= 30; i++)
				printf "%d,1,11111.000,200.000,100.000,5.000,,%s,,0\n", i, gpu
		}' >"$work/h.csv"
		rm -f "$work/h.xlsx"
		run xlsx "$work/h.csv" -o "$work/h.xlsx"
		[ "$rc" -eq 0 ] || fail "xlsx of $gpu: status $rc"
		no_leftovers "$work"
		well_formed "$work/h.xlsx"
		run report "$work/h.csv" -o "$work/h.html"
		[ "$rc" -eq 0 ] || fail "report of $gpu: status $rc"
		page_json "$work/h.html" | python3 -c '
import json, sys, zipfile
c = [c for c in json.load(sys.stdin)["columns"] if c["name"] == "target_gpu_us"][0]
charts = zipfile.ZipFile(sys.argv[2]).read("xl/worksheets/sheet3.xml").decode()
if sys.argv[1] == "2e305":
    h = c["hist"]
    assert h["width"] > 0 and sum(h["counts"]) == 30 and h["above"] == 0, h
    assert abs(h["width"] / (2e305 * 1e-12 / 100) - 1) < 1e-3, h["width"]
    assert "<c r=\"H2\"><v>30</v></c>" in charts, charts
else:
    assert "hist" not in c and len(c["cdf"]) > 0, c.keys()
    assert "target_gpu_us_from" not in charts and "target_us_from" in charts, charts
' $gpu "$work/h.xlsx" || fail "the histograms of $gpu"
	done
	;;
stats_wide)
	# A median of 100 ms or more (a target that sleeps to limit the frame
	# rate) keeps the space after its label; smaller values their columns.
	constant a 150000.5 100 5
	run stats "$work/a.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^    median 150000.50$" "$work/out" || fail "the median runs into its label"
	grep -q "^    count  5$" "$work/out" && grep -q "^    median   100.00$" "$work/out" ||
		fail "the columns of smaller values moved"
	;;
spreadsheet_saved)
	# Every file saved again by a spreadsheet that quotes every text cell
	# and pads each line to its sheet's width (the '#' lines in quotes and
	# followed by empty cells) reads as the file it was: the same merged
	# file's bytes from such per-side files, and the same tables from such
	# a merged file.
	mkdir "$work/a"
	"$gen" "$work/a" t 200 --calls 2 || fail "generator"
	mkdir "$work/b"
	for f in "$work"/a/*.csv; do
		awk -F, -v OFS=, '
			/^#/ { print "\"" $0 "\",,,"; next }
			{ for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+$/ && $i != "") $i = "\"" $i "\""; print }
		' "$f" >"$work/b/$(basename "$f")"
	done
	grep -q '^"# clock=CLOCK_MONOTONIC",,,$' "$work/b/frames-t-pre.csv" &&
		grep -q '^"xrWaitFrame",' "$work/b/calls-t-pre.csv" || fail "the files were not saved as a spreadsheet does"
	for d in a b; do
		run merge "$work/$d/frames-t-pre.csv" "$work/$d/frames-t-post.csv" -o "$work/$d/m.csv"
		[ "$rc" -eq 0 ] || fail "merge of $d: status $rc"
	done
	cmp -s "$work/a/m.csv" "$work/b/m.csv" && cmp -s "$work/a/m.functions.csv" "$work/b/m.functions.csv" ||
		fail "the spreadsheet's files merged differently"
	for f in m.csv:frames-merged-t.csv m.functions.csv:functions-merged-t.csv; do
		awk -F, -v OFS=, '
			/^#/ { print "\"" $0 "\",,,,"; next }
			{ for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+$/ && $i != "") $i = "\"" $i "\""; print }
		' "$work/a/${f%%:*}" >"$work/b/${f#*:}"
	done
	run stats "$work/a/m.csv"
	mv "$work/out" "$work/want"
	run stats "$work/b/frames-merged-t.csv"
	[ "$rc" -eq 0 ] || fail "stats of the saved merged file: status $rc"
	cmp -s "$work/want" "$work/out" || fail "stats differ: $(diff "$work/want" "$work/out")"
	run compare "$work/a/m.csv" "$work/b/frames-merged-t.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "compare of the saved merged file: status $rc"
	;;
output_is_input)
	# An output that is one of the command's inputs (the same file, by any
	# path or link) is refused before anything is written: one line,
	# status 2, the input unchanged.
	copy_session s1
	cp "$data"/calls-s1-*.csv "$work"/
	cd "$work" || fail "cd"
	run merge frames-s1-pre.csv frames-s1-post.csv -o m.csv
	[ "$rc" -eq 0 ] || fail "merge: status $rc"
	ln m.csv link.html
	cp m.csv m.keep
	cp m.functions.csv f.keep
	# The functions file the merge would write is an input (a GPU file).
	cp gpu-s1-pre.csv g.functions.csv
	cp g.functions.csv g.keep
	while IFS='|' read -r words output input; do
		eval "run $words"
		expect_error 2 "$output: error: is the input $input; not writing over it"
	done <<-EOF
	report m.csv -o m.csv|m.csv|m.csv
	report m.csv -o ./m.csv|./m.csv|m.csv
	report m.csv -o link.html|link.html|m.csv
	report m.csv --functions m.functions.csv -o m.functions.csv|m.functions.csv|m.functions.csv
	xlsx m.csv -o ./m.csv|./m.csv|m.csv
	trace frames-s1-pre.csv -o ./calls-s1-post.csv|./calls-s1-post.csv|./calls-s1-post.csv
	merge frames-s1-pre.csv frames-s1-post.csv -o calls-s1-pre.csv|calls-s1-pre.csv|calls-s1-pre.csv
	merge frames-s1-pre.csv frames-s1-post.csv --gpu-pre m.csv --gpu-post m.csv -o link.html|link.html|m.csv
	merge frames-s1-pre.csv frames-s1-post.csv --gpu-pre g.functions.csv -o g.csv|g.functions.csv|g.functions.csv
	EOF
	cmp -s m.csv m.keep && cmp -s m.functions.csv f.keep && cmp -s g.functions.csv g.keep ||
		fail "an input was changed"
	[ ! -e g.csv ] || fail "a merged file beside a functions file that is an input"
	cmp -s "$data/calls-s1-pre.csv" calls-s1-pre.csv || fail "a calls file was changed"
	# Another output is still written.
	run report m.csv -o m.html
	[ "$rc" -eq 0 ] && [ -s m.html ] || fail "report -o m.html: status $rc"
	;;
stats_wrong_file)
	run stats "$data/frames-s1-pre.csv"
	expect_error 1 "frames-s1-pre.csv:7: error: wrong column header"
	# Wrong after the nine columns every layout begins with: measured
	# against the layout of as many columns (ten: gate_tripped tenth).
	constant a 10 100 5
	sed 's/^display_time,.*/&,bogus/' "$work/a.csv" >"$work/w.csv"
	run stats "$work/w.csv"
	expect_error 1 "w.csv:2: error: wrong column header: column 10 is \"bogus\", expected \"gate_tripped\""
	run stats "$work/none.csv"
	expect_error 1 "none.csv: error: cannot open"
	;;
bad_args)
	run
	expect_error 2 "no command"
	run frobnicate
	expect_error 2 "unknown command"
	run merge onlyone.csv
	expect_error 2 "needs PRE.csv and POST.csv"
	run merge a-pre.csv b-post.csv --bogus
	expect_error 2 "unknown option"
	run merge a-pre.csv b-post.csv -o
	expect_error 2 "option needs a value"
	run merge a.csv b.csv
	expect_error 2 "give -o OUT"
	run merge a-pre.csv b-post.csv c.csv
	expect_error 2 "unexpected argument"
	run stats
	expect_error 2 "stats needs MERGED.csv"
	# An option given twice is refused by every subcommand, not last-wins.
	while IFS='|' read -r words option; do
		eval "run $words"
		expect_error 2 "option given twice: $option"
	done <<-EOF
	merge a-pre.csv b-post.csv -o x.csv -o y.csv|-o
	merge a-pre.csv b-post.csv -o x.csv --output=y.csv|--output
	merge a-pre.csv b-post.csv --gpu-pre a.csv --gpu-pre=b.csv|--gpu-pre
	xlsx m.csv --rows-per-sheet 5 --rows-per-sheet 6|--rows-per-sheet
	report m.csv -o a.html -o b.html|-o
	report m.csv --functions a.csv --functions b.csv|--functions
	compare a.csv b.csv --seed 1 --seed 2|--seed
	compare a.csv b.csv --fail-above 1 --fail-above 2|--fail-above
	trace s.csv --from 1 --from 2|--from
	trace s.csv -o a.json --output b.json|--output
	ctl watch 1 --count 1 --count 2|--count
	EOF
	# Options that contradict each other, in either order.
	while IFS='|' read -r words message; do
		eval "run $words"
		expect_error 2 "$message"
	done <<-EOF
	merge a-pre.csv b-post.csv --no-gpu --gpu-post y.csv|--no-gpu conflicts with --gpu-pre/--gpu-post
	merge a-pre.csv b-post.csv --gpu-pre y.csv --no-gpu|--no-gpu conflicts with --gpu-pre/--gpu-post
	report m.csv --no-functions --functions a.csv|--no-functions conflicts with --functions
	report m.csv --functions a.csv --no-functions|--no-functions conflicts with --functions
	EOF
	[ ! -e x.csv ] && [ ! -e y.csv ] || fail "a refused command wrote a file"
	;;
ls_sessions)
	# One line per session, oldest first (not in name order), with the
	# frames of each side, the GPU files and the state; a malformed file
	# is named on stderr and makes the status 1, the rest is still listed.
	make_sessions "$work/d"
	run ls "$work/d"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1 (a malformed file)"
	stderr_once "frames-$D-pre.csv:.*error"
	sed 1d "$work/out" | awk '{ print $1 }' >"$work/order"
	printf '%s\n' "$R" "$B" "$A" "$D" "$C" "$E" "$L" | cmp -s - "$work/order" ||
		fail "sessions not listed oldest first: $(tr '\n' ' ' <"$work/order")"
	grep -q "^$R .* 3  *3 -  *not merged" "$work/out" || fail "R's line (pid used again)"
	grep -q "^$B  *2026-11-01 09:00:00  *3  *3 pre+post not merged" "$work/out" || fail "B's line"
	grep -q "^$A  *2026-11-01 10:00:00  *3  *3 -  *merged, 3 frames$" "$work/out" || fail "A's line"
	grep -q "^$D .* ?  *3 -  *not merged" "$work/out" || fail "D's line"
	grep -q "^$C .* 3  *- -  *incomplete: no post file$" "$work/out" || fail "C's line"
	grep -q "^$E .* 6  *6 -  *not merged" "$work/out" || fail "E's line"
	grep -q "^$L .*recording? (pid $$ is running)$" "$work/out" || fail "the live session's line"
	# One process's sessions of one second by their number (-2 before
	# -10); a pid of 10 digits (no pid has them) or junk after the number
	# is no session's tag.
	mkdir "$work/q"
	Q=999999008-20261101T150000
	for t in "$Q-10" "$Q" "$Q-2" "$Q-2x" 9999999999-20261101T150000; do
		cp "$data/frames-s1-pre.csv" "$work/q/frames-$t-pre.csv"
	done
	run ls "$work/q"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(sed 1d "$work/out" | awk '{ print $1 }' | tr '\n' ' ')" = "$Q $Q-2 $Q-10 " ] ||
		fail "one process's sessions: $(sed 1d "$work/out" | awk '{ print $1 }' | tr '\n' ' ')"
	;;
ls_merging)
	# A running process that holds the session's directory open, its files
	# closed, is the writer whose post layer merges it (the layers' writers
	# hold the directory while their instance lives): neither listed as
	# not merged nor merged by merge DIR until it is gone.
	mkdir "$work/d"
	sleep 60 8<"$work/d" &
	mp=$!
	M=$mp-$(date +%Y%m%dT%H%M%S)
	cp "$data/frames-s1-pre.csv" "$work/d/frames-$M-pre.csv"
	cp "$data/frames-s1-post.csv" "$work/d/frames-$M-post.csv"
	run ls "$work/d"
	grep -q "^$M .*stopped, its app merges it (pid $mp is running)$" "$work/out" ||
		{ kill $mp; fail "the session its app merges"; }
	run merge "$work/d"
	grep -q "^$M: skipped: pid $mp is still running (its post layer merges the session)$" "$work/out" ||
		{ kill $mp; fail "merge DIR on the session its app merges"; }
	[ ! -e "$work/d/frames-merged-$M.csv" ] || { kill $mp; fail "merged under its app"; }
	# Once post's log says the app left it (its merge queue full), it is
	# merge DIR's, the app still running.
	echo "2026-11-30 14:00:00.000 [$mp] post: session $M: not merged in the application (the merge thread has 8 sessions waiting); its files are complete: \`xrlm merge $work/d\` merges it" >"$work/d/xrlm-post.log"
	run ls "$work/d"
	grep -q "^$M .*not merged" "$work/out" || { kill $mp; fail "a session its app left, not listed as not merged"; }
	run merge "$work/d"
	kill $mp
	wait $mp 2>/dev/null
	grep -q "^$M: merged 3 frames into" "$work/out" || fail "a session its app left not merged"
	;;
ls_errors)
	run ls "$work/missing"
	expect_error 1 "missing: error: cannot open the directory: No such file or directory"
	run ls "$data/frames-s1-pre.csv"
	expect_error 2 "not a directory"
	run ls
	expect_error 2 "ls needs DIR"
	mkdir "$work/empty"
	run ls "$work/empty"
	[ "$rc" -eq 0 ] && [ "$(cat "$work/out")" = "no sessions in $work/empty" ] || fail "empty directory"
	;;
merge_dir)
	# Every unmerged session with both sides and no running writer is
	# merged; a bad one is reported and the rest still merged; status 1.
	make_sessions "$work/d"
	# A merge a kill cut short left its temporary file (its process is
	# gone): removed. A live process's (this shell's) is left alone, its
	# session too: another xrlm merges it now.
	dead=$(sh -c 'echo $$')
	echo partial >"$work/d/.frames-merged-$B.csv.tmp-$dead-1f"
	echo partial >"$work/d/.functions-merged-$B.csv.tmp-$dead-2f"
	hold_tmp "$work/d/frames-merged-$E.csv"
	run merge "$work/d"
	kill $holder
	wait $holder 2>/dev/null
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1 (one session failed)"
	stderr_once "frames-$D-pre.csv:9: error"
	[ -e "$work/d/.frames-merged-$E.csv.tmp-$holder-1" ] || fail "a live process's temporary file was removed"
	rm "$work/d/.frames-merged-$E.csv.tmp-$holder-1"
	cat >"$work/want" <<-END
		$R: merged 3 frames into $work/d/frames-merged-$R.csv
		$B: removed 2 temporary files of a merge cut short
		$B: merged 3 frames into $work/d/frames-merged-$B.csv
		$C: skipped: no post file
		$E: skipped: pid $holder is merging it
		$L: skipped: pid $$ is still running (recording?)
	END
	cmp -s "$work/want" "$work/out" || fail "unexpected lines: $(diff "$work/want" "$work/out")"
	cmp -s "$work/d/frames-merged-$B.csv" "$data/expected-merged-s1.csv" ||
		fail "B merged differently (its GPU files not used?)"
	[ ! -e "$work/d/frames-merged-$D.csv" ] || fail "a merged file for the bad session"
	[ ! -e "$work/d/frames-merged-$L.csv" ] || fail "a merged file for a running session"
	[ ! -e "$work/d/frames-merged-$E.csv" ] || fail "merged beside another merge"
	! ls -a "$work/d" | grep -q '\.tmp-' || fail "temporary file left"
	# Again: E, whose other merge is gone, and nothing more but the bad one.
	rm "$work/d/frames-$D-pre.csv"
	run merge "$work/d"
	[ "$rc" -eq 0 ] || fail "second run: status $rc"
	grep -q "^$D: skipped: no pre file$" "$work/out" || fail "second run: D"
	[ "$(grep -c "merged" "$work/out")" -eq 1 ] &&
		grep -q "^$E: merged 6 frames into $work/d/frames-merged-$E.csv$" "$work/out" ||
		fail "second run: E not merged, or another merged again"
	run ls "$work/d"
	grep -q "^$E .*merged, 6 frames$" "$work/out" || fail "ls after merge DIR"
	# An empty merged file (a power loss soon after the merge) is removed
	# and its session merged again; a merged file
	# with anything in it is left alone.
	: >"$work/d/frames-merged-$B.csv"
	printf 'x\n' >"$work/d/frames-merged-$R.csv"
	run merge "$work/d"
	[ "$rc" -eq 0 ] || fail "third run: status $rc"
	grep -q "^$B: removed its empty merged file (left by a crash or a power loss?)$" "$work/out" &&
		grep -q "^$B: merged 3 frames into $work/d/frames-merged-$B.csv$" "$work/out" ||
		fail "third run: the empty merged file: $(cat "$work/out")"
	grep -q "^$R:" "$work/out" && fail "third run: a merged file with text was merged again"
	cmp -s "$work/d/frames-merged-$B.csv" "$data/expected-merged-s1.csv" || fail "third run: B"
	;;
ctl_args)
	# xrlm ctl's ranges (README, "Control socket"): the edges are taken
	# (status 1 then: no process to ask), one past them is a usage error.
	export XDG_RUNTIME_DIR="$work/run"
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	t256=$(printf 'm%.0s' $(seq 256))
	while IFS='|' read -r words want; do
		eval "run ctl $words"
		if [ -n "$want" ]; then
			expect_error 2 "$want"
		else
			expect_error 1 "no control socket for process "
		fi
	done <<-EOF
	status 1 --timeout 0.001|
	status 1 --timeout 3600|
	status 1 --timeout 0.0009|--timeout needs seconds (0.001 to 3600)
	status 1 --timeout 3600.5|--timeout needs seconds (0.001 to 3600)
	watch 1 --count 1|
	watch 1 --count 1000000000|
	watch 1 --count 0|--count N (1 to 10^9) goes with watch
	watch 1 --count 1000000001|--count N (1 to 10^9) goes with watch
	status 1 --count 3|--count N (1 to 10^9) goes with watch
	status 2147483647|
	status 0|not a process id: 0
	status 2147483648|not a process id: 2147483648
	status 1 2|this ctl command takes one PID
	mark 1 $t256|
	mark 1 ${t256}m|the mark's text must be 1 to 256 bytes
	EOF
	;;
ctl_version)
	# A process that speaks another version of the protocol is not asked.
	server v2
	run ctl status "$srv"
	expect_error 1 "process $srv speaks protocol version 2, this xrlm 1"
	[ ! -s "$work/out" ] || fail "a status printed from a version 2 process: $(cat "$work/out")"
	;;
ctl_not_listening)
	# A live process whose socket is bound but not listened on yet (the
	# layer between bind and listen; a loaded machine may hold it there)
	# is refused, not taken for a dead one: its socket stays, one line
	# says so. Once the process is gone, the socket is removed as stale.
	server bound
	sock=$XDG_RUNTIME_DIR/xrlm/$srv.sock
	run ctl status "$srv"
	expect_error 1 "process $srv runs but does not accept connections on $sock (not listening yet?): try again"
	[ -S "$sock" ] || fail "status removed a live process's socket"
	run ctl list
	[ "$rc" -eq 0 ] || fail "list: status $rc"
	[ ! -s "$work/err" ] || fail "list said something on stderr"
	grep -q "^$srv .*? .*process $srv runs but does not accept connections" "$work/out" ||
		fail "list does not show the process as not accepting"
	[ -S "$sock" ] || fail "list removed a live process's socket"
	kill "$srv"
	wait "$srv" 2>/dev/null
	run ctl status "$srv"
	expect_error 1 "process $srv is gone: removed its stale socket $sock"
	[ ! -e "$sock" ] || fail "the dead process's socket is still there"
	;;
ctl_timeout)
	# --timeout bounds a whole reply: a process that sends data lines and
	# never ends its reply does not hold xrlm past it (timeout(1) ends a
	# hang with 124).
	server drip
	timeout 10 "$xrlm" ctl status "$srv" --timeout 1 >"$work/out" 2>"$work/err"
	rc=$?
	expect_error 1 "process $srv: no reply within 1.0 s"
	;;
merge_dir_options)
	# merge DIR applies --threads, --no-gpu and --no-calls to every session,
	# and names each option it does not take (nothing merged then).
	t=999999007-20261101T100000
	for k in frames calls gpu; do
		for side in pre post; do cp "$data/$k-s1-$side.csv" "$work/$k-$t-$side.csv"; done
	done
	while IFS='|' read -r words option; do
		eval "run merge \"\$work\" $words"
		expect_error 2 "merge DIR does not take $option: "
	done <<-EOF
	-o x.csv|-o/--output
	--output=x.csv|-o/--output
	--gpu-pre x.csv|--gpu-pre/--gpu-post
	--all|--all
	EOF
	# A directory and a second operand is no merge DIR.
	run merge "$work" "$work/frames-$t-post.csv"
	expect_error 2 "cannot derive the output name"
	[ ! -e "$work/frames-merged-$t.csv" ] || fail "a refused command merged"
	run merge "$work" --threads 9
	expect_error 2 "--threads must be 1 to 8"
	run merge "$work" --threads 2 --no-gpu --no-calls
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^$t: merged 3 frames into " "$work/out" || fail "not merged"
	grep -q "^# gpu_frame_count=0$" "$work/frames-merged-$t.csv" || fail "GPU files used despite --no-gpu"
	[ ! -e "$work/functions-merged-$t.csv" ] || fail "calls files used despite --no-calls"
	rm "$work/frames-merged-$t.csv"
	run merge "$work" --threads=1
	[ "$rc" -eq 0 ] && [ -s "$work/functions-merged-$t.csv" ] || fail "--threads=1: status $rc, or no functions file"
	grep -q "^# gpu_frame_count=3$" "$work/frames-merged-$t.csv" || fail "GPU files not used by default"
	;;
merge_dir_nothing)
	mkdir "$work/d"
	cp "$data/expected-merged-s1.csv" "$work/d/frames-merged-1-20261101T100000.csv"
	run merge "$work/d"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(cat "$work/out")" = "nothing to merge in $work/d (1 session)" ] || fail "unexpected output"
	# An empty merged file beside one side's file only is left: no merge
	# could take its place.
	cp "$data/frames-s1-pre.csv" "$work/d/frames-999999009-20261101T100000-pre.csv"
	: >"$work/d/frames-merged-999999009-20261101T100000.csv"
	run merge "$work/d"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(cat "$work/out")" = "nothing to merge in $work/d (2 sessions)" ] || fail "incomplete: $(cat "$work/out")"
	[ -e "$work/d/frames-merged-999999009-20261101T100000.csv" ] || fail "an empty merged file removed"
	# A session that fails to merge is not nothing to merge.
	mkdir "$work/e"
	cp "$data/bad-row-pre.csv" "$work/e/frames-999999000-20261101T110000-pre.csv"
	cp "$data/frames-s1-post.csv" "$work/e/frames-999999000-20261101T110000-post.csv"
	run merge "$work/e"
	[ "$rc" -eq 1 ] || fail "a failed merge: status $rc"
	[ ! -s "$work/out" ] || fail "a failed merge: $(cat "$work/out")"
	;;
interrupted)
	# Each command that writes a file, interrupted mid-write by each signal
	# that ends a run from a terminal or a service manager.
	"$gen" "$work" I1 50000 --calls 4 >/dev/null || fail "gen_session failed"
	interrupt INT 130 trace "$work/frames-I1-pre.csv" -o "$work/t.json"
	interrupt TERM 143 trace "$work/frames-I1-pre.csv" -o "$work/t.json"
	rm "$work"/*-I1-*
	"$gen" "$work" I2 400000 >/dev/null || fail "gen_session failed"
	interrupt TERM 143 merge "$work/frames-I2-pre.csv" "$work/frames-I2-post.csv" -o "$work/m.csv"
	run merge "$work/frames-I2-pre.csv" "$work/frames-I2-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge -o: status $rc"
	interrupt HUP 129 report "$work/m.csv" -o "$work/r.html"
	head -c 3000000 "$work/m.csv" | sed '$d' >"$work/m20k.csv"
	interrupt INT 130 xlsx "$work/m20k.csv" -o "$work/x.xlsx"
	# libxlsxwriter names each of its temporary files, then unlinks it: a
	# signal between the two left "tmp.XXXXXXXXXX" in the user's directory
	# (seen under ASan). They go into a directory of xrlm's own, removed on
	# the signal with what is in it: here a file put there, as one caught
	# in that window would be.
	before=$(ls -A "$work")
	env --default-signal=INT "$xrlm" xlsx "$work/m20k.csv" -o "$work/x.xlsx" >/dev/null 2>&1 &
	pid=$!
	tries=0
	while tmpd=$(find "$work" -maxdepth 1 -type d -name '.*.tmpd-*' -print) && [ -z "$tmpd" ]; do
		tries=$((tries + 1))
		[ $tries -lt 3000 ] || { kill $pid; fail "xrlm xlsx made no temporary directory in 30 s"; }
		sleep 0.01
	done
	echo caught >"$tmpd/tmp.0123456789"
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 130 ] || fail "xrlm xlsx after SIGINT: status $rc, expected 130"
	[ "$(ls -A "$work")" = "$before" ] || fail "xrlm xlsx after SIGINT left: $(ls -A "$work")"
	# A signal the caller ignores stays ignored (nohup's SIGHUP): the run
	# goes on to its whole output.
	env --ignore-signal=HUP "$xrlm" xlsx "$work/m20k.csv" -o "$work/x.xlsx" >"$work/out" 2>"$work/err" &
	pid=$!
	wait_tmp $pid xlsx
	kill -HUP $pid
	wait $pid
	rc=$?
	[ "$rc" -eq 0 ] && [ -s "$work/x.xlsx" ] || fail "an ignored SIGHUP: status $rc, or no workbook"
	;;
stale_temporaries)
	# A run killed outright (SIGKILL: no handler) leaves its hidden
	# temporary output, and `xrlm xlsx` its temporary directory too; the
	# next xlsx, report or trace of the same output removes what a dead
	# process left, and nothing else: not a live process's, not another
	# output's, not a name that is not ours, not through a link.
	"$gen" "$work" t 50 --calls 2 >/dev/null || fail "gen_session failed"
	run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge: status $rc"
	dead=$(sh -c 'echo $$')
	! kill -0 "$dead" 2>/dev/null || fail "pid $dead still exists"
	mkdir "$work/.x.xlsx.tmpd-$dead-2b" "$work/.x.xlsx.tmpd-$$-3c" "$work/.x.xlsx.tmpd-${dead}x-4" \
		"$work/.y.xlsx.tmpd-$dead-1" "$work/elsewhere"
	echo left >"$work/.x.xlsx.tmpd-$dead-2b/tmp.0123456789"
	echo left >"$work/.x.xlsx.tmp-$dead-1a"
	echo kept >"$work/elsewhere/f"
	ln -s "$work/elsewhere" "$work/.x.xlsx.tmpd-$dead-5"
	# A dead run's directory of more entries than one read of it returns
	# (getdents64's 4 KiB): emptied and removed all the same.
	i=0
	while [ $i -lt 300 ]; do
		: >"$work/.x.xlsx.tmpd-$dead-2b/tmp.entry-with-a-long-name-$i"
		i=$((i + 1))
	done
	# A link with a temporary file's name (not the regular file a run
	# leaves), and a pid past INT_MAX that would wrap to the dead one's:
	# not ours, kept.
	ln -s "$work/elsewhere/f" "$work/.x.xlsx.tmp-$dead-6"
	echo kept >"$work/.x.xlsx.tmp-$((dead + 4294967296))-7"
	run xlsx "$work/m.csv" -o "$work/x.xlsx"
	[ "$rc" -eq 0 ] || fail "xlsx: status $rc"
	grep -q "x.xlsx: removed 2 temporary files of an earlier run cut short" "$work/err" ||
		fail "xlsx said: $(cat "$work/err")"
	for gone in ".x.xlsx.tmpd-$dead-2b" ".x.xlsx.tmp-$dead-1a"; do
		[ ! -e "$work/$gone" ] || fail "$gone left"
	done
	for kept in ".x.xlsx.tmpd-$$-3c" ".x.xlsx.tmpd-${dead}x-4" ".y.xlsx.tmpd-$dead-1" elsewhere/f \
		".x.xlsx.tmp-$((dead + 4294967296))-7"; do
		[ -e "$work/$kept" ] || fail "$kept removed"
	done
	[ -L "$work/.x.xlsx.tmpd-$dead-5" ] && [ -L "$work/.x.xlsx.tmp-$dead-6" ] || fail "a link removed"
	echo left >"$work/.r.html.tmp-$dead-7"
	run report "$work/m.csv" -o "$work/r.html"
	[ "$rc" -eq 0 ] && [ ! -e "$work/.r.html.tmp-$dead-7" ] || fail "report: status $rc, or its leftover kept"
	grep -q "removed 1 temporary file of" "$work/err" || fail "report said: $(cat "$work/err")"
	echo left >"$work/.t.json.tmp-$dead-8"
	run trace "$work/frames-t-pre.csv" -o "$work/t.json"
	[ "$rc" -eq 0 ] && [ ! -e "$work/.t.json.tmp-$dead-8" ] || fail "trace: status $rc, or its leftover kept"
	# Nothing to remove: nothing said.
	run xlsx "$work/m.csv" -o "$work/x2.xlsx"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "a clean xlsx said: $(cat "$work/err")"
	;;
xlsx_not_utf8)
	# Text that is not UTF-8 (a stray 0xff, a lead byte without its
	# continuation, a cut 3-byte sequence, U+FFFE, which XML refuses) in a
	# summary line's value and key and in a function's name: libxlsxwriter
	# wrote its bytes as they were and the sheets' XML was not well-formed.
	# Each such byte is U+FFFD now; the rest of the text, and valid UTF-8
	# and control bytes (libxlsxwriter's _xHHHH_), stay.
	"$gen" "$work" t 50 --calls 2 >/dev/null || fail "gen_session failed"
	run merge "$work/frames-t-pre.csv" "$work/frames-t-post.csv" -o "$work/m.csv"
	[ "$rc" -eq 0 ] || fail "merge: status $rc"
	sed -i '1i # target_layer=A\xff\xc3B\xe2\x82C\xef\xbf\xbeD\x01\xe2\x82\xacE' "$work/m.csv"
	sed -i '1i # k\xfe=v' "$work/m.csv"
	sed -i 's/^xrWaitFrame,/xrWait\xffFrame,/' "$work/m.functions.csv"
	LC_ALL=C grep -q "^xrWait.Frame," "$work/m.functions.csv" || fail "no function renamed"
	run xlsx "$work/m.csv" -o "$work/m.xlsx"
	[ "$rc" -eq 0 ] || fail "xlsx: status $rc"
	well_formed "$work/m.xlsx"
	python3 - "$work/m.xlsx" <<'EOF' || fail "the cells' text"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
text = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))
for want in ("A\ufffd\ufffdB\ufffd\ufffdC\ufffdD_x0001_\u20acE", "k\ufffd", "xrWait\ufffdFrame"):
    assert want in text, want
EOF
	;;
report_title)
	# The page's <title> holds the target layer, or the file's path: it
	# got their control bytes and bytes that are not UTF-8 raw. Each is
	# U+FFFD now, as in the data block; markup characters are references.
	constant a 10 100 5
	{ printf '# target_layer=A\377\303B\033[31m\001<i>&\302\233\357\277\276\342\202\254\047\042\177E\n'; cat "$work/a.csv"; } >"$work/t.csv"
	cp "$work/a.csv" "$work/d$(printf '\033[31m\377\tx').csv"
	run report "$work/t.csv" -o "$work/t.html"
	[ "$rc" -eq 0 ] || fail "report: status $rc"
	run report "$work"/d*.csv -o "$work/d.html"
	[ "$rc" -eq 0 ] || fail "report of the hostile name: status $rc"
	python3 - "$work/t.html" "$work/d.html" "$work" <<'EOF' || fail "the pages' titles"
import re, sys
def title(path):
    raw = re.search(rb"<title>(.*?)</title>", open(path, "rb").read(), re.S).group(1)
    return raw.decode("utf-8")  # strict: fails on a byte that is not UTF-8
want = "xrlm report: A\ufffd\ufffdB\ufffd[31m\ufffd&lt;i&gt;&amp;\ufffd\ufffd\u20ac&#39;&quot;\ufffdE"
assert title(sys.argv[1]) == want, ascii(title(sys.argv[1]))
assert title(sys.argv[2]) == "xrlm report: " + sys.argv[3] + "/d\ufffd[31m\ufffd\ufffdx.csv", ascii(title(sys.argv[2]))
EOF
	;;
long_comment)
	# '#' lines past the reader's buffer (319 bytes) were cut silently,
	# even inside a character: a target layer of 200 '€' (600 bytes of
	# UTF-8) gave the workbook a broken byte (not well-formed) and the
	# page's title one. Such lines are read whole up to 2047 bytes; a
	# longer one is cut before the character the limit splits, with one
	# warning for the file. A per-side file's name reaches the merged file
	# cut to 255 bytes, also between characters; a mark of 256 bytes,
	# escaped to 1024, reaches the trace whole.
	euros() { i=0; while [ $i -lt $1 ]; do printf '\342\202\254'; i=$((i + 1)); done; }
	constant a 10 100 5
	for n in 200 1000; do
		{ printf '# target_layer=%s\n' "$(euros $n)"; cat "$work/a.csv"; printf '# footer=%s\n' "$(euros $n)"; } >"$work/e$n.csv"
		run xlsx "$work/e$n.csv" -o "$work/e$n.xlsx"
		[ "$rc" -eq 0 ] || fail "xlsx of $n: status $rc"
		well_formed "$work/e$n.xlsx"
		if [ $n = 200 ]; then
			[ ! -s "$work/err" ] || fail "a warning for a line of 615 bytes"
		else
			stderr_once "e1000.csv:1: warning: '#' line longer than 2047 bytes: read up to there, less the character it splits"
		fi
		run report "$work/e$n.csv" -o "$work/e$n.html"
		[ "$rc" -eq 0 ] || fail "report of $n: status $rc"
		page_json "$work/e$n.html" | python3 -c '
import json, re, sys, zipfile
n = int(sys.argv[1])
layer, footer = ("\u20ac" * n, "\u20ac" * n) if n == 200 else ("\u20ac" * 677, "\u20ac" * 679)
data = json.load(sys.stdin)
assert data["target_layer"] == layer, len(data["target_layer"])
assert ["footer", footer] in data["footer"], data["footer"]
title = re.search(rb"<title>(.*?)</title>", open(sys.argv[2], "rb").read()).group(1).decode()
assert title == "xrlm report: " + layer, len(title)
summary = zipfile.ZipFile(sys.argv[3]).read("xl/worksheets/sheet1.xml").decode()
assert "<t>" + layer + "</t>" in summary, "the Summary sheet"
' $n "$work/e$n.html" "$work/e$n.xlsx" || fail "the long lines of $n"
	done
	mkdir "$work/s"
	"$gen" "$work/s" t 20 >/dev/null || fail "gen_session failed"
	for side in pre post; do
		sed -i "s/^# target_layer=.*/# target_layer=x$(euros 200)/" "$work/s/frames-t-$side.csv"
	done
	t=$(sed -n 18p "$work/s/frames-t-pre.csv" | cut -d, -f3)
	sed -i "18a # mark t=$t text=$(i=0; while [ $i -lt 255 ]; do printf '\\x2c'; i=$((i + 1)); done)z" "$work/s/frames-t-pre.csv"
	run merge "$work/s/frames-t-pre.csv" "$work/s/frames-t-post.csv" -o "$work/s/m.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "merge: status $rc, or a warning"
	grep -qx "# target_layer=x$(euros 84)" "$work/s/m.csv" || fail "the merged file's target layer"
	run trace "$work/s/frames-t-pre.csv" -o "$work/s/t.json"
	[ "$rc" -eq 0 ] && ! grep -q "longer than" "$work/err" || fail "trace: status $rc, or a line cut"
	python3 -c '
import json, sys
marks = [e["name"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "mark"]
assert marks == ["," * 255 + "z"], marks' "$work/s/t.json" || fail "the mark in the trace"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
