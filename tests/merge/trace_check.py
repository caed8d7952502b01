#!/usr/bin/env python3
"""Checks `xrlm trace` outputs with python3's json parser:

    trace_check.py FILE.json...

Fails (exit 1, one line) unless every process and track is named and the
slices on every track nest (no slice ends inside another it does not
contain). Prints, one line per file: pre slices, post slices, target CPU
slices, target GPU slices, the sum of xrEndFrame's target_us (µs, 3
decimals), counters, instants, and the post slices that no pre slice of
their thread and frame contains (the target's own calls).
"""
import collections
import json
import sys

EPS = 0.0005  # µs: the file's last decimal


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_nesting(tracks, named, procs):
    for key, slices in tracks.items():
        if key not in named:
            fail(f"track {key} has no thread_name")
        if key[0] not in procs:
            fail(f"process {key[0]} has no process_name")
        slices.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, e in slices:
            while stack and stack[-1] <= start + EPS:
                stack.pop()
            if stack and end > stack[-1] + EPS:
                fail(f"slice {e['name']} at {start} on {key} overlaps its parent without nesting")
            stack.append(end)


def post_outside(tracks):
    pre = {}
    for k, v in tracks.items():
        for start, end, e in v if k[0] == 1 else []:
            pre.setdefault((e["tid"], e["args"]["frame_id"]), []).append((start, end))
    outside = 0
    for k, v in tracks.items():
        for start, end, e in v if k[0] == 2 else []:
            spans = pre.get((e["tid"], e["args"]["frame_id"]), [])
            if not any(s - EPS <= start and end <= t + EPS for s, t in spans):
                outside += 1
    return outside


def figures(events):
    tracks = collections.defaultdict(list)
    named, procs = set(), set()
    counts = collections.Counter()
    end_target = 0.0
    for e in events:
        ph = e["ph"]
        counts[ph] += 1
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            if e["name"] == "process_name":
                procs.add(e["pid"])
        elif ph == "X":
            tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e))
            if e["pid"] == 3 and e["name"] == "xrEndFrame":
                end_target += e["args"]["target_us"]
    check_nesting(tracks, named, procs)

    def n(pid, gpu):
        return sum(len(v) for k, v in tracks.items() if k[0] == pid and (k[1] == 0) == gpu)

    return "%d %d %d %d %.3f %d %d %d" % (n(1, False), n(2, False), n(3, False), n(3, True),
                                          end_target, counts["C"], counts["i"],
                                          post_outside(tracks))


for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        print(figures(json.load(f)["traceEvents"]))
