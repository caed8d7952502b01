# Shared by the CLI tests of xrlm (sourced after setting xrlm and
# case_name): a private work directory removed at exit, and the helpers
# below. Each case exits non-zero on failure with a line saying why.

work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-cli-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

fail() {
	echo "FAIL ($case_name): $*" >&2
	echo "--- stdout" >&2; cat "$work/out" >&2 2>/dev/null
	echo "--- stderr" >&2; cat "$work/err" >&2 2>/dev/null
	exit 1
}

# run ARGS...: runs xrlm, keeps stdout/stderr in $work/out, $work/err, status in $rc
run() {
	"$xrlm" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" -lt 128 ] || fail "crashed with status $rc"
}

# expect_error STATUS PATTERN: non-zero status, exactly one stderr line matching PATTERN
expect_error() {
	[ "$rc" -eq "$1" ] || fail "status $rc, expected $1"
	[ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected exactly one line on stderr"
	grep -q -- "$2" "$work/err" || fail "stderr does not match '$2'"
}


# stderr_once PATTERN: stderr is exactly one line, matching PATTERN (whatever the status)
stderr_once() {
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err" ||
		fail "stderr is not one line matching '$1'"
}

# server MODE: starts tests/merge/ctl_server.py MODE, a stand-in for a
# monitored process's control socket; sets $srv, its pid.
server() {
	export XDG_RUNTIME_DIR="$work/run"
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	python3 "$(dirname "$0")/ctl_server.py" "$1" >"$work/srv" &
	srv=$!
	trap 'kill $srv 2>/dev/null; rm -rf "$work"' EXIT
	i=0
	while [ ! -S "$XDG_RUNTIME_DIR/xrlm/$srv.sock" ]; do
		i=$((i + 1))
		[ $i -le 200 ] || fail "the stand-in server did not start"
		sleep 0.05
	done
}
