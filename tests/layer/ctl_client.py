#!/usr/bin/env python3
"""Raw clients of the monitor's control socket, for tests/layer/ctl.sh.

  ctl_client.py greeting SOCKET       print the first line the server sends
  ctl_client.py flood SOCKET N        N hostile connections; prints a summary,
                                      exits 1 on any reply that breaks the protocol
  ctl_client.py limit SOCKET          a request of the longest length served and one
                                      a byte longer; exits 1 unless only that one is refused
  ctl_client.py leave SOCKET N REQ    N clients, one after another, each served, sends REQ
                                      and hangs up without waiting for the reply
  ctl_client.py talk SOCKET REQ...    on one connection, sends each REQ (a "\\r" in it is a
                                      carriage return) and prints the reply's lines; after the
                                      last, "EOF" if the server has closed the connection
"""
import os
import random
import socket
import sys
import time


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    return s


def read_line(s, buf):
    while b"\n" not in buf[0]:
        chunk = s.recv(4096)
        if not chunk:
            raise EOFError("connection closed")
        buf[0] += chunk
    line, _, rest = buf[0].partition(b"\n")
    buf[0] = rest
    return line.decode("utf-8", "replace")


def greeting(path):
    s = connect(path)
    print(read_line(s, [b""]))


# What each kind of hostile request must get back once served.
EXPECT = {
    "garbage": "ERR unknown request",
    "binary": "ERR malformed request",
    "oversized": "ERR request too long",
    "args": "ERR status takes no argument",
    "blank": "ERR a request begins with its word",
    "badmark": "ERR mark: the text must be",
}


def request(kind, rng):
    if kind == "garbage":
        return bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz{}[]%$") for _ in range(rng.randint(1, 60))) + b"\n"
    if kind == "binary":
        noise = bytes(rng.choice([b for b in range(1, 256) if b != 10]) for _ in range(20))
        return noise + b"\0" + b"x\n"
    if kind == "oversized":
        return b"status " + b"A" * rng.randint(600, 5000) + b"\n"
    if kind == "args":
        return b"status now\n"
    if kind == "blank":
        return b" status\n"
    return b"mark \x01\x02\n"  # badmark


def hold(path, n, seconds):
    """n half-open connections at once: the server must cap what it keeps."""
    held = []
    for _ in range(n):
        try:
            s = connect(path)
            s.sendall(b"sta")
            held.append(s)
        except (OSError, socket.timeout):
            pass
    time.sleep(seconds)
    for s in held:
        s.close()
    return len(held)


def flood(path, n):
    rng = random.Random(12)
    kinds = list(EXPECT) + ["half_open", "drop", "partial_close"]
    held, counts, bad = [], {}, []
    counts["held_at_once"] = hold(path, 64, 1.0)
    for i in range(n):
        kind = kinds[i % len(kinds)]
        try:
            s = connect(path)
        except (BlockingIOError, ConnectionRefusedError, socket.timeout) as e:
            counts["connect_refused"] = counts.get("connect_refused", 0) + 1
            time.sleep(0.01)
            continue
        buf = [b""]
        try:
            if kind == "drop":
                s.close()
            elif kind == "half_open":
                s.sendall(b"sta")  # never finished; held open, never read
                held.append(s)
                if len(held) > 4:  # leaves the server room to serve the others
                    held.pop(0).close()
            elif kind == "partial_close":
                s.sendall(b"stat")
                s.shutdown(socket.SHUT_WR)
                s.close()
            else:
                first = read_line(s, buf)
                if first.startswith("ERR too many clients"):
                    kind = "refused_busy"
                elif not first.startswith("OK xrlm-ctl 1 "):
                    bad.append((kind, first))
                else:
                    s.sendall(request(kind, rng))
                    reply = read_line(s, buf)
                    if not reply.startswith(EXPECT[kind]):
                        bad.append((kind, reply))
                s.close()
        except (BrokenPipeError, ConnectionResetError) as e:
            # Refused as busy before the request went out, or closed on an
            # oversized request before it was all sent: both are answers.
            if kind in ("half_open", "partial_close", "oversized"):
                kind = "closed_by_server"
            else:
                bad.append((kind, repr(e)))
            s.close()
        except (EOFError, socket.timeout) as e:
            bad.append((kind, repr(e)))
            s.close()
        counts[kind] = counts.get(kind, 0) + 1
    for s in held:
        s.close()
    print(" ".join("%s=%d" % kv for kv in sorted(counts.items())))
    for kind, what in bad[:10]:
        print("UNEXPECTED %s: %s" % (kind, what))
    return 1 if bad else 0


def ask(path, request):
    """The reply's first line to one request on a connection of its own."""
    s = connect(path)
    buf = [b""]
    read_line(s, buf)  # the greeting
    s.sendall(request)
    reply = read_line(s, buf)
    s.close()
    return reply


def limit(path):
    """README: a request longer than 511 bytes (before its newline) is refused."""
    served = ask(path, b"x" * 511 + b"\n")
    refused = ask(path, b"x" * 512 + b"\n")
    print("511 bytes: %s\n512 bytes: %s" % (served, refused))
    ok = served.startswith("ERR unknown request") and \
        refused == "ERR request too long (at most 511 bytes before its newline)"
    return 0 if ok else 1


def leave(path, n, req):
    for _ in range(n):
        s = connect(path)
        greeting = read_line(s, [b""])
        if not greeting.startswith("OK xrlm-ctl 1 "):
            print("not served: %s" % greeting)
            return 1
        s.sendall(req.encode() + b"\n")
        s.close()
    return 0


def is_status(line):
    return line.startswith("OK") or line.startswith("ERR")


def talk(path, requests):
    s = connect(path)
    buf = [b""]
    read_line(s, buf)  # the greeting
    for req in requests:
        s.sendall(req.replace("\\r", "\r").encode() + b"\n")
        while True:
            line = read_line(s, buf)
            print(line)
            if is_status(line):
                break
    s.settimeout(5)
    try:
        if not buf[0] and not s.recv(1):
            print("EOF")
    except socket.timeout:
        pass
    s.close()
    return 0


def main():
    if sys.argv[1] == "greeting":
        greeting(sys.argv[2])
        return 0
    if sys.argv[1] == "limit":
        return limit(sys.argv[2])
    if sys.argv[1] == "talk":
        return talk(sys.argv[2], sys.argv[3:])
    if sys.argv[1] == "leave":
        return leave(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    return flood(sys.argv[2], int(sys.argv[3]))


if __name__ == "__main__":
    sys.exit(main())
