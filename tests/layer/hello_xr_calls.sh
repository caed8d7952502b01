#!/bin/sh
# Every call hello_xr makes while recording is in both calls files with its
# exact count: checked against XR_APILAYER_LUNARG_api_dump's own listing of
# the same run, api_dump being the target between pre and post, with
# core_validation below post reporting nothing. Post also records the calls
# api_dump makes itself to print what it lists (xrStructureTypeToString,
# xrResultToString): the target's induced calls, which pre never sees. The
# per-function table (functions-merged-<tag>.csv) lists every function with
# pre's exact count, and api_dump's own calls as induced. Recording starts at the top
# of the first xrEndFrame and stops in xrDestroyInstance, so the listing is
# compared from its first xrEndFrame up to xrDestroyInstance (neither that
# nor xrGetInstanceProcAddr is recorded: README, "Functions and phases").
# Usage: hello_xr_calls.sh Vulkan|Vulkan2
. "$(dirname "$0")/lib.sh"
graphics=$1
DUMP=XR_APILAYER_LUNARG_api_dump

setup
export XRTEST_FRAME_RATE=90 XRTEST_EXIT_AFTER_FRAMES=120 XRLM_RECORD=1
run_hello_xr "$graphics" "$PRE:$DUMP:$POST:XR_APILAYER_LUNARG_core_validation" "$XRLM_TEST_WORK/run"
if [ -s "$XRLM_TEST_WORK/run/errors" ]; then
	head -n 5 "$XRLM_TEST_WORK/run/errors" >&2
	fail "core_validation reported errors with the monitor around api_dump"
fi
sed -n 's/^XrResult \(xr[A-Za-z0-9]*\)$/\1/p' "$XRLM_TEST_WORK/run/api_dump.txt" |
	awk '$1 == "xrEndFrame" { on = 1 } $1 == "xrDestroyInstance" { on = 0 }
		on && $1 != "xrGetInstanceProcAddr"' | sort | uniq -c >"$XRLM_TEST_WORK/api_dump.counts"
[ "$(wc -l <"$XRLM_TEST_WORK/api_dump.counts")" -ge 10 ] ||
	fail "api_dump listed too few functions: $(cat "$XRLM_TEST_WORK/api_dump.counts")"
INDUCED='xrStructureTypeToString|xrResultToString'
for side in pre post; do
	calls=$(ls "$OUT"/calls-*-$side.csv 2>/dev/null) || fail "no $side calls file"
	data_rows "$calls" | cut -d, -f1 | sort | uniq -c >"$XRLM_TEST_WORK/$side.counts"
done
grep -Ev " ($INDUCED)\$" "$XRLM_TEST_WORK/post.counts" >"$XRLM_TEST_WORK/post.app"
cmp -s "$XRLM_TEST_WORK/api_dump.counts" "$XRLM_TEST_WORK/pre.counts" ||
	fail "pre's calls file and api_dump's listing differ ('<' api_dump, '>' pre): $(diff "$XRLM_TEST_WORK/api_dump.counts" "$XRLM_TEST_WORK/pre.counts")"
cmp -s "$XRLM_TEST_WORK/api_dump.counts" "$XRLM_TEST_WORK/post.app" ||
	fail "post's calls file (api_dump's own calls left out) and api_dump's listing differ ('<' api_dump, '>' post): $(diff "$XRLM_TEST_WORK/api_dump.counts" "$XRLM_TEST_WORK/post.app")"
induced=$(grep -E " ($INDUCED)\$" "$XRLM_TEST_WORK/post.counts" | awk '{ n += $1 } END { print n + 0 }')
[ "$induced" -gt 0 ] || fail "post recorded none of api_dump's own calls"
# The per-function table: the same counts, api_dump's own calls as induced.
functions=$(ls "$OUT"/functions-merged-*.csv 2>/dev/null) || fail "no functions-merged file"
data_rows "$functions" | awk -F, '$3 > 0 { printf "%7d %s\n", $3, $1 }' | sort -k2 >"$XRLM_TEST_WORK/table.counts"
awk '{ printf "%7d %s\n", $1, $2 }' "$XRLM_TEST_WORK/api_dump.counts" | sort -k2 >"$XRLM_TEST_WORK/api_dump.table"
cmp -s "$XRLM_TEST_WORK/api_dump.table" "$XRLM_TEST_WORK/table.counts" ||
	fail "the per-function table and api_dump's listing differ ('<' api_dump, '>' table): $(diff "$XRLM_TEST_WORK/api_dump.table" "$XRLM_TEST_WORK/table.counts")"
table_induced=$(data_rows "$functions" | awk -F, -v re="^($INDUCED)\$" '$1 ~ re { n += $11 } END { print n + 0 }')
[ "$table_induced" -eq "$induced" ] ||
	fail "the per-function table counts $table_induced induced calls, post recorded $induced of api_dump's own"
note "hello_xr -g $graphics: $(awk '{ n += $1 } END { print n " calls of " NR " functions" }' "$XRLM_TEST_WORK/pre.counts") recorded by pre and post, as api_dump lists them; post also has api_dump's own $induced calls; core_validation: no errors"
