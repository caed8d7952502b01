#!/bin/sh
# The loader's search path as xrlm-run hands it on: the monitor's manifest
# directory once, even when XR_API_LAYER_PATH names it already (by another
# spelling too; a loader from 1.0.30 on enables every manifest of a name
# and the same library twice in a chain recurses); the implicit-layer
# directories in the loader's order, which never includes ~/.config.
. "$(dirname "$0")/lib.sh"
setup
unset XR_ENABLE_API_LAYERS XRLM_OUTPUT_DIR
W=$XRLM_TEST_WORK
export XRLM_MANIFEST_DIR=$XRLM_TEST_MANIFESTS XRLM_TOOL=$XRLM_TEST_XRLM TMPDIR=$W/tmp
mkdir -p "$TMPDIR" "$W/link"
ln -s "$XRLM_TEST_MANIFESTS" "$W/link/m"

# /usr/bin/env as the application shows what it was given.
export XR_API_LAYER_PATH="$XRLM_TEST_MANIFESTS:$XRLM_TEST_TARGET_MANIFESTS:$W/link/m"
"$XRLM_TEST_RUN" --target "$TARGET" --frames 5 --out "$OUT" -- /usr/bin/env >"$W/env.log" 2>&1 ||
	fail "xrlm-run failed: $(cat "$W/env.log")"
path=$(sed -n 's/^XR_API_LAYER_PATH=//p' "$W/env.log")
[ "$path" = "$XRLM_TEST_MANIFESTS:$XRLM_TEST_TARGET_MANIFESTS" ] ||
	fail "XR_API_LAYER_PATH handed on as '$path', not the monitor's directory once and then the target's"

# The target only in ~/.config's implicit.d: not the loader's, not found.
unset XR_API_LAYER_PATH
export HOME=$W/home XDG_CONFIG_HOME= XDG_DATA_HOME= XDG_CONFIG_DIRS=$W/none XDG_DATA_DIRS=$W/none
mkdir -p "$HOME/.config/openxr/1/api_layers/implicit.d"
cp "$XRLM_TEST_IMPLICIT_MANIFESTS/absolute/XrApiLayer_xrlm_test_target.json" \
	"$HOME/.config/openxr/1/api_layers/implicit.d/"
set +e
"$XRLM_TEST_RUN" --target "$TARGET" --frames 5 --out "$OUT" -- /usr/bin/env >"$W/config.log" 2>&1
rc=$?
set -e
[ $rc -ne 0 ] && grep -q "no manifest for layer '$TARGET'" "$W/config.log" ||
	fail "a manifest in ~/.config was found (status $rc): $(cat "$W/config.log")"
# In ~/.local/share and in XDG_DATA_DIRS: the XDG_DATA_DIRS one, in the
# loader's order (its explicit copy, the search path's second directory,
# keeps its description).
for d in "$HOME/.local/share" "$W/data"; do
	mkdir -p "$d/openxr/1/api_layers/implicit.d"
	sed "s|\"description\": \"[^\"]*\"|\"description\": \"from $d\"|" \
		"$XRLM_TEST_IMPLICIT_MANIFESTS/absolute/XrApiLayer_xrlm_test_target.json" \
		>"$d/openxr/1/api_layers/implicit.d/XrApiLayer_xrlm_test_target.json"
done
export XDG_DATA_DIRS=$W/data
"$XRLM_TEST_RUN" --target "$TARGET" --frames 5 --out "$OUT" -- /bin/sh -c \
	'cat "$(echo "$XR_API_LAYER_PATH" | cut -d: -f2)"/*.json' \
	>"$W/order.log" 2>&1 || fail "xrlm-run failed: $(cat "$W/order.log")"
grep -q "from $W/data" "$W/order.log" && ! grep -q "from $HOME/.local/share" "$W/order.log" ||
	fail "the data home's manifest was taken before XDG_DATA_DIRS's: $(cat "$W/order.log")"
note "xrlm-run: the monitor's manifests once on the search path, the loader's directory order"
