# Shared helpers for the monitor's end-to-end tests. Sourced by each test;
# ctest passes the build's paths in the environment (see CMakeLists.txt).
set -eu

: "${XRLM_TEST_RUNTIME_JSON:?}" "${XRLM_TEST_MANIFESTS:?}" "${XRLM_TEST_TARGET_MANIFESTS:?}"
: "${XRLM_TEST_APP:?}" "${XRLM_TEST_XRLM:?}" "${XRLM_TEST_WORK:?}"

PRE=XR_APILAYER_XRLM_monitor_pre
POST=XR_APILAYER_XRLM_monitor_post
TARGET=XR_APILAYER_XRLM_test_target
SYSTEM_LAYERS=/usr/share/openxr/1/api_layers/explicit.d
# Percentiles the way xrlm computes them (one method everywhere; see the script).
PCT_AWK=$(dirname "$0")/../../bench/pct.awk

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

note() {
	echo "-- $*"
}

# A clean work directory and an environment with nothing inherited that
# could change the monitor's behaviour.
setup() {
	rm -rf "$XRLM_TEST_WORK"
	mkdir -p "$XRLM_TEST_WORK/out"
	OUT=$XRLM_TEST_WORK/out
	for v in $(env | sed -n 's/^\(XRLM_[A-Z_]*\)=.*/\1/p; s/^\(XRTEST_[A-Z_]*\)=.*/\1/p'); do
		case $v in XRLM_TEST_*) ;; *) unset "$v" ;; esac
	done
	export XR_RUNTIME_JSON=$XRLM_TEST_RUNTIME_JSON
	export XR_API_LAYER_PATH=$XRLM_TEST_MANIFESTS:$XRLM_TEST_TARGET_MANIFESTS:$SYSTEM_LAYERS
	export XRLM_OUTPUT_DIR=$OUT
	# The layers' default directory, where an unusable XRLM_OUTPUT_DIR sends
	# them: never the user's own.
	export XDG_STATE_HOME=$XRLM_TEST_WORK/state
	export XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST
}

# Runs the test app; its output goes to $XRLM_TEST_WORK/app.log. Fails the test on a non-zero exit.
run_app() {
	if ! "$XRLM_TEST_APP" "$@" >"$XRLM_TEST_WORK/app.log" 2>&1; then
		cat "$XRLM_TEST_WORK/app.log" >&2
		fail "xrlm-test-app $* exited non-zero"
	fi
}

# The merged files in $OUT, one per line, oldest session first: by the
# tag's time, then its -<n> (none: 0), as a name sort puts "T-1" before "T".
merged_files() {
	for f in "$OUT"/frames-merged-*.csv; do
		[ -e "$f" ] || continue
		tag=${f##*/frames-merged-}
		rest=${tag%.csv}
		rest=${rest#*-}
		time=${rest%%-*}
		n=0
		[ "$rest" = "$time" ] || n=${rest#*-}
		printf '%s %s %s\n' "$time" "$n" "$f"
	done | sort -k1,1 -k2,2n | cut -d ' ' -f 3-
}

# The value of "# KEY=value" in a CSV file (without a trailing %).
header_value() {
	sed -n "s/^# $2=//p" "$1" | sed 's/%$//' | head -n 1
}

# Data rows (not comments, not the header) of a CSV.
data_rows() {
	grep -v '^#' "$1" | tail -n +2
}

# Column number (1-based) of name $2 in the header of CSV $1; empty if absent.
column_of() {
	grep -v '^#' "$1" | head -n 1 | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

# Median of column N (1-based) over the data rows of a CSV; blank cells skipped.
column_median() {
	_median=$(data_rows "$1" | cut -d, -f"$2" | grep -v '^$' | sort -g |
		awk -v q=0.5 -v empty=none -f "$PCT_AWK")
	[ "$_median" != none ] && echo "$_median"
}

# True when |a - b| <= tol (floating point).
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# The CPU time of all CPUs so far, and the hypervisor's share of it
# ("steal"), in ticks.
cpu_ticks() {
	awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9 + 0; exit }' /proc/stat
}

# The percentage of the CPUs' time the host took since cpu_ticks() gave $1 $2.
stolen_since() {
	set -- "$1" "$2" $(cpu_ticks)
	awk -v t="$(($3 - $1))" -v s="$(($4 - $2))" 'BEGIN { printf "%.0f", (t > 0 ? 100 * s / t : 0) }'
}

# Runs $1, a function that makes one timed run and checks it: a timing
# outside its tolerance sets $miss (a sentence) and returns, any other
# failure fails the test at once. The accuracy tests time the CPU, and
# llvmpipe's and lavapipe's GPU is the CPU: while the host (a VM's
# hypervisor) takes a fifth of the CPUs or more, the frame thread is
# preempted inside the sandwich and the run says nothing about the
# monitor; so too while more tasks want the CPUs than there are (the
# 1-minute load average at or above their number: other tests beside this
# one). Such a run that misses is tried again, three runs in all; a miss
# while the machine had its CPUs fails at once. Sets $stolen, the last
# run's share of the CPUs the host took (%).
accuracy_attempts() {
	_attempt=1
	while :; do
		set -- "$1" $(cpu_ticks)
		miss=
		"$1"
		stolen=$(stolen_since "$2" "$3")
		load=$(cut -d' ' -f1 /proc/loadavg)
		note "run $_attempt: the host took ${stolen} % of the CPUs; load average $load on $(nproc) CPUs"
		[ -n "$miss" ] || return 0
		[ "$stolen" -ge 20 ] || awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l >= n) }' ||
			fail "$miss"
		[ "$_attempt" -lt 3 ] ||
			fail "$miss, in three runs while the host took 20 % or more of the CPUs or the load was at or above their number"
		note "$miss: run again"
		_attempt=$((_attempt + 1))
	done
}

# Checks that a session's two per-side files hold the same frames, row for row.
same_frames() {
	pre=$1
	post=$(echo "$pre" | sed 's/-pre\.csv$/-post.csv/')
	[ -f "$post" ] || fail "no post file next to $pre"
	data_rows "$pre" | cut -d, -f1,2 >"$XRLM_TEST_WORK/pre.keys"
	data_rows "$post" | cut -d, -f1,2 >"$XRLM_TEST_WORK/post.keys"
	[ -s "$XRLM_TEST_WORK/pre.keys" ] || fail "$pre has no rows"
	cmp -s "$XRLM_TEST_WORK/pre.keys" "$XRLM_TEST_WORK/post.keys" ||
		fail "pre and post recorded different frames: $pre vs $post"
}

# Waits (up to 60 s: an application starts slowly on a busy machine) until
# FILE contains PATTERN.
wait_for_line() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 1200 ] || fail "timed out waiting for '$2' in $1"
		sleep 0.05
	done
}

# core_validation 1.0.20's false positive on api_dump's own call (see hello_xr.sh).
KNOWN_FALSE_POSITIVE=VUID-xrStructureTypeToString-value-parameter

# Runs hello_xr -g $1 with layers $2 into directory $3; leaves core_validation's
# findings, minus the known false positive, in $3/errors.
run_hello_xr() {
	validation_env "$2" "$3"
	# hello_xr quits when its stdin reaches end of file: give it a FIFO held open.
	rm -f "$3/stdin" && mkfifo "$3/stdin"
	exec 3<>"$3/stdin"
	# OpenGL on Xvfb: the VidMode shim (tests/runtime/rt_vidmode_shim.c) goes
	# in, after libasan in an ASan build (XRLM_TEST_HELLO_PRELOAD).
	(
		preload=$(echo ${XRLM_TEST_HELLO_PRELOAD:-} ${XRLM_TEST_VIDMODE_SHIM:-})
		[ -z "$preload" ] || export LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$preload"
		exec timeout 60 hello_xr -g "$1" <&3 >"$3/hello_xr.log" 2>&1
	) ||
		fail "hello_xr failed: $(tail -n 20 "$3/hello_xr.log")"
	exec 3>&-
	validation_errors "$3" "$3/hello_xr.log"
}

# The layers $1 enabled and the LunarG layers' reports pointed into directory $2.
validation_env() {
	mkdir -p "$2"
	export XR_ENABLE_API_LAYERS=$1
	export XR_API_DUMP_EXPORT_TYPE=text XR_API_DUMP_FILE_NAME=$2/api_dump.txt
	export XR_CORE_VALIDATION_EXPORT_TYPE=text XR_CORE_VALIDATION_FILE_NAME=$2/core_validation.txt
}

# core_validation's findings in directory $1 (the app's output in $2) into $1/errors.
validation_errors() {
	# core_validation announces itself, and writes its report only when it has findings.
	grep -q "Core Validation output type" "$2" || fail "core_validation was not loaded"
	touch "$1/core_validation.txt"
	grep -i "error" "$1/core_validation.txt" | grep -v "$KNOWN_FALSE_POSITIVE" | sort -u >"$1/errors" || true
}

# Runs the test app on OpenGL through EGL (--graphics egl, surfaceless: no X
# display) for $3 frames with layers $1 into directory $2 (its output in
# $2/app.log); further arguments go to the app. Debian's core_validation 1.0.20 is built without EGL and
# rejects XrGraphicsBindingEGLMNDX as an unknown structure: not enabled here.
run_egl_app() {
	mkdir -p "$2"
	export XR_ENABLE_API_LAYERS=$1
	egl_dir=$2 egl_frames=$3
	shift 3
	"$XRLM_TEST_APP" --graphics egl --frames "$egl_frames" "$@" >"$egl_dir/app.log" 2>&1 ||
		fail "xrlm-test-app --graphics egl failed: $(tail -n 20 "$egl_dir/app.log")"
}
