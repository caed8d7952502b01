#!/bin/sh
# The generator of the function lists (layer/gen/xl_gen_functions.py) and
# its hook list: a name the headers do not know, a malformed line and a
# pre-only hook that records its call itself each fail the build with a
# line saying so; a good list gives each function its kind (PLAIN, HOOK,
# HOOK_PRE, OWN) and its hook. The build runs it on layer/xl_hooks.txt
# only, which is right: these checks had never been run.
# Usage: gen_hooks.sh GENERATOR HEADER...
set -eu
gen=$1
shift
: "${XRLM_TEST_WORK:?}"
rm -rf "$XRLM_TEST_WORK"
mkdir -p "$XRLM_TEST_WORK"
cd "$XRLM_TEST_WORK"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

headers=$*

printf '%s\n' "xrNotAFunction  xl_x  both  wrap  why" >hooks.txt
python3 "$gen" fn.h --hooks hooks.txt hooks.h wraps.h $headers >out.txt 2>err.txt &&
	fail "a hook on a name the headers do not know was accepted"
grep -q "hooks.txt: not an OpenXR function: xrNotAFunction" err.txt ||
	fail "unknown name: $(cat err.txt)"

for line in "xrEndFrame  xl_x  neither  wrap  why" "xrEndFrame  xl_x  both  bracket  why" \
	"xrEndFrame  xl_x  both"; do
	printf '%s\n' "# a comment" "" "$line" >hooks.txt
	python3 "$gen" fn.h --hooks hooks.txt hooks.h wraps.h $headers >out.txt 2>err.txt &&
		fail "accepted: '$line'"
	grep -q "hooks.txt:3: expected: name hook both|pre wrap|own" err.txt ||
		fail "'$line': $(cat err.txt)"
done

printf '%s\n' "xrEndFrame  xl_x  pre  own  why" >hooks.txt
python3 "$gen" fn.h --hooks hooks.txt hooks.h wraps.h $headers >out.txt 2>err.txt &&
	fail "a pre-only hook that records its call itself was accepted"
grep -q "must be on both sides" err.txt || fail "pre-only own: $(cat err.txt)"

# A good list: every kind.
printf '%s\n' "xrEndFrame    hook_end    both  own   a" "xrWaitFrame   hook_wait   both  wrap  b" \
	"xrBeginFrame  hook_begin  pre   wrap  c  # and a comment" >hooks.txt
python3 "$gen" fn.h --hooks hooks.txt hooks.h wraps.h $headers >out.txt 2>err.txt ||
	fail "a good list was refused: $(cat err.txt)"
grep -q '^XL_HOOK(XrResult, xrEndFrame, (.*), (session, frameEndInfo), hook_end, 0, 1)$' hooks.h ||
	fail "xrEndFrame's hook line: $(grep xrEndFrame hooks.h)"
grep -q '^XL_HOOK(XrResult, xrWaitFrame, (.*), (.*), hook_wait, 0, 0)$' hooks.h ||
	fail "xrWaitFrame's hook line: $(grep xrWaitFrame hooks.h)"
grep -q '^XL_HOOK(XrResult, xrBeginFrame, (.*), (.*), hook_begin, 1, 0)$' hooks.h ||
	fail "xrBeginFrame's hook line: $(grep xrBeginFrame hooks.h)"
[ "$(grep -c '^XL_HOOK(' hooks.h)" -eq 3 ] || fail "not 3 hooks: $(cat hooks.h)"
grep -q '^XL_WRAP(XrResult, xrEndFrame, (.*), (.*), OWN, hook_end)$' wraps.h || fail "xrEndFrame: OWN"
grep -q '^XL_WRAP(XrResult, xrWaitFrame, (.*), (.*), HOOK, hook_wait)$' wraps.h || fail "xrWaitFrame: HOOK"
grep -q '^XL_WRAP(XrResult, xrBeginFrame, (.*), (.*), HOOK_PRE, hook_begin)$' wraps.h ||
	fail "xrBeginFrame: HOOK_PRE"
grep -q '^XL_WRAP(XrResult, xrLocateViews, (.*), (.*), PLAIN, xrLocateViews)$' wraps.h ||
	fail "xrLocateViews: PLAIN"
[ "$(grep -c '^XL_WRAP(' wraps.h)" -eq "$(grep -c '^XL_FN(' fn.h)" ] ||
	fail "not one wrapper line per function"
# An array parameter's name, and a platform guard closed.
grep -q '^XL_FN(XrResult, xrResultToString, (.*char buffer\[XR_MAX_RESULT_STRING_SIZE\]), (instance, value, buffer))$' fn.h ||
	fail "xrResultToString: $(grep xrResultToString fn.h)"
[ "$(grep -c '^#if ' fn.h)" -eq "$(grep -c '^#endif' fn.h)" ] || fail "unbalanced guards in fn.h"
# guard_of NAME: the "#if" line NAME's entry stands under in fn.h ("" for none).
guard_of() {
	awk -v n="XL_FN(XrResult, $1," '/^#if /{g=$0} /^#endif/{g=""} index($0, n)==1{print g}' fn.h
}
[ "$(guard_of xrGetD3D11GraphicsRequirementsKHR)" = "#if defined(XR_USE_GRAPHICS_API_D3D11)" ] ||
	fail "xrGetD3D11GraphicsRequirementsKHR's guard: '$(guard_of xrGetD3D11GraphicsRequirementsKHR)'"
[ -z "$(guard_of xrEndFrame)" ] || fail "xrEndFrame under a guard: $(guard_of xrEndFrame)"
[ -z "$(guard_of xrResultToString)" ] || fail "xrResultToString under a guard"
# Both forms of a guard, nested in one that is not a platform's, a
# prototype over several lines; the list alone (no --hooks).
cat >fake.h <<'H'
#if !defined(XR_NO_PROTOTYPES)
#if defined(XR_USE_FAKE_ONE)
XRAPI_ATTR XrResult XRAPI_CALL xrFakeOne(XrInstance instance);
#endif
#ifdef XR_USE_FAKE_TWO
XRAPI_ATTR XrResult XRAPI_CALL xrFakeTwo(
    XrInstance                                  instance,
    uint32_t                                    count);
#endif
XRAPI_ATTR XrResult XRAPI_CALL xrFakeThree(XrInstance instance);
#endif
H
python3 "$gen" fn.h fake.h >out.txt 2>err.txt || fail "the list alone: $(cat err.txt)"
[ "$(guard_of xrFakeOne)" = "#if defined(XR_USE_FAKE_ONE)" ] || fail "#if defined(): '$(guard_of xrFakeOne)'"
[ "$(guard_of xrFakeTwo)" = "#if defined(XR_USE_FAKE_TWO)" ] || fail "#ifdef: '$(guard_of xrFakeTwo)'"
[ -z "$(guard_of xrFakeThree)" ] || fail "xrFakeThree under a guard: $(guard_of xrFakeThree)"
grep -q '^XL_FN(XrResult, xrFakeTwo, (XrInstance instance, uint32_t count), (instance, count))$' fn.h ||
	fail "a prototype over several lines: $(grep xrFakeTwo fn.h)"
grep -q '^#define XL_FN_TOTAL 3 ' fn.h || fail "XL_FN_TOTAL: $(grep XL_FN_TOTAL fn.h)"
echo "-- the generator refused each bad hook list with its reason and wrote every kind"
