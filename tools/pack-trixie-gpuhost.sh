#!/usr/bin/env bash
# Packs the GStreamer 1.26 runtime of the Debian trixie root (tools/trixie-root.sh) for the GPU host,
# which has the NVIDIA driver but no GStreamer and an older userland: trixie's own loader and glibc,
# gst-launch/gst-inspect, the plugins the element tests use, and the shared-library closure of those
# and of build-1.26's plugin and element tests (copied too), into DIR (default .gpuhost126). DIR/run.sh runs a
# command with that loader and those libraries, and the host's libcuda found after them; the whole
# as .gpurun126/gpuhost126.tar.xz. On the host: tar -xJf .gpurun126/gpuhost126.tar.xz;
# .gpuhost126/run.sh ccl-test-element (GST_PLUGIN_PATH is set to the packed plugin).
# Usage (root, after build-1.26 was built with CUDA): tools/pack-trixie-gpuhost.sh [DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-.gpuhost126}
rm -rf "$out" && mkdir -p "$out/lib" "$out/plugins" "$out/bin" "$out/ccl"
bash tools/trixie-run.sh bash -euo pipefail -c '
  out=$1
  plugdir=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
  for p in coreelements app videoconvertscale videotestsrc nvcodec debugutilsbad analyticsoverlay; do
    cp -f "$plugdir/libgst$p.so" "$out/plugins/"
  done
  cp -f /usr/bin/gst-launch-1.0 /usr/bin/gst-inspect-1.0 "$out/bin/"
  cp -fL /lib64/ld-linux-x86-64.so.2 "$out/lib/"
  cp -f build-1.26/gst/libgstccl.so "$out/ccl/"
  cp -fL build-1.26/gst/ccl/libgstcclmeta-1.0.so.0 "$out/lib/"
  cp -f build-1.26/tests/element/ccl-test-element "$out/bin/"
  bins="$out/ccl/libgstccl.so"
  # the whole closure, glibc and the C++ runtime included: the host'"'"'s are older than trixie'"'"'s
  for f in "$out"/plugins/*.so "$out"/bin/* $bins; do ldd "$f" 2>/dev/null | awk "/=> \\//{print \$3}"; done |
    sort -u | grep -Ev "/(libcuda|libnvidia-[a-z-]*)\.so" | while read -r lib; do cp -fL "$lib" "$out/lib/"; done
' _ "$out"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# run.sh PROGRAM [ARGS...]: runs PROGRAM with the packed trixie loader and libraries, the host's
# libcuda after them, and the packed plugins; plugins load in-process (no scanner of the host's ABI).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cuda_dir=$(dirname "$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/{print $NF; exit}')")
export GST_PLUGIN_SYSTEM_PATH="$here/plugins"
export GST_PLUGIN_PATH="$here/ccl"
export GST_REGISTRY_FORK=no
export GST_REGISTRY="${TMPDIR:-/tmp}/gst-registry-126.bin"
prog=$1; shift
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib:$cuda_dir" "$(command -v "$prog" || echo "$prog")" "$@"
RUN
chmod +x "$out/run.sh"
# one compressed file to carry to the host (the device tool's limit is 64 MiB): .gpurun126/
rm -rf .gpurun126 && mkdir .gpurun126 && tar -cJf .gpurun126/gpuhost126.tar.xz "$out"
echo "packed $(ls "$out/plugins" | wc -l) plugins and $(ls "$out/lib" | wc -l) libraries into $out ($(du -sh "$out" | cut -f1))"
