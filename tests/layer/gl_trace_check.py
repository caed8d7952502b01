#!/usr/bin/env python3
"""Where `xrlm trace` puts an OpenGL session's GPU slices (tests/layer/gl.sh):

    gl_trace_check.py TRACE.json FRAMES-PRE.csv

Prints three numbers: the target GPU slices; how many of them start no
earlier than 1 ms before pre's xrEndFrame bracket of the same frame
(display_time; pre's frames file) began, i.e. not before pre issued the
frame's timestamp (it does so just before its t_entry); and the median, in
ms, of how long after that t_entry they start. A GPU writes a timestamp
once the work before it is done: on an idle llvmpipe within the bracket,
late when its threads wait for a core (a backlog of several frames under
load). So a calibration off by a few ms either way shows: too early breaks
causality, too late moves the median. Without a calibration the trace has
no GPU slice at all.
"""
import csv
import json
import statistics
import sys

BEFORE_NS = 1_000_000


def entries(path):
    with open(path, encoding="utf-8") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {int(r["display_time"]): int(r["t_entry"]) for r in rows}


def main(trace, frames_pre):
    with open(trace, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    frames = entries(frames_pre)
    lags = []
    for e in events:
        if e["ph"] != "X" or e["name"] != "target GPU":
            continue
        t_entry = frames.get(int(e["args"]["display_time"]))
        # µs on the trace, CLOCK_MONOTONIC ns in the file; no frame: never causal
        lags.append(e["ts"] * 1000.0 - t_entry if t_entry else -1e18)
    causal = sum(1 for lag in lags if lag >= -BEFORE_NS)
    median = statistics.median(lags) / 1e6 if lags else float("nan")
    print(len(lags), causal, "%.3f" % median)


main(sys.argv[1], sys.argv[2])
