#!/bin/sh
# `cmake --install` puts xrlm, xrlm-run, both layers and their manifests
# under a prefix; the installed manifests point at the installed libraries
# (a path relative to the manifest), and the installed xrlm-run, knowing
# nothing of the build tree, records a session and prints its summary.
. "$(dirname "$0")/lib.sh"
: "${XRLM_TEST_BUILD:?}"
setup
prefix=$XRLM_TEST_WORK/prefix
cmake --install "$XRLM_TEST_BUILD" --prefix "$prefix" >"$XRLM_TEST_WORK/install.log" 2>&1 ||
	fail "cmake --install failed: $(cat "$XRLM_TEST_WORK/install.log")"
for f in bin/xrlm bin/xrlm-run libexec/xrlm/xrlm-xlsx share/xr-layer-monitor/xrlm-limits.sh \
	share/openxr/1/api_layers/explicit.d/XrApiLayer_xrlm_monitor_pre.json \
	share/openxr/1/api_layers/explicit.d/XrApiLayer_xrlm_monitor_post.json; do
	[ -e "$prefix/$f" ] || fail "not installed: $f"
done
ls "$prefix"/lib*/libXrApiLayer_xrlm_monitor_pre.so "$prefix"/lib*/libXrApiLayer_xrlm_monitor_post.so \
	>/dev/null 2>&1 || ls "$prefix"/lib/*/libXrApiLayer_xrlm_monitor_pre.so >/dev/null ||
	fail "layer libraries not installed"

unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR XRLM_MANIFEST_DIR XRLM_TOOL
export XR_API_LAYER_PATH=$XRLM_TEST_TARGET_MANIFESTS XRTEST_FRAME_RATE=0
"$prefix/bin/xrlm-run" --target "$TARGET" --frames 50 --out "$OUT" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 80 >"$XRLM_TEST_WORK/run.log" 2>&1 ||
	fail "installed xrlm-run failed: $(cat "$XRLM_TEST_WORK/run.log")"
grep -q "^matched frames: 50" "$XRLM_TEST_WORK/run.log" || fail "no summary from the installed xrlm"
grep -q "pre: target layer: $TARGET" "$OUT/xrlm-pre.log" 2>/dev/null ||
	grep -q "target layer: $TARGET" "$OUT/xrlm-pre.log" || fail "the installed layers did not run"
# xrlm xlsx runs xrlm-xlsx, found in the installed layout relative to xrlm.
merged=$(ls "$OUT"/frames-merged-*.csv | head -n 1)
"$prefix/bin/xrlm" xlsx "$merged" -o "$XRLM_TEST_WORK/book.xlsx" >"$XRLM_TEST_WORK/xlsx.log" 2>&1 ||
	fail "installed xrlm xlsx failed: $(cat "$XRLM_TEST_WORK/xlsx.log")"
[ -s "$XRLM_TEST_WORK/book.xlsx" ] || fail "installed xrlm xlsx wrote no workbook"
note "installed tree works on its own"
