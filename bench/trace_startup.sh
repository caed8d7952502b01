#!/bin/sh
# Start-up with live tracing: the time from just before exec to the test
# app's first recorded xrEndFrame (its t_entry in frames-<tag>-pre.csv,
# same clock), headless, for: the pair recording CSV only; XRLM_TRACE=
# csv,lttng with no session daemon; and with one running (this script's
# own, LTTNG_HOME in $WORK, with a session recording xrlm:*); GRAPHICS is
# the test app's --graphics (headless by default; vulkan2 adds the
# loader's dlopen of the Vulkan driver, which the provider's load could
# hold up: both run under the dynamic loader's lock). Also the
# provider's load time on the writer thread (from the side's log: the
# XRLM_TRACE line at instance creation to the "provider loaded" line; the
# writer starts loading right after that line).
# REPS interleaved runs; medians.
#
#   BUILD=... WORK=... bench/trace_startup.sh REPS [GRAPHICS]
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-9}
graphics=${2:-headless}
CLOCK=$BUILD/tests/reliability/rel_clock

# One run of configuration $1; appends "cfg first_frame_ms load_ms" to $WORK/startup.
one() {
	cfg=$1
	rm -rf "$WORK/out" && mkdir -p "$WORK/out"
	case $cfg in
	csv) trace=csv ;;
	*) trace=csv,lttng ;;
	esac
	t0=$("$CLOCK")
	XRLM_OUTPUT_DIR="$WORK/out" XRLM_SIGNAL=off XRLM_RECORD=1 XRLM_TRACE=$trace \
		XR_ENABLE_API_LAYERS=$PRE:$POST "$APP" --graphics "$graphics" --frames 5 >/dev/null 2>&1
	first=$(grep -v '^#' "$WORK"/out/frames-*-pre.csv | sed -n 2p | cut -d, -f3)
	load=$(awk '/XRLM_TRACE: / { a = $2 } /provider xrlm loaded/ { b = $2 }
		function s(t, p) { split(t, p, ":"); return p[1] * 3600 + p[2] * 60 + p[3] }
		END { if (a && b) printf "%.1f", (s(b) - s(a)) * 1000; else print "-" }' "$WORK/out/xrlm-pre.log")
	echo "$cfg $(awk -v a="$t0" -v b="$first" 'BEGIN { printf "%.1f", (b - a) / 1e6 }') $load" >>"$WORK/startup"
}

: >"$WORK/startup"
i=0
while [ $i -lt "$reps" ]; do
	one csv
	one nodaemon
	i=$((i + 1))
done
if lttng_session_start xrlm-startup; then
	i=0
	while [ $i -lt "$reps" ]; do
		one daemon
		i=$((i + 1))
	done
	lttng destroy >/dev/null
fi
med() {
	awk -v c="$1" -v f="$2" '$1 == c && $f != "-" { print $f }' "$WORK/startup" | quartiles |
		awk '{ printf "%s ms (p25–p75 %s–%s, %s runs)", $1, $2, $3, $4 }'
}
row "11 start-up to the first frame, CSV only" "$(med csv 2)" "—" "—" "exec to the first xrEndFrame, $graphics"
row "11 … XRLM_TRACE=csv,lttng, no session daemon" "$(med nodaemon 2)" "= CSV only" "—" "provider load on the writer thread: $(med nodaemon 3)"
row "11 … XRLM_TRACE=csv,lttng, session daemon tracing" "$(med daemon 2)" "= CSV only" "—" "provider load on the writer thread: $(med daemon 3)"
