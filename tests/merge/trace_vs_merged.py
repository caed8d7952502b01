#!/usr/bin/env python3
"""Compares `xrlm trace`'s figures with the merged CSV of the same session:

    trace_vs_merged.py TRACE.json MERGED.csv

- the `target_us` counter: one sample per merged row, in the rows' order,
  each the row's target_us;
- the `target GPU` slices: the slice of every row with a target_gpu_us
  carries it as `target_gpu_us` and the row's target_gpu_raw_us as
  `target_gpu_raw_us`; the `target_gpu_us` counter is the slices' figure.

Fails (exit 1, one line naming the first difference); else prints the
numbers compared: rows, GPU rows.
"""
import json
import sys

EPS = 0.0005  # µs: the files' last decimal


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def merged_rows(path):
    header, rows = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            cells = line.rstrip("\n").split(",")
            if header is None:
                header = cells
            else:
                rows.append(dict(zip(header, cells)))
    return rows


def same(a, b):
    return abs(float(a) - float(b)) <= EPS


def check_cpu(events, rows):
    counter = sorted((e["ts"], e["args"]["value"]) for e in events
                     if e["ph"] == "C" and e["pid"] == 3 and e["name"] == "target_us")
    if len(counter) != len(rows):
        fail(f"{len(counter)} target_us counter samples, {len(rows)} merged rows")
    for i, ((ts, value), row) in enumerate(zip(counter, rows)):
        if not same(value, row["target_us"]):
            fail(f"row {i + 1} (display_time {row['display_time']}): target_us counter {value} "
                 f"at {ts}, merged target_us {row['target_us']}")


def check_gpu(events, rows):
    slices = {}
    for e in events:
        if e["ph"] == "X" and e["pid"] == 3 and e["name"] == "target GPU":
            slices[e["args"]["display_time"]] = e
    gpu_rows = [r for r in rows if r["target_gpu_us"] != ""]
    blank = {int(r["display_time"]) for r in rows if r["target_gpu_us"] == ""}
    for dt, e in slices.items():
        if dt in blank and "target_gpu_us" in e["args"]:
            fail(f"display_time {dt}: the slice's target_gpu_us {e['args']['target_gpu_us']}, "
                 "the merged row has none")
    for row in gpu_rows:
        e = slices.get(int(row["display_time"]))
        if e is None:
            fail(f"no target GPU slice for display_time {row['display_time']}")
        for arg in ("target_gpu_us", "target_gpu_raw_us"):
            if arg not in e["args"] or not same(e["args"][arg], row[arg]):
                fail(f"display_time {row['display_time']}: the slice's {arg} "
                     f"{e['args'].get(arg)}, merged {row[arg]}")
    counter = sorted((e["ts"], e["args"]["value"]) for e in events
                     if e["ph"] == "C" and e["pid"] == 3 and e["name"] == "target_gpu_us")
    by_ts = sorted((e["ts"], e["args"]["target_gpu_us"]) for e in slices.values()
                   if "target_gpu_us" in e["args"])
    if [v for _, v in counter] != [v for _, v in by_ts]:
        fail("the target_gpu_us counter is not the target GPU slices' target_gpu_us")
    return len(gpu_rows)


with open(sys.argv[1], encoding="utf-8") as f:
    trace_events = json.load(f)["traceEvents"]
merged = merged_rows(sys.argv[2])
check_cpu(trace_events, merged)
print(len(merged), check_gpu(trace_events, merged))
