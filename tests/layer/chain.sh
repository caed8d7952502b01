#!/bin/sh
# The chain check: the right order names the target; a reversed order, a
# missing post and two layers between are reported on stderr and in the log,
# a side disabled by DISABLE_<layer> is named as the cause (pre never records
# alone), and the application runs all its frames with exit status 0 regardless.
. "$(dirname "$0")/lib.sh"
export XRTEST_FRAME_RATE=0

setup
export XRLM_RECORD=1
run_app --graphics headless --frames 20
grep -q "target layer: $TARGET" "$OUT/xrlm-pre.log" || fail "pre log does not name the target"

setup
export XRLM_RECORD=1 XR_ENABLE_API_LAYERS=$POST:$TARGET:$PRE
run_app --graphics headless --frames 20
grep -q "order is reversed" "$XRLM_TEST_WORK/app.log" || fail "no warning on stderr for a reversed order"
grep -q "order is reversed" "$OUT/xrlm-post.log" || fail "no warning in the post log for a reversed order"
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "files were recorded with a reversed order"

setup
export XRLM_RECORD=1 XR_ENABLE_API_LAYERS=$PRE:$TARGET
run_app --graphics headless --frames 20
grep -q "$POST is not below $PRE" "$XRLM_TEST_WORK/app.log" || fail "no warning for a missing post"

setup
export XRLM_RECORD=1 XR_ENABLE_API_LAYERS=$PRE:$TARGET:XR_APILAYER_LUNARG_api_dump:$POST
export XR_API_DUMP_EXPORT_TYPE=text XR_API_DUMP_FILE_NAME=$XRLM_TEST_WORK/api_dump.txt
run_app --graphics headless --frames 20
grep -q "2 layers between pre and post" "$XRLM_TEST_WORK/app.log" || fail "no warning for two layers between"
grep -q "^# target_layer=$TARGET+XR_APILAYER_LUNARG_api_dump" "$OUT"/frames-*-pre.csv ||
	fail "the CSV does not name both layers as the target"
# Post disabled: pre must not record half-sessions nobody can merge.
setup
export XRLM_RECORD=1 DISABLE_$POST=1
run_app --graphics headless --frames 20
grep -q "pre: DISABLE_$POST is set: .*nothing will be recorded" "$XRLM_TEST_WORK/app.log" ||
	fail "no clear warning on stderr for a disabled post"
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "pre recorded alone with post disabled"
unset DISABLE_$POST

# Pre disabled: post says so, not that the chain is wrong.
setup
export XRLM_RECORD=1 DISABLE_$PRE=1
run_app --graphics headless --frames 20
grep -q "post: DISABLE_$PRE is set: post passes every call through" "$XRLM_TEST_WORK/app.log" ||
	fail "post does not say that pre is disabled"
! grep -q "not above" "$XRLM_TEST_WORK/app.log" || fail "post blames the chain for a disabled pre"
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "files were recorded with pre disabled"
unset DISABLE_$PRE
note "chain warnings present"
