# Shared by the bench/*.sh scripts (sourced, POSIX sh). Expects BUILD (the
# Release build directory) and WORK (a scratch directory) to be set.

PRE=XR_APILAYER_XRLM_monitor_pre
POST=XR_APILAYER_XRLM_monitor_post
TARGET=XR_APILAYER_XRLM_test_target
FRAMES_BIN=$BUILD/bench/xrlm-bench-frames
APP=$BUILD/tests/xrlm-test-app
XRLM=$BUILD/merge/xrlm

export XR_RUNTIME_JSON="$BUILD/tests/runtime/xrlm_test_runtime.json"
export XR_API_LAYER_PATH="$BUILD/manifests:$BUILD/tests/manifests"
export XRTEST_FRAME_RATE=0
unset XR_ENABLE_API_LAYERS XRLM_RECORD XRLM_RECORD_FRAMES XRLM_RECORD_S XRLM_GPU_MODE XRLM_GPU_GATE \
	XRLM_RECORD_DELAY_S XRLM_FUNCTIONS XRTEST_TARGET_CPU_US XRTEST_TARGET_GPU_US

# Runs "$@" with the layers of configuration $1 (none, pass, idle, rec,
# recframe: recording with XRLM_FUNCTIONS=frame) in a
# fresh output directory $WORK/out; the signal is off so nothing else toggles.
with_config() {
	cfg=$1; shift
	rm -rf "$WORK/out" && mkdir -p "$WORK/out"
	case $cfg in
	none) env XRLM_OUTPUT_DIR="$WORK/out" "$@" ;;
	pass) env XRLM_OUTPUT_DIR="$WORK/out" XR_ENABLE_API_LAYERS=$TARGET "$@" ;;
	idle) env XRLM_OUTPUT_DIR="$WORK/out" XRLM_SIGNAL=off XR_ENABLE_API_LAYERS=$PRE:$POST "$@" ;;
	rec) env XRLM_OUTPUT_DIR="$WORK/out" XRLM_SIGNAL=off XRLM_RECORD=1 \
		XR_ENABLE_API_LAYERS=$PRE:$POST "$@" ;;
	recframe) env XRLM_OUTPUT_DIR="$WORK/out" XRLM_SIGNAL=off XRLM_RECORD=1 XRLM_FUNCTIONS=frame \
		XR_ENABLE_API_LAYERS=$PRE:$POST "$@" ;;
	rect) env XRLM_OUTPUT_DIR="$WORK/out" XRLM_SIGNAL=off XRLM_RECORD=1 \
		XR_ENABLE_API_LAYERS=$PRE:$TARGET:$POST "$@" ;;
	*) echo "bench: unknown configuration $cfg" >&2; return 2 ;;
	esac
}

# The value of KEY=... on each line of stdin holding it.
field() {
	sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p"
}

# Percentiles of the numbers on stdin by xrlm's method; see pct.awk.
PCT_AWK=$(dirname "$0")/pct.awk

# "p50 p25 p75 n" of the numbers on stdin.
quartiles() {
	sort -g | awk -v q="0.5 0.25 0.75" -v fmt=%.2f -v count=1 -f "$PCT_AWK"
}

# "p50 p99" of the numbers on stdin.
p50_p99() {
	sort -g | awk -v q="0.5 0.99" -v fmt=%.3f -f "$PCT_AWK"
}

# One table row: item, figure, target, seed, note.
row() {
	printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5"
}

# The merged CSV of the last run in $WORK/out (empty if none).
merged_csv() {
	ls "$WORK"/out/frames-merged-*.csv 2>/dev/null | head -n 1
}

# Paired differences "configuration $2 − none" per repetition, divided by
# $3, from file $1 of lines "REP CFG P50 P10": of the processes' medians
# (column 3), or with $4 = 4 of their p10 (the quiet estimate).
paired_diff() {
	awk -v c="$2" -v d="$3" -v f="${4:-3}" '$2 == "none" { n[$1] = $f } $2 == c { x[$1] = $f }
		END { for (i in x) if (i in n) print (x[i] - n[i]) / d }' "$1"
}

# "quiet estimate (p10 of WHAT): N ns" for paired_diff $1 $2 $3; WHAT is $4.
paired_quiet() {
	printf 'quiet estimate (p10 of %s): %s ns' "$4" "$(paired_diff "$1" "$2" "$3" 4 | quartiles | cut -d' ' -f1)"
}

# "p50 ns (p25–p75 a–b, n reps)" from the quartiles line on stdin.
fmt_quartiles() {
	set -- $(cat)
	printf '%s ns (p25–p75 %s–%s, %s reps)' "$1" "$2" "$3" "$4"
}

# Starts this script's own LTTng session daemon (LTTNG_HOME in $WORK, killed
# at exit) and a session named $1 recording xrlm:* into $WORK/trace; non-zero
# when the daemon does not start.
lttng_session_start() {
	export LTTNG_HOME=$WORK/lttng-home
	mkdir -p "$LTTNG_HOME"
	if [ "$(id -u)" = 0 ]; then pidfile=/var/run/lttng/lttng-sessiond.pid; else pidfile=$LTTNG_HOME/.lttng/lttng-sessiond.pid; fi
	lttng-sessiond --daemonize >/dev/null 2>&1 || return 1
	sessiond=$(cat "$pidfile")
	trap 'kill "$sessiond" 2>/dev/null || true' EXIT
	trap 'kill "$sessiond" 2>/dev/null; exit 1' INT TERM
	lttng create "$1" --output="$WORK/trace" >/dev/null
	lttng enable-event -u 'xrlm:*' >/dev/null
	lttng start >/dev/null
}
