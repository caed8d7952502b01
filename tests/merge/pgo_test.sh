#!/bin/sh
# pgo_build: the profile-guided Release build of xrlm (merge/pgo.cmake)
# builds from this tree with -Werror, its training counts the hot files'
# code, their compilation finds those counts, and the xrlm it makes merges
# byte for byte as this build's xrlm does.
#
#   pgo_test.sh SOURCE_DIR XRLM GEN_SESSION
#
# Configures a Release build (XRLM_PGO on by default there) in a temporary
# directory and builds xrlm: the instrumented build, its training and the
# optimized build (~30-60 s on two CPUs).
set -eu
src=$1 xrlm=$2 gen=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-pgo-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
# A signal ends the script (the EXIT trap then cleans up) with 128 + n.
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 141' PIPE; trap 'exit 143' TERM
b=$work/build

fail() {
	echo "pgo_build: FAIL: $*" >&2
	exit 1
}

cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DXRLM_WERROR=ON -DXRLM_TESTS=OFF \
	-DXRLM_BENCH=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log" >&2; fail "configure"; }
grep -q '^XRLM_PGO:BOOL=ON$' "$b/CMakeCache.txt" || fail "XRLM_PGO is not on in a Release build"
cmake --build "$b" --target xrlm -j2 >"$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log" >&2; fail "build"; }

# The training counted the files a merge spends its time in.
for f in merge#CMakeFiles#xrlm_merge.dir#calls_join.c merge#CMakeFiles#xrlm_merge.dir#csvr.c \
	merge#CMakeFiles#xrlm_merge.dir#join.c merge#CMakeFiles#xrlm_merge.dir#merged_write.c \
	merge#CMakeFiles#xrlm_merge.dir#fmt.c layer#CMakeFiles#xrlm_util.dir#u_parse.c; do
	[ -s "$b/pgo/profile/$f.gcda" ] || fail "no profile for $f"
done

# Their compilation found the counts: calls_join.c compiled again with
# its command (the same object path: the counts' file is named after it),
# a missing profile made an error (GCC's own check).
cmd=$(python3 - "$b/compile_commands.json" <<'EOF'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith("/merge/calls_join.c") and "xrlm_merge.dir" in e.get("output", e["command"]):
        print("cd " + shlex.quote(e["directory"]) + " && " + e["command"])
        break
EOF
)
[ -n "$cmd" ] || fail "calls_join.c is not in compile_commands.json"
case $cmd in
*-fprofile-use=*) ;;
*) fail "calls_join.c is compiled without -fprofile-use: $cmd" ;;
esac
sh -c "$cmd -Werror=missing-profile" >"$work/recompile.log" 2>&1 ||
	{ cat "$work/recompile.log" >&2; fail "calls_join.c's profile is not found"; }

# The same outputs as this build's xrlm: with and without calls files, on
# the machine's CPUs and on 1 and 8 threads.
s=$work/s
mkdir -p "$s"
"$gen" "$s" c 10000 --calls 3 >/dev/null
"$gen" "$s" f 3000 >/dev/null
"$gen" "$s" u 3000 --calls 4 --period-ns 3000 --no-gpu >/dev/null
for t in c f u; do
	for threads in "" "--threads 1" "--threads 8"; do
		for x in "$xrlm" "$b/merge/xrlm"; do
			rm -f "$s/o.csv" "$s/o.functions.csv"
			# shellcheck disable=SC2086
			"$x" merge $threads "$s/frames-$t-pre.csv" "$s/frames-$t-post.csv" -o "$s/o.csv" \
				>"$s/stdout" 2>&1 || { cat "$s/stdout" >&2; fail "$x merge $t $threads"; }
			cat "$s/o.csv" "$s/o.functions.csv" "$s/stdout" 2>/dev/null | sed "s|$s/||g" |
				md5sum >>"$s/sums.$t"
		done
		[ "$(sort -u "$s/sums.$t" | wc -l)" -eq 1 ] ||
			fail "session $t ($threads): the profile-guided xrlm's output differs"
		rm -f "$s/sums.$t"
	done
done
echo "pgo_build: ok"
