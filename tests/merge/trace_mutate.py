#!/usr/bin/env python3
"""Makes fuzzed copies of a session for `xrlm trace`'s tests:

    trace_mutate.py DIR TAG N

DIR/z1 ... DIR/zN, each a copy of the session TAG's files with one file
mutated: 1 to 8 bytes flipped, inserted (separators, quotes, huge numbers,
invalid UTF-8, markup) or deleted at places seeded by the copy's number, so
every run makes the same sessions.
"""
import os
import random
import shutil
import sys

w, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(f for f in os.listdir(w) if f"-{tag}-" in f)
inserts = [b",", b"\n", b"\"", b"-", b"9999999999999999999", b"\xff\xfe", b"</script>"]
for seed in range(1, count + 1):
    d = os.path.join(w, "z%d" % seed)
    os.mkdir(d)
    for f in files:
        shutil.copy(os.path.join(w, f), d)
    r = random.Random(seed)
    name = os.path.join(d, r.choice(files))
    with open(name, "rb") as f:
        data = bytearray(f.read())
    for _ in range(r.randint(1, 8)):
        p = r.randrange(len(data))
        op = r.randrange(3)
        if op == 0:
            data[p] = r.randrange(256)
        elif op == 1:
            data[p:p] = r.choice(inserts)
        else:
            del data[p:p + r.randint(1, 20)]
    with open(name, "wb") as f:
        f.write(data)
