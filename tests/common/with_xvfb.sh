#!/bin/sh
# Runs a command on a private Xvfb display (Mesa's llvmpipe renders GLX
# there): the tests' X server for OpenGL sessions, since CI has no display.
# Xvfb picks a free display number itself (-displayfd), so parallel tests
# never race for one as `xvfb-run -a` can. The server is stopped on the way
# out; the command's exit status is passed through.
#
# usage: with_xvfb.sh COMMAND [ARGS...]
set -eu
command -v Xvfb >/dev/null || { echo "FAIL: Xvfb is not installed (scripts/setup-debian)" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-xvfb.XXXXXX")
xvfb=
cleanup() {
	[ -z "$xvfb" ] || { kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null || true; }
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$dir/display" \
	>"$dir/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 100); do
	[ -s "$dir/display" ] && break
	kill -0 "$xvfb" 2>/dev/null || break
	sleep 0.1
done
[ -s "$dir/display" ] || { cat "$dir/xvfb.log" >&2; echo "FAIL: Xvfb did not start" >&2; exit 1; }
DISPLAY=:$(head -n1 "$dir/display")
export DISPLAY
rc=0
"$@" || rc=$?
exit "$rc"
