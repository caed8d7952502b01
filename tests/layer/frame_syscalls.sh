#!/bin/sh
# Recording makes no system call on the application's frame thread: what
# the layers do there is clock reads (the vDSO's, no system call), atomics
# and ring pushes, never a lock that may sleep (a futex), an allocation
# that maps memory, I/O or a wake-up of the writer (it polls). Measured as
# the main thread's system calls under strace, headless (no GPU work: a
# Vulkan submission is a driver's own business), every function called
# and recorded (--calls full), unpaced: the count for 2500 frames less
# that for 500 frames is what 2000 frames cost, the calls the recording's
# start and end make (once a run) cancelling out. Left out: the layers'
# bounded waits outside the frame functions, 100 us sleeps as many as
# the writers' pace makes (xrCreateSession waits up to 50 ms for the
# writers' first pass when recording starts at the first frame,
# xrDestroySession for their last: 1 to ~500 of them on a loaded machine).
# Without the layers' recording (XRLM_RECORD unset, the layers in the
# chain) the same difference is the app's and runtime's own, 0 here. A
# call a frame would be 2000; one every 50 frames, 40.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || fail "strace is not installed (scripts/setup-debian test installs it)"
setup
export XRTEST_FRAME_RATE=0 XR_ENABLE_API_LAYERS="$PRE:$TARGET:$POST"

# calls FRAMES: the main thread's system calls in a run of FRAMES frames.
calls() {
	rm -rf "$OUT" && mkdir -p "$OUT"
	# LeakSanitizer stops the world with ptrace, which strace holds.
	ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -o "$XRLM_TEST_WORK/trace" "$XRLM_TEST_APP" --graphics headless --calls full \
		--frames "$1" >"$XRLM_TEST_WORK/app.log" 2>&1 ||
		fail "xrlm-test-app --frames $1 under strace failed: $(tail -n 5 "$XRLM_TEST_WORK/app.log")"
	pid=$(head -n 1 "$XRLM_TEST_WORK/trace" | cut -d' ' -f1)
	# A call strace split ("<... futex resumed>") counts once; the waits'
	# 100 us sleeps (xl_thread_sleep_ns) are not counted.
	grep "^$pid " "$XRLM_TEST_WORK/trace" | grep -v "^$pid <\.\.\." |
		grep -c -v "nanosleep(\(CLOCK_[A-Z]*, 0, \)\{0,1\}{tv_sec=0, tv_nsec=100000}" || true
}

# Each run on its own line: a failed run's fail() ends only its
# substitution, whose status the assignment then takes.
unset XRLM_RECORD
long=$(calls 2500) || exit 1
short=$(calls 500) || exit 1
idle=$((long - short))
export XRLM_RECORD=1
short=$(calls 500) || exit 1
rows=$(data_rows "$(ls "$OUT"/calls-*-pre.csv)" | wc -l)
long=$(calls 2500) || exit 1
rec=$((long - short))
rows=$(($(data_rows "$(ls "$OUT"/calls-*-pre.csv)" | wc -l) - rows))
note "main thread's system calls for 2000 frames more: $idle idle, $rec recording ($rows calls more recorded by pre)"
[ "$rows" -ge 18000 ] || fail "only $rows more calls recorded: the runs did not record every function"
[ "$idle" -le 40 ] || fail "the app and runtime alone make $idle system calls in 2000 frames: the test cannot tell the layers' apart"
[ "$rec" -le 40 ] || {
	pid=$(head -n 1 "$XRLM_TEST_WORK/trace" | cut -d' ' -f1)
	fail "recording made $rec system calls more on the frame thread in 2000 frames more; the 2500-frame run's: $(grep "^$pid " "$XRLM_TEST_WORK/trace" | sed 's/^[0-9]* //; s/(.*//' | sort | uniq -c | sort -rn | head -n 5 | tr -s ' \n' ' ')"
}
