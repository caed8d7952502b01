#!/bin/sh
# bench/merge_throughput.sh and bench/merge_ab.sh, ended by HUP, INT, TERM
# or PIPE while they generate a session: they stop there (exit 128 + n),
# never run the next step, and leave nothing in TMPDIR. A stub generator
# sends the signal to the script that ran it.
set -eu
. "$(dirname "$0")/lib.sh"

stub=$XRLM_TEST_WORK/build
mkdir -p "$stub/merge" "$stub/tests/merge" "$stub/bench" "$XRLM_TEST_WORK/tmp"
export TMPDIR=$XRLM_TEST_WORK/tmp
marker=$XRLM_TEST_WORK/spawn-ran
cat >"$stub/tests/merge/xrlm_gen_session" <<EOS
#!/bin/sh
kill -s "\$XRLM_TEST_SIGNAL" \$PPID
EOS
cat >"$stub/bench/xrlm-bench-spawn" <<EOS
#!/bin/sh
touch "$marker"
EOS
cp "$stub/bench/xrlm-bench-spawn" "$stub/merge/xrlm"
chmod +x "$stub/tests/merge/xrlm_gen_session" "$stub/bench/xrlm-bench-spawn" "$stub/merge/xrlm"

# check SIGNAL NUMBER SCRIPT ARGS...
check() {
	sig=$1 num=$2
	shift 2
	rm -f "$marker"
	set +e
	XRLM_TEST_SIGNAL=$sig timeout 60 sh "$@" >/dev/null 2>&1
	status=$?
	set -e
	name=$(basename "$1")
	[ $status -eq $((128 + num)) ] || fail "$name, SIG$sig: exited $status, not $((128 + num))"
	[ ! -e "$marker" ] || fail "$name, SIG$sig: went on after the signal (ran xrlm-bench-spawn)"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$name, SIG$sig: left $(ls -A "$TMPDIR") in TMPDIR"
}

for s in HUP:1 INT:2 PIPE:13 TERM:15; do
	check "${s%:*}" "${s#*:}" "$XRLM_TEST_SOURCE/bench/merge_throughput.sh" "$stub" --sizes 10
	check "${s%:*}" "${s#*:}" "$XRLM_TEST_SOURCE/bench/merge_ab.sh" --build "$stub" --sizes 10 \
		"$stub/merge/xrlm" "$stub/merge/xrlm"
done
echo "bench scripts end on signals, clean: ok"
