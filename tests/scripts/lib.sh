# Shared by the tests of scripts/ (sourced after `set -eu`): the
# environment CTest gives them checked, fail(), and a fresh work directory.
: "${XRLM_TEST_SOURCE:?}" "${XRLM_TEST_WORK:?}"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

rm -rf "$XRLM_TEST_WORK" && mkdir -p "$XRLM_TEST_WORK"
