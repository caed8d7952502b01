#!/bin/sh
# The calls files (calls-<tag>-<side>.csv): through pre:target:post with the
# test app, each side's file has the frames file's header lines without
# fn=, the column header, one row per call of every function, rows in
# t_entry order, and the footer; pre and post list the same calls (the
# synthetic target forwards every one); xrEndFrame's rows are exactly the
# frames file's (thread_id, t_entry, t_exit); frame ids count xrWaitFrame
# (each xrWaitFrame starts the next id, every call carries the id current
# when it began); results are the XrResult as a number (xrPollEvent's
# XR_EVENT_UNAVAILABLE = 4). The calls files add # phases_recorded=, every
# phase here. The recording starts and stops inside an xrEndFrame: the
# merged file's first row has its phases blank (its frame began before
# the recording), every later row has them; the functions file counts
# every call recorded (those of the frame after the last xrEndFrame map to
# no row: calls_frames_unmapped). The recording starts in the session's
# first xrEndFrame: frame 1, and the next xrWaitFrame starts frame 2.
# Post's bracket_correction_ns is twice the clock read its log reports.
# Usage: calls.sh headless|vulkan2
. "$(dirname "$0")/lib.sh"
graphics=$1
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1 XRLM_RECORD_FRAMES=200
run_app --graphics "$graphics" --frames 250

for side in pre post; do
	calls=$(ls "$OUT"/calls-*-$side.csv 2>/dev/null) || fail "no $side calls file"
	frames=$(ls "$OUT"/frames-*-$side.csv)
	tag=$(basename "$calls" | sed "s/^calls-//; s/-$side\.csv\$//")
	# The frames file's "#" lines, without fn=, then the columns.
	grep '^#' "$frames" | grep -v '^# fn=\|^# session_end' >"$XRLM_TEST_WORK/want.head"
	sed -n '/^fn,/q; /^# phases_recorded=/d; p' "$calls" >"$XRLM_TEST_WORK/got.head"
	[ "$(header_value "$calls" phases_recorded)" = wait,begin,end,locate_views,sync_actions,swapchain,other ] ||
		fail "$side calls file's phases_recorded is not every phase: $(header_value "$calls" phases_recorded)"
	cmp -s "$XRLM_TEST_WORK/want.head" "$XRLM_TEST_WORK/got.head" ||
		fail "$side calls file's header lines differ from the frames file's: $(diff "$XRLM_TEST_WORK/want.head" "$XRLM_TEST_WORK/got.head")"
	# ... and phases_recorded comes after them, just before the columns (README).
	case $(grep -B1 '^fn,' "$calls" | head -n 1) in
	"# phases_recorded="*) ;;
	*) fail "$side calls file: the line before the columns is not # phases_recorded=: $(grep -B1 '^fn,' "$calls" | head -n 1)" ;;
	esac
	grep -q "^# session=$tag\$" "$calls" || fail "$side calls file lacks # session=$tag"
	# Even: the merge charges a call half of it per bracket, in whole ns.
	if [ $side = post ]; then
		bc=$(header_value "$calls" bracket_correction_ns)
		[ -n "$bc" ] && [ $((bc % 2)) = 0 ] || fail "post's bracket_correction_ns is '$bc', not even"
		# Two clock reads' cost: twice the one post's log says it measured.
		read=$(sed -n 's/.*clock read: \([0-9.]*\) ns; bracket correction: .*/\1/p' "$OUT/xrlm-post.log")
		[ -n "$read" ] && near "$bc" "$(awk -v r="$read" 'BEGIN { print 2 * r }')" 1.2 ||
			fail "post's bracket_correction_ns is $bc, not twice the clock read's '$read' ns"
	fi
	[ "$(grep -v '^#' "$calls" | head -n 1)" = "fn,thread_id,t_entry,t_exit,frame_id,result" ] ||
		fail "$side calls file's column header is wrong"
	[ "$(tail -n 1 "$calls")" = "# session_end dropped_queue_full=0" ] ||
		fail "$side calls file's footer is missing or counts drops: $(tail -n 1 "$calls")"
	data_rows "$calls" >"$XRLM_TEST_WORK/$side.rows"
	cut -d, -f1 "$XRLM_TEST_WORK/$side.rows" | sort | uniq -c >"$XRLM_TEST_WORK/$side.counts"

	# xrEndFrame's rows are the frames file's rows.
	grep '^xrEndFrame,' "$XRLM_TEST_WORK/$side.rows" | cut -d, -f2-4 >"$XRLM_TEST_WORK/$side.ef"
	data_rows "$frames" | cut -d, -f2-4 >"$XRLM_TEST_WORK/$side.frames"
	[ "$(wc -l <"$XRLM_TEST_WORK/$side.ef")" -eq 200 ] ||
		fail "$side calls file has $(wc -l <"$XRLM_TEST_WORK/$side.ef") xrEndFrame rows, not 200"
	cmp -s "$XRLM_TEST_WORK/$side.ef" "$XRLM_TEST_WORK/$side.frames" ||
		fail "$side: the calls file's xrEndFrame rows differ from the frames file's"

	# The recording started in the session's first xrEndFrame (XRLM_RECORD=1):
	# frame 1, the count of xrWaitFrame calls so far; the next wait starts 2.
	first=$(awk -F, 'NR == 1 { print $1, $5 } $1 == "xrWaitFrame" { print $1, $5; exit }' "$XRLM_TEST_WORK/$side.rows" | tr '\n' ' ')
	[ "$first" = "xrEndFrame 1 xrWaitFrame 2 " ] ||
		fail "$side calls file: the first row and xrWaitFrame are '$first', not frames 1 and 2"
	# Order, frame ids, results.
	awk -F, -v side="$side" '
		function bad(msg) { print side ": line " NR ": " msg ": " $0 > "/dev/stderr"; failed = 1; exit 1 }
		$4 < $3 { bad("t_exit before t_entry") }
		$3 < last { bad("rows not in t_entry order") }
		{ last = $3 }
		$1 == "xrWaitFrame" {
			if (waits && $5 != id + 1) bad("xrWaitFrame does not start the next frame id")
			id = $5; waits++; next
		}
		waits && $5 != id { bad("frame id is not the latest xrWaitFrame'"'"'s") }
		$1 == "xrPollEvent" && $6 != 0 && $6 != 4 { bad("xrPollEvent result neither 0 nor 4") }
		$1 == "xrPollEvent" && $6 == 4 { unavailable++ }
		$1 != "xrPollEvent" && $6 != 0 { bad("non-zero result") }
		END { if (!failed && (waits < 150 || !unavailable)) { print side ": " waits " xrWaitFrame rows, " unavailable " XR_EVENT_UNAVAILABLE" > "/dev/stderr"; exit 1 } }
	' "$XRLM_TEST_WORK/$side.rows" || fail "$side calls file: see above"
done
cmp -s "$XRLM_TEST_WORK/pre.counts" "$XRLM_TEST_WORK/post.counts" ||
	fail "pre and post recorded different calls: $(diff "$XRLM_TEST_WORK/pre.counts" "$XRLM_TEST_WORK/post.counts")"
for fn in xrWaitFrame xrBeginFrame xrEndFrame xrPollEvent; do
	grep -q " $fn\$" "$XRLM_TEST_WORK/pre.counts" || fail "no $fn recorded"
done
if [ "$graphics" != headless ]; then
	for fn in xrLocateViews xrAcquireSwapchainImage xrWaitSwapchainImage xrReleaseSwapchainImage; do
		grep -q " $fn\$" "$XRLM_TEST_WORK/pre.counts" || fail "no $fn recorded"
	done
fi

m=$(merged_files)
wait_col=$(column_of "$m" target_wait_us)
total_col=$(column_of "$m" target_total_us)
[ "$(data_rows "$m" | head -n 1 | cut -d, -f"$wait_col-$total_col" | tr -d ,)" = "" ] ||
	fail "the first row's phases are not blank: its frame began before the recording"
data_rows "$m" | tail -n +2 | cut -d, -f"$wait_col-$total_col" | grep -q '^,\|,,\|,$' &&
	fail "a later row has a blank phase"
note "calls files ($graphics): $(awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }' "$XRLM_TEST_WORK/pre.counts")"
