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

# read_back CMD FILE OTHER OUT: xrlm CMD (stats, compare, report or xlsx)
# reading merged FILE back as a user would: compare against merged file
# OTHER, report and xlsx writing OUT.
read_back() {
	case $1 in
	compare) run compare "$2" "$3" ;;
	stats) run stats "$2" ;;
	*) run "$1" "$2" -o "$4" ;;
	esac
}

# server MODE: starts tests/merge/ctl_server.py MODE, a stand-in for a
# monitored process's control socket; sets $srv, its pid. Returns once the
# server listens: it prints its pid after listen(). The socket file is
# there from bind(), before: a client connecting then is refused (a
# loaded machine held the server between the two, and xrlm took the
# socket for a dead process's). Up to 60 s: python3 starts slowly on a
# busy machine.
server() {
	export XDG_RUNTIME_DIR="$work/run"
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	python3 "$(dirname "$0")/ctl_server.py" "$1" >"$work/srv" &
	srv=$!
	trap 'kill $srv 2>/dev/null; rm -rf "$work"' EXIT
	i=0
	while [ "$(cat "$work/srv")" != "$srv" ]; do
		i=$((i + 1))
		[ $i -le 1200 ] && kill -0 "$srv" 2>/dev/null || fail "the stand-in server did not start"
		sleep 0.05
	done
	[ -S "$XDG_RUNTIME_DIR/xrlm/$srv.sock" ] || fail "the stand-in server listens, but not at its socket"
}

# constant NAME CPU_US GPU_US N: $work/NAME.csv, N frames at 90 Hz whose
# target_us is CPU_US and target_gpu_us GPU_US on every frame ("a/b": a
# on even frames, b on odd ones)
constant() {
	awk -v cpu="$2" -v gpu="$3" -v n="$4" 'BEGIN {
		print "# frame_count=" n
		print "display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame"
		split(gpu, g, "/")
		for (i = 0; i < n; i++) {
			iv = i < n - 1 ? "11111.111" : ""
			gv = (i % 2 && g[2] != "") ? g[2] : g[1]
			printf "%d,7,%s,%.3f,300.000,%.3f,,%.3f,\n", 1000 + i * 11111111, iv, cpu + 300, cpu, gv
		}
	}' >"$work/$1.csv"
}

# hold_tmp PATH: a process that holds a temporary file of PATH open as a
# merge at work does (".<name>.tmp-<its pid>-1" beside PATH, open from
# its start to its rename); sets $holder, its pid (kill it when done).
hold_tmp() {
	sh -c 'exec 3>"$(dirname "$1")/.$(basename "$1").tmp-$$-1"; exec sleep 60' sh "$1" &
	holder=$!
	while [ ! -e "$(dirname "$1")/.$(basename "$1").tmp-$holder-1" ]; do
		sleep 0.01
	done
}

# no_leftovers DIR: no temporary file or directory left behind
no_leftovers() {
	! ls -a "$1" | grep -q '\.tmpd\{0,1\}-' || fail "temporary file left in $1: $(ls -a "$1")"
}

# well_formed XLSX: every XML part of the workbook parses (python3's
# xml.dom.minidom; libxlsxwriter writes text cells' bytes as they come)
well_formed() {
	python3 - "$1" >"$work/xml" 2>&1 <<'EOF' || fail "$1 is not well-formed: $(tail -n 1 "$work/xml")"
import sys, zipfile, xml.dom.minidom
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.endswith((".xml", ".rels")):
            try:
                xml.dom.minidom.parseString(z.read(name))
            except Exception as e:
                sys.exit("%s: %s" % (name, e))
EOF
}

# page_json HTML: the JSON data block of a page of `xrlm report`, on stdout
page_json() {
	python3 -c 'import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
print(re.search(r"<script type=\"application/json\" id=\"xrlm-data\">(.*?)</script>", page, re.S).group(1))' "$1"
}
