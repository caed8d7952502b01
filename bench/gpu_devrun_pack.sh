#!/bin/sh
# Packs what the bench scripts need to run on a machine without this
# build's paths or libraries (a lent GPU machine, or one with free cores):
# BUILD_DIR's layers, manifests, test runtime, target and app, xrlm, the
# bench programs and the session generator when BUILD_DIR has them, the bench scripts, and the
# shared libraries they load on this Debian 12 machine (Debian's own
# packages' files: the OpenXR and Vulkan loaders, glvnd, libcsv, ...).
#
# Usage: bench/gpu_devrun_pack.sh BUILD_DIR DEST
# There: LD_LIBRARY_PATH=DEST/lib sh DEST/bench/gpu_sweep.sh DEST/build
#    or: LD_LIBRARY_PATH=DEST/lib BUILD=DEST/build WORK=... sh DEST/bench/stall_mem.sh 3
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
dest=$2
rm -rf "$dest"
mkdir -p "$dest/build/layer" "$dest/build/manifests" "$dest/build/tests/manifests" \
	"$dest/build/tests/runtime" "$dest/build/tests/target" "$dest/build/merge" \
	"$dest/build/bench" "$dest/bench" "$dest/lib"
cp "$build"/layer/*.so "$dest/build/layer/"
cp "$build"/manifests/*.json "$dest/build/manifests/"
cp "$build"/tests/manifests/*.json "$dest/build/tests/manifests/"
cp "$build"/tests/runtime/xrlm_test_runtime.json "$build"/tests/runtime/libxrlm_test_runtime.so \
	"$dest/build/tests/runtime/"
cp "$build"/tests/target/*.so "$dest/build/tests/target/"
cp "$build"/tests/xrlm-test-app "$dest/build/tests/"
cp "$build"/merge/xrlm "$build"/merge/xrlm-xlsx "$dest/build/merge/"
cp "$top"/bench/*.sh "$top"/bench/pct.awk "$dest/bench/"
bins="$dest/build/tests/xrlm-test-app $dest/build/merge/xrlm $dest/build/merge/xrlm-xlsx"
for b in bench/xrlm-bench-frames bench/xrlm-bench-spawn tests/merge/xrlm_gen_session; do
	[ -x "$build/$b" ] || continue
	mkdir -p "$dest/build/$(dirname "$b")"
	cp "$build/$b" "$dest/build/$b"
	bins="$bins $dest/build/$b"
done
# The manifests name libraries by this build's absolute paths: make them
# relative to the manifest (the loader resolves such a path from the
# manifest's directory), so the pack runs wherever it is unpacked.
for f in "$dest"/build/manifests/*.json "$dest"/build/tests/manifests/*.json \
	"$dest"/build/tests/runtime/*.json; do
	up=$(dirname "${f#"$dest"/build/}" | sed 's|[^/][^/]*|..|g')
	sed -i "s|\"$build/|\"$up/|" "$f"
done
# Every library they load but the C and C++ run-times the other machine has.
for f in "$dest"/build/layer/*.so "$dest"/build/tests/runtime/*.so "$dest"/build/tests/target/*.so \
	$bins; do
	ldd "$f" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
	while read -r lib; do cp -L "$lib" "$dest/lib/"; done
du -sh "$dest"
