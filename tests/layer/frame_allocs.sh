#!/bin/sh
# Recording takes no lock and allocates nothing on the application's
# frame thread, calls the system never sees (an uncontended mutex, an
# allocation from the heap's free lists): counted on the main thread by an
# LD_PRELOAD shim (tl_frame_shim.c), headless, every function called and
# recorded (--calls full), unpaced. What 2000 frames more cost (2500
# frames less 500) recording must be what they cost with the layers idle:
# the app, loader, runtime and target's own (the runtime takes ~70 locks a
# frame here, allocates nothing).
# Usage: frame_allocs.sh SHIM.so
. "$(dirname "$0")/lib.sh"
shim=$1
[ -f "$shim" ] || fail "no shim at $shim"
setup
export XRTEST_FRAME_RATE=0 XR_ENABLE_API_LAYERS="$PRE:$TARGET:$POST"
counts=$XRLM_TEST_WORK/counts

# count FRAMES: "<allocations> <locks>" of the main thread in a run of FRAMES frames.
count() {
	rm -rf "$OUT" "$counts" && mkdir -p "$OUT"
	XRLM_TEST_SHIM_COUNTS=$counts LD_PRELOAD="$shim" "$XRLM_TEST_APP" --graphics headless \
		--calls full --frames "$1" >"$XRLM_TEST_WORK/app.log" 2>&1 ||
		fail "xrlm-test-app --frames $1 failed: $(tail -n 5 "$XRLM_TEST_WORK/app.log")"
	[ -s "$counts" ] || fail "the shim wrote no counts"
	cat "$counts"
}

# more: what 2000 frames more cost, "<allocations> <locks>".
more() {
	short=$(count 500) || exit 1
	long=$(count 2500) || exit 1
	set -- $short $long
	[ "$1" -gt 0 ] || fail "the shim saw no allocation at all (another allocator first: ASan's?)"
	echo $(($3 - $1)) $(($4 - $2))
}

unset XRLM_RECORD
set -- $(more)
idle_allocs=$1 idle_locks=$2
export XRLM_RECORD=1
set -- $(more)
rec_allocs=$1 rec_locks=$2
rows=$(data_rows "$(ls "$OUT"/calls-*-pre.csv)" | wc -l)
note "main thread over 2000 frames more: $idle_allocs allocations and $idle_locks mutex locks idle, $rec_allocs and $rec_locks recording ($rows calls recorded by pre in the 2500-frame run)"
[ "$rows" -ge 20000 ] || fail "only $rows calls recorded: the run did not record every function"
[ "$rec_allocs" -le "$idle_allocs" ] ||
	fail "recording allocated $((rec_allocs - idle_allocs)) times more on the frame thread in 2000 frames"
[ "$rec_locks" -le "$idle_locks" ] ||
	fail "recording took $((rec_locks - idle_locks)) mutex locks more on the frame thread in 2000 frames"
