#!/usr/bin/env python3
"""Checks where `xrlm trace` puts each event against the session's files:

    trace_times.py TRACE.json DIR TAG

- every call of the calls files (else every xrEndFrame row of the frames
  files, frame ids 1, 2, ...) is a slice on its side's track of its
  thread, from its entry to its exit to the nanosecond; each pre call's
  target slice spans the same; the frame markers lie at the entry and
  exit of xrWaitFrame, xrBeginFrame and xrEndFrame; a mark at its t=;
- every GPU timestamp at its file's latest "# calibration" line before it
  plus its ticks since that line's, times the period (64-bit clocks); the
  target GPU slice of a frame from pre's instant to post's, 0 long (and
  without target_gpu_us) where post's is before pre's;
- the processes sorted pre, target, post.

Fails (exit 1, one line naming the first difference); else prints the
number of events checked.
"""
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ns(us):
    return int(round(us * 1000))


def rows(path):
    header, out, comments = None, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                comments.append((len(out), line[2:]))
                continue
            cells = line.split(",")
            if header is None:
                header = cells
            else:
                out.append(dict(zip(header, cells)))
    return out, comments


def word(text, key):
    for w in text.split():
        if w.startswith(key + "="):
            return int(w[len(key) + 1:])
    return None


def main():
    path, d, tag = sys.argv[1:4]
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    slices, instants = {}, {}
    for e in events:
        if e["ph"] == "X":
            key = (e["pid"], e["tid"], e["name"], e["args"].get("frame_id"))
            slices.setdefault(key, []).append((ns(e["ts"]), ns(e["dur"]), e))
        elif e["ph"] == "i":
            key = (e["pid"], e["tid"], e["name"])
            instants.setdefault(key, []).append((ns(e["ts"]), e))
    checked = 0

    def has_slice(pid, tid, fn, frame, t0, t1):
        got = slices.get((pid, tid, fn, frame), [])
        if not any(ts == t0 and dur == t1 - t0 for ts, dur, _ in got):
            fail(f"pid {pid} tid {tid}: no {fn} slice of frame {frame} from {t0} to {t1} ns: "
                 f"{[(ts, dur) for ts, dur, _ in got]}")

    def has_instant(pid, tid, name, t, frame=None):
        got = instants.get((pid, tid, name), [])
        if not any(ts == t and (frame is None or e["args"].get("frame_id") == frame)
                   for ts, e in got):
            fail(f"pid {pid} tid {tid}: no {name} instant at {t} ns (frame {frame})")

    markers = {"xrWaitFrame": "wait", "xrBeginFrame": "begin", "xrEndFrame": "end"}
    calls = os.path.exists(f"{d}/calls-{tag}-pre.csv")
    for pid, side in ((1, "pre"), (2, "post")):
        if calls:
            rs, _ = rows(f"{d}/calls-{tag}-{side}.csv")
        else:
            rs, _ = rows(f"{d}/frames-{tag}-{side}.csv")
            for i, r in enumerate(rs):
                r["fn"], r["frame_id"] = "xrEndFrame", str(i + 1)
        for r in rs:
            t0, t1, tid, frame = int(r["t_entry"]), int(r["t_exit"]), int(r["thread_id"]), \
                int(r["frame_id"])
            has_slice(pid, tid, r["fn"], frame, t0, t1)
            checked += 1
            if pid == 1:
                has_slice(3, tid, r["fn"], frame, t0, t1)
                if r["fn"] in markers:
                    has_instant(1, tid, markers[r["fn"]] + "_begin", t0, frame)
                    has_instant(1, tid, markers[r["fn"]] + "_end", t1, frame)
                checked += 3
    _, comments = rows(f"{d}/frames-{tag}-pre.csv")
    for _, c in comments:
        if c.startswith("mark "):
            t = word(c, "t")
            if not any(e["ph"] == "i" and e.get("cat") == "mark" and ns(e["ts"]) == t
                       for e in events):
                fail(f"no mark at {t} ns")
            checked += 1
    gpu = {}
    for pid, side in ((1, "pre"), (2, "post")):
        rs, comments = rows(f"{d}/gpu-{tag}-{side}.csv")
        cal = {}
        for at, c in comments:
            if c.startswith("calibration "):
                cal[at] = (word(c, "gpu_ticks"), word(c, "monotonic_ns"))
        last = None
        for i, r in enumerate(rs):
            last = cal.get(i, last)
            t = last[1] + round((int(r["gpu_ticks"]) - last[0]) * float(r["gpu_period_ns"]))
            has_instant(pid, 0, "GPU timestamp", t)
            gpu.setdefault(int(r["display_time"]), {})[side] = t
            checked += 1
    got = {e["args"]["display_time"]: e for e in events
           if e["ph"] == "X" and e["pid"] == 3 and e["name"] == "target GPU"}
    for dt, t in gpu.items():
        e = got.get(dt)
        if e is None:
            fail(f"no target GPU slice for display_time {dt}")
        want_dur = max(t["post"] - t["pre"], 0)
        if ns(e["ts"]) != t["pre"] or ns(e["dur"]) != want_dur:
            fail(f"display_time {dt}: target GPU slice at {ns(e['ts'])} for {ns(e['dur'])} ns, "
                 f"expected {t['pre']} for {want_dur}")
        if (t["post"] < t["pre"]) == ("target_gpu_us" in e["args"]):
            fail(f"display_time {dt}: target_gpu_us {e['args'].get('target_gpu_us')}")
        checked += 1
    order = {e["pid"]: e["args"]["sort_index"] for e in events
             if e["ph"] == "M" and e["name"] == "process_sort_index"}
    if order != {1: 1, 3: 2, 2: 3}:
        fail(f"processes sorted {order}, expected pre, target, post")
    print(checked)


main()
