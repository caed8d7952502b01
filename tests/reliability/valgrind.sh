#!/bin/sh
# valgrind memcheck of a short recording session (headless, 300 frames,
# recorded and merged): no invalid access, no uninitialised use, and no
# leak left by our libraries after xrDestroyInstance. Only what comes from
# the OpenXR loader is suppressed, in valgrind.supp, each entry saying why.
# (Normal builds only: valgrind and the sanitizers do not mix.)
. "$(dirname "$0")/rel_lib.sh"
setup
export XRTEST_FRAME_RATE=0 XRLM_RECORD=1
vlog=$XRLM_TEST_WORK/valgrind.log
rc=0
valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
	--keep-debuginfo=yes --track-origins=yes --suppressions="$(dirname "$0")/valgrind.supp" \
	--log-file="$vlog" "$XRLM_TEST_APP" --graphics headless --frames 300 \
	>"$XRLM_TEST_WORK/app.log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	grep -A 25 -m 3 "lost in loss record\|Invalid\|uninitialised" "$vlog" >&2 || cat "$vlog" >&2
	fail "valgrind found errors or the app failed (exit $rc)"
fi
[ "$(check_all_sessions)" -eq 1 ] || fail "the session was not recorded and merged"
grep -q "ERROR SUMMARY: 0 errors" "$vlog" || fail "valgrind reported errors"
note "memcheck: $(grep -o 'in use at exit: .*' "$vlog"); $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$vlog"); $(grep -o 'suppressed: [0-9,]* bytes' "$vlog" | head -n 1) (loader)"
