#!/usr/bin/env python3
"""Writes a synthetic session with calls files for `xrlm trace`'s tests.

    trace_gen.py DIR TAG FRAMES [--threads N] [--induced] [--wrap-bits B]
                 [--answered N] [--gpu-bracket]

DIR/calls-TAG-{pre,post}.csv: per frame, on the render thread,
xrWaitFrame, xrBeginFrame, xrLocateViews and xrEndFrame, and on N - 1
more threads an xrSyncActions each; every pre call contains its post call
(the target's time before and after it), rows in entry order across
threads. --induced adds, in every tenth frame's xrEndFrame, a second post
call (xrGetInstanceProperties, a call the target makes itself) inside it,
and a post call on a thread pre never saw. Also frames-TAG-{pre,post}.csv
(the xrEndFrame rows, and a user's mark after the tenth) and
gpu-TAG-{pre,post}.csv with a calibration line. --wrap-bits writes the
GPU files as a clock B bits wide would (`# gpu_valid_bits=B`, every tick
modulo 2^B): the same session, its GPU clock wrapping. --answered N: the
target answers every Nth xrEndFrame itself (no post call, frames row or GPU
timestamp: an unmatched frame). --gpu-bracket: pre's GPU file measures its
bracket, 12 us before the first row and 15 us from the 50th on.
Prints the numbers the tests check: pre calls, then target slices' sum of
target_us for xrEndFrame (µs, 3 decimals).
"""
import sys

CORRECTION = 50


def header(side, fn=None):
    lines = ["# clock=CLOCK_MONOTONIC", "# clock_freq=1000000000", f"# side={side}",
             f"# layer=XR_APILAYER_XRLM_monitor_{side}", "# target_layer=XR_APILAYER_test \"q\" <t>",
             f"# session={TAG}"]
    if side == "post":
        lines.append(f"# bracket_correction_ns={CORRECTION}")
    if fn:
        lines.append(f"# fn={fn}")
    return "\n".join(lines) + "\n"


args = sys.argv[1:]
DIR, TAG, FRAMES = args[0], args[1], int(args[2])
threads = int(args[args.index("--threads") + 1]) if "--threads" in args else 1
induced = "--induced" in args
wrap_bits = int(args[args.index("--wrap-bits") + 1]) if "--wrap-bits" in args else 64
answered = int(args[args.index("--answered") + 1]) if "--answered" in args else 0
gpu_bracket = "--gpu-bracket" in args

rows = {"pre": [], "post": []}
frames = {"pre": [], "post": []}
t = 1_000_000_000
end_target_ns = 0
for f in range(1, FRAMES + 1):
    calls = [("xrWaitFrame", 1000, 0), ("xrBeginFrame", 1001, 0), ("xrLocateViews", 1000, 0),
             ("xrEndFrame", 1000, 0)]
    calls += [("xrSyncActions", 2000 + k, 0) for k in range(1, threads)]
    for i, (fn, tid, _) in enumerate(calls):
        tid = 1000 if tid == 1001 else tid
        entry = t + i * 100_000 + (tid - 1000) * 7
        below = 30_000 + (f % 7) * 1000
        before, after = 2_000 + (f % 3) * 100, 1_000
        post_entry = entry + before
        post_exit = post_entry + below
        extra = fn == "xrEndFrame" and induced and f % 10 == 0
        own = fn == "xrEndFrame" and answered and f % answered == 0
        exit_ = post_exit + after + (20_000 if extra else 0)
        rows["pre"].append((entry, fn, tid, entry, exit_, f, 0))
        if not own:
            rows["post"].append((post_entry, fn, tid, post_entry, post_exit, f, 0))
        if extra:
            rows["post"].append((post_exit + 5_000, "xrGetInstanceProperties", tid, post_exit + 5_000,
                                 post_exit + 15_000, f, 0))
            rows["post"].append((post_exit + 6_000, "xrPollEvent", 9999, post_exit + 6_000,
                                 post_exit + 7_000, f, 0))
        if fn == "xrEndFrame":
            target = (exit_ - entry) - below - CORRECTION
            if extra:
                target -= 10_000 + CORRECTION // 2  # one read per extra post bracket
            if own:
                target = (exit_ - entry) - CORRECTION // 2  # its own bracket's read only
            end_target_ns += target
            dt = t + 11_000_000
            frames["pre"].append((dt, tid, entry, exit_))
            if not own:
                frames["post"].append((dt, tid, post_entry, post_exit))
    t += 11_111_111

for side in ("pre", "post"):
    with open(f"{DIR}/calls-{TAG}-{side}.csv", "w") as out:
        out.write(header(side) + "fn,thread_id,t_entry,t_exit,frame_id,result\n")
        for r in sorted(rows[side]):
            out.write(f"{r[1]},{r[2]},{r[3]},{r[4]},{r[5]},{r[6]}\n")
        out.write("# session_end dropped_queue_full=0\n")
    with open(f"{DIR}/frames-{TAG}-{side}.csv", "w") as out:
        out.write(header(side, "xrEndFrame") + "display_time,thread_id,t_entry,t_exit\n")
        for i, r in enumerate(frames[side]):
            out.write("%d,%d,%d,%d\n" % r)
            if i == 9:
                # A user's mark (xrlm ctl mark), as the control socket writes it, in both files.
                out.write("# mark t=%d text=shader\\x20cache\\x2c\\x20\\x22warm\\x22\n" % r[2])
        out.write("# session_end dropped_queue_full=0\n")
    with open(f"{DIR}/gpu-{TAG}-{side}.csv", "w") as out:
        out.write(f"# gpu_clock=vulkan\n# side={side}\n# session={TAG}\n# fn=xrEndFrame\n")
        if wrap_bits < 64:
            out.write(f"# gpu_valid_bits={wrap_bits}\n")
        out.write("display_time,gpu_ticks,gpu_period_ns,valid\n")
        out.write("# calibration gpu_ticks=5000 monotonic_ns=1000000000 max_deviation_ns=10\n")
        posted = set(r[0] for r in frames["post"])
        for i, (dt, _, entry, _) in enumerate(frames["pre"]):
            if side == "pre" and gpu_bracket and i in (0, 50):
                out.write("# gpu_bracket_ns=%d\n" % (12_000 if i == 0 else 15_000))
            if side == "post" and dt not in posted:
                continue
            ticks = 5000 + (entry - 1_000_000_000) + (100_000 if side == "post" else 0)
            out.write(f"{dt},{ticks % (1 << wrap_bits)},1,1\n")
        out.write("# session_end gpu_ring_overflow=0\n")
print(len(rows["pre"]), "%.3f" % (end_target_ns / 1000))
