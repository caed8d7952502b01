#!/bin/sh
# Item 7: the pair's fixed cost per process. xrlm-bench-frames startup
# times xrCreateInstance up to a running session (the loader loads the
# layers here: dlopen of both libraries and their dependencies, settings,
# output directory, logs, rings, writer threads) and the end of the session
# through xrDestroyInstance (both writers joined), around 100 unpaced
# frames, and reads the process's CPU time. Configurations none / idle /
# rec (recording the 100 frames, so the end includes the in-process merge),
# interleaved REPS times; a configuration's cost is the paired difference
# to none of the same repetition, median and p25–p75 over repetitions.
#
#   BUILD=... WORK=... bench/startup.sh REPS
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-15}

: >"$WORK/startup"
i=0
while [ "$i" -lt "$reps" ]; do
	for cfg in none idle rec; do
		with_config $cfg "$FRAMES_BIN" startup --frames 100 --block 1 2>/dev/null |
			sed "s/^/$i $cfg /" >>"$WORK/startup"
	done
	i=$((i + 1))
done

# Paired "cfg − none" of KEY per repetition, in ms.
diff_ms() {
	awk -v c="$1" -v k="$2=" '{ for (f = 3; f <= NF; f++) if (index($f, k) == 1) v = substr($f, length(k) + 1) }
		$2 == "none" { n[$1] = v } $2 == c { x[$1] = v }
		END { for (i in x) if (i in n) printf "%.3f\n", (x[i] - n[i]) / 1e6 }' "$WORK/startup"
}
fmt() {
	set -- $(cat)
	printf '%s ms (p25–p75 %s–%s, %s reps)' "$1" "$2" "$3" "$4"
}
base=$(awk '$2 == "none" { for (f = 3; f <= NF; f++) if (index($f, "total_ns=") == 1) printf "%.3f\n", substr($f, 10) / 1e6 }' "$WORK/startup" | quartiles | fmt)
row "7 start-up + shut-down, no layers: xrCreateInstance→running session + session end→xrDestroyInstance" \
	"$base" "—" "—" "the loader and the test runtime alone"
for cfg in idle rec; do
	row "7 pair's fixed cost per process, $cfg: added wall time (create / destroy)" \
		"$(diff_ms $cfg total_ns | quartiles | fmt) ($(diff_ms $cfg create_ns | quartiles | cut -d' ' -f1) / $(diff_ms $cfg destroy_ns | quartiles | cut -d' ' -f1) ms)" \
		"< 5 ms" "—" "added CPU time of the process (all threads): $(diff_ms $cfg cpu_ns | quartiles | cut -d' ' -f1) ms"
done
