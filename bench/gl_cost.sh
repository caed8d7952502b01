#!/bin/sh
# OpenGL sessions: what each side's GL stamp costs the frame thread (the
# layers' own logged mean per stamped frame, readback included) and how far
# target_gpu_us lies from the synthetic target's own GL_TIMESTAMP pair
# around its draws (the truth), per frame. The test app's EGL session at
# 90 Hz with the target between the layers, REPS runs a draw count,
# FRAMES recorded frames each. Whatever else is in the environment (a
# driver's threaded optimisation: __GL_THREADED_OPTIMIZATIONS=1 on NVIDIA's,
# mesa_glthread=true on Mesa's) applies to every run; LABEL names it in the
# rows.
#
#   BUILD=... WORK=... [LABEL=...] bench/gl_cost.sh REPS FRAMES DRAWS...
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-2}
frames=${2:-300}
shift 2 || true
[ $# -gt 0 ] || set -- 4 64
label=${LABEL:-default}

# The mean frame-thread cost side $1 logged, us (its one-off set-up included).
side_cost() {
	sed -n 's/.* frames stamped, \([0-9.]*\) us each.*/\1/p' "$WORK/out/xrlm-$1.log" | tail -n 1
}

# How post read the results back, as it logged it.
readback() {
	sed -n 's/.* read back \(through a mapped query buffer\|with glGetQueryObject\).*/\1/p' \
		"$WORK/out/xrlm-post.log" | tail -n 1
}

# "median p90 pairs" of |target_gpu_us - truth| over the frames both have.
gl_error() {
	merged=$(merged_csv)
	[ -n "$merged" ] || { echo "- - 0"; return; }
	col=$(grep -v '^#' "$merged" | head -n 1 | tr ',' '\n' | grep -n '^target_gpu_us$' | cut -d: -f1)
	grep -v '^#' "$merged" | tail -n +2 | awk -F, -v c="$col" '$c != "" { print $1 "," $c }' |
		sort -t, -k1,1 >"$WORK/measured"
	tail -n +2 "$WORK/truth.csv" | awk -F, '{ print $1 "," $2 / 1000 }' | sort -t, -k1,1 >"$WORK/truth"
	join -t, "$WORK/measured" "$WORK/truth" | awk -F, '{ d = $2 - $3; print (d < 0 ? -d : d) }' |
		sort -g >"$WORK/errors"
	printf '%s %s\n' "$(awk -v q="0.5 0.9" -v fmt=%.2f -f "$PCT_AWK" "$WORK/errors")" \
		"$(wc -l <"$WORK/errors")"
}

echo "| run | draws | environment | readback | post / pre cost per frame | error median (p90) | frames with both |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
r=1
while [ "$r" -le "$reps" ]; do
	for draws in "$@"; do
		rm -f "$WORK/truth.csv"
		with_config rect env XRTEST_FRAME_RATE=90 XRTEST_TARGET_GL_DRAWS="$draws" \
			XRTEST_TARGET_GPU_LOG="$WORK/truth.csv" \
			"$APP" --graphics egl --frames "$frames" >"$WORK/app.log" 2>&1 ||
			{ echo "bench: the app failed:" >&2; tail -n 5 "$WORK/app.log" >&2; exit 1; }
		read -r median p90 both <<-EOF
			$(gl_error)
		EOF
		printf '| %s | %s | %s | %s | %s / %s us | %s (%s) us | %s of %s |\n' "$r" "$draws" \
			"$label" "$(readback)" "$(side_cost post)" "$(side_cost pre)" "$median" "$p90" \
			"$both" "$frames"
	done
	r=$((r + 1))
done
