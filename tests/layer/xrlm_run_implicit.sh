#!/bin/sh
# xrlm-run measures an implicit layer: the synthetic target installed as an
# implicit layer (manifest in an implicit.d directory the loader is pointed
# at through the XDG variables; no explicit manifest anywhere) is turned off
# as an implicit layer and loaded once, between pre and post. The CSVs show
# its XRTEST_TARGET_CPU_US, and the application's own xrEndFrame time shows
# it ran once (an implicit instance above pre would double it).
#   absolute  manifest with the library's absolute path, in XDG_CONFIG_DIRS
#   layout    an installed prefix (library path relative to the manifest,
#             an enable_environment), in XDG_DATA_DIRS
. "$(dirname "$0")/lib.sh"
: "${XRLM_TEST_IMPLICIT_MANIFESTS:?}"
variant=$1
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
W=$XRLM_TEST_WORK
K=300
src=$XRLM_TEST_IMPLICIT_MANIFESTS/$variant/XrApiLayer_xrlm_test_target.json
# The machine's own implicit layers stay out of the picture.
export XDG_CONFIG_HOME=$W/config-home XDG_DATA_HOME=$W/data-home XDG_CONFIG_DIRS=$W/none
export XDG_DATA_DIRS=$W/none:/usr/share
case $variant in
absolute)
	dir=$W/xdg/openxr/1/api_layers/implicit.d
	export XDG_CONFIG_DIRS=$W/xdg ;;
layout)
	dir=$W/prefix/share/openxr/1/api_layers/implicit.d
	mkdir -p "$W/prefix/lib"
	cp "$(sed -n 's/.*"library_path": "\(.*\)".*/\1/p' \
		"$XRLM_TEST_IMPLICIT_MANIFESTS/absolute/XrApiLayer_xrlm_test_target.json")" "$W/prefix/lib/"
	export XDG_DATA_DIRS=$W/prefix/share:/usr/share
	export ENABLE_XR_APILAYER_XRLM_test_target_implicit=1 ;;
*) fail "unknown variant $variant" ;;
esac
mkdir -p "$dir"
cp "$src" "$dir/"
sum=$(md5sum <"$dir/XrApiLayer_xrlm_test_target.json")
# Only the system's explicit layers: the target has no explicit manifest.
export XR_API_LAYER_PATH=$SYSTEM_LAYERS
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM
export XRTEST_FRAME_RATE=0 XRTEST_TARGET_CPU_US=$K TMPDIR=$W/tmp
mkdir -p "$TMPDIR"

# The loader does load it implicitly from there (else this test proves nothing).
"$XRLM_TEST_APP" --graphics headless --frames 5 >"$W/implicit.log" 2>&1 || fail "app failed: $(cat "$W/implicit.log")"
grep -q "xrlm-test-target.*knobs" "$W/implicit.log" || fail "the loader did not load the implicit layer"
if [ "$variant" = layout ]; then
	env -u ENABLE_XR_APILAYER_XRLM_test_target_implicit "$XRLM_TEST_APP" --graphics headless --frames 5 \
		>"$W/implicit.log" 2>&1 || fail "app failed"
	grep -q "xrlm-test-target" "$W/implicit.log" && fail "enable_environment unset, yet the layer loaded"
fi

"$XRLM_TEST_RUN" --target "$TARGET" --frames 200 --out "$OUT" -- \
	"$XRLM_TEST_APP" --graphics headless --frames 260 --warmup 40 --stats >"$W/run.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$W/run.log")"
cat "$W/run.log"
merged=$(sed -n 's/^merged CSV: //p' "$W/run.log")
[ -f "$merged" ] || fail "no merged CSV"
[ "$(header_value "$merged" frame_count)" -eq 200 ] || fail "not 200 frames"
[ "$(header_value "$merged" target_layer)" = "$TARGET" ] || fail "the target between pre and post is not $TARGET"
m=$(column_median "$merged" 6)
near "$m" "$K" 60 || fail "target_us median $m, not $K +- 60: the target is not between pre and post"
# Once, not twice: the app's own xrEndFrame p50 (ns) below 1.5 K.
app=$(sed -n 's/^endframe_cpu_ns .* p50=\([0-9]*\) .*/\1/p' "$W/run.log")
[ -n "$app" ] && [ "$app" -lt $((K * 1500)) ] || fail "the app's xrEndFrame p50 is ${app:-?} ns: the target ran twice?"
[ "$(grep -c "xrlm-test-target.*knobs" "$W/run.log")" -eq 1 ] || fail "the target was loaded more than once"
[ "$(md5sum <"$dir/XrApiLayer_xrlm_test_target.json")" = "$sum" ] || fail "the implicit manifest was changed"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left: $(ls -A "$TMPDIR")"
note "implicit target ($variant): target_us median $m us for $K, app xrEndFrame p50 $app ns"
