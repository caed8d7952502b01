# Shared by the runtime's shell tests. POSIX sh.

# Prints a failure and exits 1.
rt_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Succeeds if core_validation's text output FILE reports no error or
# warning. A missing file means core_validation had nothing to say.
#
# One report is not ours to fix and is left out: api_dump, which sits above
# core_validation in the chain, calls xrStructureTypeToString itself to
# print structure names, and core_validation 1.0.20 wrongly refuses the
# XR_KHR_vulkan_enable2 structure types there. hello_xr never calls
# xrStructureTypeToString (check: `grep -c xrStructureTypeToString` on its
# sources), so no report about the app or the runtime is hidden.
rt_core_validation_clean() {
	[ -f "$1" ] || return 0
	if grep -E '^\[VALID_(ERROR|WARNING) ' "$1" |
		grep -v ' | xrStructureTypeToString\]: ' | grep -q .; then
		echo "core_validation reported:" >&2
		grep -E -A3 '^\[VALID_(ERROR|WARNING) ' "$1" | grep -v ' | xrStructureTypeToString\]: ' |
			head -40 >&2
		return 1
	fi
	return 0
}
