#!/usr/bin/env python3
"""A stand-in for a monitored process's control socket, for xrlm ctl's tests.

  ctl_server.py MODE     binds $XDG_RUNTIME_DIR/xrlm/<its pid>.sock, listens,
                         prints its pid on stdout (the sign that it accepts
                         connections), then serves one client at a time
                         until killed

MODE says what its replies hold (the protocol: README, "Control socket"):
  hostile  values, keys and an ERR text with a raw ESC, a C1 control in
           UTF-8 (U+009B, CSI to a terminal) and as a bare byte, and an
           escaped backslash: what xrlm must not show raw
  drip     a reply that never ends: a data line every 0.2 s, no OK or ERR
  v2       greets as a process speaking protocol version 2, then as hostile
  bound    never listens: prints its pid once bound, then sleeps until
           killed (a live process between bind and listen, as the layer is
           for a moment at instance creation)
"""
import os
import socket
import sys
import time

ESC = b"\x1b[31m"
CSI = b"\xc2\x9b" + b"2J"
BARE = b"\x9b" + b"2J"

HOSTILE = {
    b"status": b"version=1 pid=1 app=A" + CSI + b"B target_layer=T" + ESC
    + b" recording=1 session=s" + BARE + b" frames=0 output_dir=/tmp/o" + CSI
    + b"\\x5cx\\x1b k" + ESC + b"ey=1\nOK\n",
    b"stop": b"session=s\nmerged=/tmp/o" + CSI + b"/frames-merged-s.csv\nOK stopped\n",
    b"start": b"session=s" + CSI + b"\nOK recording; " + ESC + b"ended" + CSI + b"\n",
}


def serve(conn, mode):
    version = 2 if mode == "v2" else 1
    conn.sendall(b"OK xrlm-ctl %d pid=%d\n" % (version, os.getpid()))
    f = conn.makefile("rb")
    for request in f:
        request = request.strip()
        if mode == "drip":
            while True:
                conn.sendall(b"x=1\n")
                time.sleep(0.2)
        conn.sendall(HOSTILE.get(request, b"ERR no such request " + ESC + CSI + b"\n"))


def main():
    mode = sys.argv[1]
    d = os.path.join(os.environ["XDG_RUNTIME_DIR"], "xrlm")
    os.makedirs(d, mode=0o700, exist_ok=True)
    path = os.path.join(d, "%d.sock" % os.getpid())
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chmod(path, 0o600)
    if mode == "bound":
        print(os.getpid(), flush=True)
        while True:
            time.sleep(60)
    s.listen(8)
    print(os.getpid(), flush=True)
    while True:
        conn, _ = s.accept()
        try:
            serve(conn, mode)
        except OSError:
            pass
        conn.close()


if __name__ == "__main__":
    main()
