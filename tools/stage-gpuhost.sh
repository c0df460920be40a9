#!/usr/bin/env bash
# Packs what a GPU-host run needs from ./build into ./.gpurun/.gpurun.tar.xz (git-ignored, carried by the
# device tool with .gpuhost): the plugin, the meta library, test and bench binaries (host debug
# info stripped to stay under the carry limit; device line info kept for compute-sanitizer),
# and the host libraries the GPU host lacks (OpenCV 4.6 C++, gst-check, json-glib, cudart).
# On the host: tar -xJf .gpurun/.gpurun.tar.xz (gives build/ and hostlib/). BUILD_DIR=build-cuda packs
# another build folder (as build/ all the same).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=${BUILD_DIR:-build}
rm -rf .gpurun && mkdir -p .gpurun/hostlib
for f in gst/libgstccl.so gst/ccl/libgstcclmeta-1.0.so.1 \
         tests/gpu/ccl-test-gpu tests/element/ccl-test-element tests/reliability/ccl-test-reliability \
         bench/gpu/ccl-bench-gpu bench/element/ccl-bench-element bench/foreground/ccl-bench-foreground \
         bench/quality/ccl-bench-quality bench/joiner/ccl-bench-joiner \
         bench/roi_metas/ccl-bench-roi-metas; do
  [ -e "$src/$f" ] || continue
  mkdir -p ".gpurun/build/$(dirname "$f")"
  strip --strip-debug -o ".gpurun/build/$f" "$src/$f"
done
ln -sf libgstcclmeta-1.0.so.1 .gpurun/build/gst/ccl/libgstcclmeta-1.0.so
for lib in libopencv_core.so.406 libopencv_imgproc.so.406 libtbb.so.12 libblas.so.3 liblapack.so.3 \
           libgfortran.so.5 libquadmath.so.0 libgstcheck-1.0.so.0 libjson-glib-1.0.so.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" .gpurun/hostlib/
done
cp -L /usr/local/cuda/lib64/libcudart.so.13 .gpurun/hostlib/
# one compressed file: the fat binaries compress well and the carry limit is 64 MiB
tar -C .gpurun -cJf .gpurun.tar.xz build hostlib && rm -rf .gpurun && mkdir .gpurun && mv .gpurun.tar.xz .gpurun/
du -sh .gpurun
