#!/bin/sh
# bench_merge_ab: bench/merge_ab.sh, the merge's A/B method, on tiny
# sessions: two builds (one binary with and without an environment
# switch) give a figure each for every size, the first build is never
# below itself, a build whose output differs is refused (exit 1) and a bad
# size is a usage error (exit 2).
#
#   merge_ab_test.sh MERGE_AB BUILD_DIR XRLM
set -eu
ab=$1 build=$2 xrlm=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-ab-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
# A signal ends the script (the EXIT trap then cleans up) with 128 + n.
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 141' PIPE; trap 'exit 143' TERM
export TMPDIR="$work"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

sh "$ab" --build "$build" --rounds 2 --runs 1 --sizes "300:calls 300" \
	"$xrlm" "$xrlm@XRLM_MERGE_AB_TEST=1" >"$work/out" 2>"$work/err" ||
	{ cat "$work/err" >&2; fail "two equal builds: exit $?"; }
cat "$work/out"
for size in 300:calls 300; do
	grep -qx "$size" "$work/out" || fail "no section for $size"
done
[ "$(grep -c "p50 *[0-9][0-9.]*  (p10-p90 [0-9.]*-[0-9.]*)  below the first in [0-2] of 2 rounds" \
	"$work/out")" = 4 ] || fail "expected 4 figure lines"
[ "$(grep -c "^  $xrlm  *p50 .* below the first in 0 of 2 rounds" "$work/out")" = 2 ] ||
	fail "the first build is below itself"

# A build whose merged file differs is not timed.
cat >"$work/other" <<EOS
#!/bin/sh
"$xrlm" "\$@" || exit
for a; do last=\$a; done
echo changed >>"\$last"
EOS
chmod +x "$work/other"
set +e
sh "$ab" --build "$build" --rounds 1 --runs 1 --sizes 300 "$xrlm" "$work/other" \
	>"$work/out" 2>"$work/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "a differing output: exit $rc, expected 1"
grep -q "output differs" "$work/err" || fail "a differing output: no message"

set +e
sh "$ab" --build "$build" --sizes "3x" "$xrlm" "$xrlm" >/dev/null 2>"$work/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "a bad size: exit $rc, expected 2"
grep -q "bad size" "$work/err" || fail "a bad size: no message"
echo "merge_ab: ok"
