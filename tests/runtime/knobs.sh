#!/bin/sh
# Bad knob values: each gives exactly one warning line naming the knob, the
# runtime uses the default, and the session still runs.
#
# usage: knobs.sh TC_PACING RUNTIME_JSON
set -eu
. "$(dirname "$0")/rt_lib.sh"
pacing=$1
export XR_RUNTIME_JSON="$2"
log=$(mktemp "${TMPDIR:-/tmp}/xrlm-rt-knobs.XXXXXX")
trap 'rm -f "$log"' EXIT

# check KNOB VALUE DEFAULT RATE: runs 45 frames with KNOB=VALUE; RATE is the
# frame rate that must then be in effect (the default 90 for the rate knob:
# its predictedDisplayPeriod is checked; measuring the rate is the pacing
# tests' job, which run alone).
check() {
	knob=$1 value=$2 default=$3 rate=$4
	rc=0
	if [ "$knob" = XRTEST_FRAME_RATE ]; then
		env XRTEST_FRAME_RATE="$value" "$pacing" --rate "$rate" --frames 45 --period-only > "$log" 2>&1 || rc=$?
	else
		env XRTEST_FRAME_RATE=0 "$knob=$value" "$pacing" --rate "$rate" --frames 45 > "$log" 2>&1 || rc=$?
	fi
	[ "$rc" -eq 0 ] || { cat "$log"; rt_fail "$knob=\"$value\": the session failed ($rc)"; }
	warnings=$(grep -c '\[xrlm-test-runtime\] warning' "$log" || true)
	named=$(grep -c "\[xrlm-test-runtime\] warning: $knob=\"" "$log" || true)
	[ "$warnings" -eq 1 ] && [ "$named" -eq 1 ] ||
		{ cat "$log"; rt_fail "$knob=\"$value\": $warnings warnings, $named naming it; expected 1"; }
	grep -q "\[xrlm-test-runtime\] knobs: .*$knob=$default\( \|\$\)" "$log" ||
		{ cat "$log"; rt_fail "$knob=\"$value\": the default $default was not used"; }
	echo "ok: $knob=\"$value\" -> $(grep '\[xrlm-test-runtime\] warning' "$log")"
}

for v in -5 abc 1e9 "" 90Hz; do check XRTEST_FRAME_RATE "$v" 90 90; done
for v in -1 x 99999999999999999999 2.5; do check XRTEST_EXIT_AFTER_FRAMES "$v" 0 0; done
for v in -3 lots 1000000000000; do check XRTEST_COMPOSITOR_CPU_US "$v" 0 0; done
for v in -1 " " 5000000; do check XRTEST_COMPOSITOR_GPU_US "$v" 0 0; done
for v in 2 yes -1; do check XRTEST_COMPOSITOR_GPU_WAIT "$v" 0 0; done
echo "PASS"
