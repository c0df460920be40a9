#!/usr/bin/env bash
# Packs what bench/peers/run_all.sh needs from a build dir (default build-bench) into
# BUILD/stage/peers.tar.xz (git-ignored; carry it and .gpuhost to the GPU host): our peer bench,
# the element bench, the plugin, the meta library and the host libraries the GPU host lacks
# (OpenCV 4.6 C++ for the element bench, gst-check, cudart), plus the commit they were built from.
# Same idea as tools/stage-gpuhost.sh, for another build dir.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${1:-build-bench}
S=$B/stage
rm -rf "$S" && mkdir -p "$S/pack/hostlib"
for f in gst/libgstccl.so gst/ccl/libgstcclmeta-1.0.so.1 bench/peers/ccl-bench-peers-ours bench/element/ccl-bench-element; do
  mkdir -p "$S/pack/build/$(dirname "$f")"
  strip --strip-debug -o "$S/pack/build/$f" "$B/$f"
done
ln -sf libgstcclmeta-1.0.so.1 "$S/pack/build/gst/ccl/libgstcclmeta-1.0.so"
for lib in libopencv_core.so.406 libopencv_imgproc.so.406 libtbb.so.12 libblas.so.3 liblapack.so.3 \
           libgfortran.so.5 libquadmath.so.0 libgstcheck-1.0.so.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$S/pack/hostlib/"
done
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$S/pack/hostlib/"
{ git log -1 --format='commit %h %cd' --date=short; git status --short --untracked-files=no | sed 's/^/modified: /';
  meson introspect "$B" --buildoptions | python3 -c 'import json,sys; print(*[o["name"]+"="+str(o["value"]) for o in json.load(sys.stdin) if o["name"] in ("buildtype","gpu_archs")])'; } > "$S/pack/build/stage.txt"
tar -C "$S/pack" -cJf "$S/peers.tar.xz" build hostlib && rm -rf "$S/pack"
du -sh "$S/peers.tar.xz"
