#!/bin/sh
# A manifest whose "name" was edited: the loader asks the library for a
# layer it is not, and the library refuses. The refusal says so in one
# line on the application's stderr (no instance yet, so no log file),
# naming the name asked, the library's own and the fix; the application
# runs all its frames with exit status 0, without that side.
# Usage: negotiate.sh pre|post
. "$(dirname "$0")/lib.sh"
export XRTEST_FRAME_RATE=0
side=$1
case $side in
pre) own=$PRE ;;
post) own=$POST ;;
*) fail "usage: negotiate.sh pre|post" ;;
esac
renamed=XR_APILAYER_renamed_$side

setup
mkdir -p "$XRLM_TEST_WORK/manifests"
sed "s/\"$own\"/\"$renamed\"/" "$XRLM_TEST_MANIFESTS/XrApiLayer_xrlm_monitor_$side.json" \
	>"$XRLM_TEST_WORK/manifests/renamed.json"
grep -q "\"name\": \"$renamed\"" "$XRLM_TEST_WORK/manifests/renamed.json" ||
	fail "the manifest copy was not renamed"
# The copy, beside the shipped manifests (the other side, the target); only the copy's name is enabled.
export XR_API_LAYER_PATH=$XRLM_TEST_WORK/manifests:$XRLM_TEST_TARGET_MANIFESTS:$XRLM_TEST_MANIFESTS
if [ "$side" = pre ]; then
	export XR_ENABLE_API_LAYERS=$renamed:$TARGET:$POST
else
	export XR_ENABLE_API_LAYERS=$PRE:$TARGET:$renamed
fi
export XRLM_RECORD=1
run_app --graphics headless --frames 20

log=$XRLM_TEST_WORK/app.log
line="xrlm $side: the loader asked .*libXrApiLayer_xrlm_monitor_$side.so for layer \"$renamed\""
[ "$(grep -c "$line" "$log")" = 1 ] || { cat "$log" >&2; fail "not one refusal line naming the name asked"; }
grep "$line" "$log" | grep -q "that library is $own, .*\"name\" back to \"$own\"" ||
	fail "the refusal does not name the library's own name and the fix"
[ -z "$(ls "$OUT"/frames-* 2>/dev/null)" ] || fail "files were recorded without $side"
note "the renamed $side manifest's refusal is said"
