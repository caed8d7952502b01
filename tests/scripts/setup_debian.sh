#!/bin/sh
# scripts/setup-debian installs what the demo needs by default and the
# test-only packages only with "test"; both sets are real Debian packages,
# and the demo's build configures without the test packages.
set -eu
: "${XRLM_TEST_SOURCE:?}" "${XRLM_TEST_WORK:?}"
setup=$XRLM_TEST_SOURCE/scripts/setup-debian
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
rm -rf "$XRLM_TEST_WORK" && mkdir -p "$XRLM_TEST_WORK"

demo=$(sh "$setup" --list) || fail "setup-debian --list failed"
[ "$(sh "$setup" --list demo)" = "$demo" ] || fail "no argument and 'demo' differ"
test_set=$(sh "$setup" --list test) || fail "setup-debian --list test failed"
has() { printf '%s\n' "$1" | grep -qx "$2"; }

for p in build-essential cmake python3 libopenxr-dev libcsv-dev libopenxr-utils openxr-layer-apidump mesa-vulkan-drivers; do
	has "$demo" "$p" || fail "the demo set lacks $p"
done
# OpenGL sessions (README, GPU cost, "OpenGL"): built and run by the demo's
# build, tested on a private Xvfb with core_validation.
for p in libgl-dev libx11-dev libgl1-mesa-dri libglx-mesa0 libegl-dev libegl-mesa0; do
	has "$demo" "$p" || fail "the demo set lacks $p"
done
for p in xvfb xauth; do
	has "$test_set" "$p" || fail "the test set lacks $p"
done
for p in libcmocka-dev clang-14 valgrind strace openxr-layer-corevalidation vulkan-validationlayers; do
	has "$demo" "$p" && fail "the demo set installs the test-only package $p"
	has "$test_set" "$p" || fail "the test set lacks $p"
done
for p in $demo; do
	has "$test_set" "$p" || fail "the test set lacks the demo's $p"
done
# One call: apt-cache is slow to start.
apt-cache show $test_set >/dev/null 2>"$XRLM_TEST_WORK/apt.log" ||
	fail "not Debian packages: $(cat "$XRLM_TEST_WORK/apt.log")"
echo "-- demo set: $(echo $demo)"

set +e
sh "$setup" frobnicate >"$XRLM_TEST_WORK/bad.log" 2>&1
status=$?
set -e
[ $status -eq 2 ] && grep -q "unknown argument 'frobnicate'" "$XRLM_TEST_WORK/bad.log" ||
	fail "an unknown set was not refused (status $status)"
# --list after the set lists (it used to install the set); a stray word is refused.
[ "$(sh "$setup" test --list)" = "$test_set" ] || fail "setup-debian test --list did not list the test set"
for args in "--list demo extra" "demo test"; do
	status=0
	sh "$setup" $args >"$XRLM_TEST_WORK/bad.log" 2>&1 || status=$?
	[ $status -eq 2 ] || fail "setup-debian $args: status $status, not 2"
done
sh "$setup" --help | grep -q "setup-debian test" || fail "--help does not describe the sets"

# The demo's build: without the tests, nothing of cmocka is looked for.
cmake -S "$XRLM_TEST_SOURCE" -B "$XRLM_TEST_WORK/build" -DXRLM_TESTS=OFF -DXRLM_BENCH=OFF \
	>"$XRLM_TEST_WORK/configure.log" 2>&1 || fail "configure without tests failed: $(cat "$XRLM_TEST_WORK/configure.log")"
grep -q '^CMOCKA' "$XRLM_TEST_WORK/build/CMakeCache.txt" && fail "cmocka was looked for without the tests"
targets=$(cmake --build "$XRLM_TEST_WORK/build" --target help)
for t in xrlm xrlm_test_runtime xrlm-test-app xrlm_test_target; do
	printf '%s\n' "$targets" | grep -q "\.\.\. $t\$" || fail "the demo's build lacks $t"
done
printf '%s\n' "$targets" | grep -q "test_merge" && fail "the demo's build has the cmocka tests"
rm -rf "$XRLM_TEST_WORK/build"
echo "-- demo and test sets are separate; the demo's build needs no test package"
