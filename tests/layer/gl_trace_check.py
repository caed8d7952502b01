#!/usr/bin/env python3
"""Where `xrlm trace` puts an OpenGL session's GPU slices (tests/layer/gl.sh):

    gl_trace_check.py TRACE.json FRAMES-PRE.csv

Prints two numbers: the target GPU slices, and how many of them start where
pre issued the frame's GL timestamp, inside pre's xrEndFrame bracket of the
same frame (display_time), read from pre's frames file: from 1 ms before
its t_entry (pre issues its timestamp just before that clock read) to
10 ms after its t_exit. Only a GL-to-CLOCK_MONOTONIC calibration that is
right to within a few milliseconds puts them there; without one the trace
has no GPU slice at all.
"""
import csv
import json
import sys

BEFORE_NS = 1_000_000
AFTER_NS = 10_000_000


def brackets(path):
    with open(path, encoding="utf-8") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {int(r["display_time"]): (int(r["t_entry"]), int(r["t_exit"])) for r in rows}


def main(trace, frames_pre):
    with open(trace, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    frames = brackets(frames_pre)
    slices = placed = 0
    for e in events:
        if e["ph"] != "X" or e["name"] != "target GPU":
            continue
        slices += 1
        frame = frames.get(int(e["args"]["display_time"]))
        ts = e["ts"] * 1000.0  # µs on the trace, CLOCK_MONOTONIC ns in the file
        if frame and frame[0] - BEFORE_NS <= ts <= frame[1] + AFTER_NS:
            placed += 1
    print(slices, placed)


main(sys.argv[1], sys.argv[2])
