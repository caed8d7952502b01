# Helpers of the reliability tests, on top of tests/layer/lib.sh (sourced,
# not copied). ctest passes the build's paths (see CMakeLists.txt).
. "$(dirname "$0")/../layer/lib.sh"
: "${XRLM_TEST_CLOCK:?}"

# CLOCK_MONOTONIC now, in ns: the clock of the CSVs' t_entry/t_exit.
mono_ns() {
	"$XRLM_TEST_CLOCK"
}

# The session tag of a per-side file: frames-<tag>-pre.csv -> <tag>.
file_tag() {
	basename "$1" | sed 's/^frames-//; s/-\(pre\|post\)\.csv$//'
}

# A finished session: pre and post hold the same frames, the layer wrote
# the merged file, and `xrlm merge` of the per-side files reproduces it
# byte for byte. Or, on a loaded host, post's log says it left the session
# to `xrlm merge` because its merge queue was full (its merges, at
# SCHED_IDLE, got no CPU time while sessions kept ending), and `xrlm merge`
# merges its files.
check_session() {
	same_frames "$1"
	tag=$(file_tag "$1")
	merged=$OUT/frames-merged-$tag.csv
	rm -f "$XRLM_TEST_WORK/remerge.csv" "$XRLM_TEST_WORK/remerge.functions.csv"
	"$XRLM_TEST_XRLM" merge "$1" "$OUT/frames-$tag-post.csv" -o "$XRLM_TEST_WORK/remerge.csv" \
		>"$XRLM_TEST_WORK/remerge.log" 2>&1 ||
		fail "xrlm merge of session $tag failed: $(cat "$XRLM_TEST_WORK/remerge.log")"
	if [ ! -f "$merged" ]; then
		grep -q "post: session $tag: not merged in the application (the merge thread has [0-9]* sessions waiting)" \
			"$OUT/xrlm-post.log" 2>/dev/null || fail "session $tag has no merged file"
		return 0
	fi
	cmp -s "$merged" "$XRLM_TEST_WORK/remerge.csv" ||
		fail "session $tag: the layer's merged file differs from xrlm merge's"
	# The per-function table, where the layer wrote one (both calls files).
	functions=$OUT/functions-merged-$tag.csv
	[ ! -f "$functions" ] || cmp -s "$functions" "$XRLM_TEST_WORK/remerge.functions.csv" ||
		fail "session $tag: the layer's functions file differs from xrlm merge's"
}

# Checks every session in $OUT; prints how many there were.
check_all_sessions() {
	n=0
	for pre in "$OUT"/frames-*-pre.csv; do
		[ -f "$pre" ] || continue
		check_session "$pre"
		n=$((n + 1))
	done
	echo $n
}

# Starts the test app in the background (output in $XRLM_TEST_WORK/app.log); sets APP_PID.
start_app() {
	"$XRLM_TEST_APP" "$@" >"$XRLM_TEST_WORK/app.log" 2>&1 &
	APP_PID=$!
}

# Waits for the background app; fails the test unless it exited 0.
wait_app() {
	rc=0
	wait "$APP_PID" || rc=$?
	[ $rc -eq 0 ] || { cat "$XRLM_TEST_WORK/app.log" >&2; fail "xrlm-test-app exited $rc"; }
}

# Exactly one line of FILE matches PATTERN (a clear message, said once).
one_line() {
	n=$(grep -c -- "$2" "$1" 2>/dev/null || true)
	[ "$n" -eq 1 ] || { cat "$1" >&2; fail "$n lines match '$2' in $1, want exactly 1"; }
}

# Runs the test app under strace (exit status checked as run_app does), one
# trace file per thread in $XRLM_TEST_WORK/trace/, successful calls only.
# LeakSanitizer stops the world with ptrace, which strace holds: under ASan
# the traced runs check no leaks (every other run does).
run_app_traced() {
	rm -rf "$XRLM_TEST_WORK/trace" && mkdir -p "$XRLM_TEST_WORK/trace"
	ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 strace -ff -qq -y --seccomp-bpf -s 4096 --status=successful -o "$XRLM_TEST_WORK/trace/t" \
		-e trace=open,openat,creat,close,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,unlink,unlinkat,truncate,chmod,fchmodat \
		"$XRLM_TEST_APP" "$@" >"$XRLM_TEST_WORK/app.log" 2>&1 ||
		{ cat "$XRLM_TEST_WORK/app.log" >&2; fail "xrlm-test-app $* exited non-zero"; }
}

# Every path the traced run created, wrote, renamed, linked or removed, one
# a line, resolved by the kernel where it can be (open: the returned file's
# real path, so a followed symlink shows its target). A relative path with
# no known directory is printed as "?<path>" (never allowed).
written_paths() {
	cat "$XRLM_TEST_WORK"/trace/t.* | awk '
	function at_path(s,   d, p) {
		# "<dirfd><dir>, \"p\"" pairs of the *at calls
		while (match(s, /(AT_FDCWD|[0-9]+)<[^>]*>, "[^"]*"/)) {
			m = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			d = m; sub(/^[^<]*</, "", d); sub(/>.*/, "", d)
			p = m; sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
			print (p ~ /^\// ? p : d "/" p)
		}
	}
	function plain_paths(s,   p) {
		while (match(s, /"[^"]*"/)) {
			p = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
			print (p ~ /^\// ? p : "?" p)
		}
	}
	/^(open|openat|creat)\(/ {
		if ($0 !~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/ && $0 !~ /^creat/) next
		r = $0; sub(/.*= [0-9]+</, "", r); sub(/>$/, "", r); print r; next
	}
	/^(mkdirat|renameat2?|linkat|symlinkat|unlinkat|fchmodat)\(/ { at_path($0); next }
	/^(mkdir|rename|link|symlink|unlink|truncate|chmod)\(/ { plain_paths($0); next }
	' | sort -u
}

# The CSV files under directory $1 the traced run opened for writing more
# often than it closed them: descriptors left open until the process ended.
unclosed_csv_files() {
	cat "$XRLM_TEST_WORK"/trace/t.* | awk -v dir="$1/" '
	/^(open|openat|creat)\(/ && /O_WRONLY|O_RDWR|O_CREAT/ {
		r = $0; sub(/.*= [0-9]+</, "", r); sub(/>$/, "", r)
		if (index(r, dir) == 1 && r ~ /\.csv$/) opened[r]++
		next
	}
	/^close\(/ { r = $0; sub(/^close\([0-9]+</, "", r); sub(/>\).*/, "", r); closed[r]++ }
	END { for (p in opened) if (closed[p] < opened[p]) print p }'
}

# Fails unless every written path is under one of the directories given
# (or is an ancestor created on the way to one, a /dev/ node, or /proc:
# naming a thread writes /proc/<pid>/task/<tid>/comm), or is the control
# socket's directory, $XDG_RUNTIME_DIR/xrlm (README, "Control socket").
only_written_under() {
	[ -z "${XDG_RUNTIME_DIR:-}" ] || set -- "$@" "$XDG_RUNTIME_DIR/xrlm"
	written_paths >"$XRLM_TEST_WORK/written"
	while IFS= read -r p; do
		ok=0
		case $p in /dev/* | /proc/*) ok=1 ;; esac
		for d in "$@"; do
			case $p in "$d" | "$d"/*) ok=1 ;; esac
			case $d/ in "$p"/*) ok=1 ;; esac
		done
		[ $ok -eq 1 ] || fail "a file outside $* was written: $p"
	done <"$XRLM_TEST_WORK/written"
}
