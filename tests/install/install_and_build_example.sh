#!/usr/bin/env bash
# What an application developer does: install gst-ccl into a prefix (a fresh CPU-only build into a
# temporary directory), check that the plugin, library, header and gstreamer-ccl-1.0.pc are where
# GStreamer and pkg-config look, build examples/read_ccl_meta.c with nothing but
# `pkg-config --cflags --libs gstreamer-ccl-1.0`, and run it on the installed plugin; with
# introspection, also the typelib and the Python example on it.
# Usage: install_and_build_example.sh SOURCE_DIR C_COMPILER...
set -euo pipefail
src=$1
shift
cc=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

meson setup "$tmp/build" "$src" --prefix="$prefix" -Dcuda=disabled -Dtests=disabled -Dbench=disabled >"$tmp/setup.log" ||
  { cat "$tmp/setup.log"; exit 1; }
ninja -C "$tmp/build" install >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }

pc=$(find "$prefix" -name gstreamer-ccl-1.0.pc)
[ -n "$pc" ] || { echo "no gstreamer-ccl-1.0.pc installed under $prefix"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir gstreamer-ccl-1.0)
includedir=$(pkg-config --variable=includedir gstreamer-ccl-1.0)
echo "installed:"
(cd "$prefix" && find . -type f -o -type l | sort | sed 's/^\./  <prefix>/')
for f in "$libdir/gstreamer-1.0/libgstccl.so" "$libdir/libgstcclmeta-1.0.so" \
  "$includedir/gstreamer-1.0/gst/ccl/gstcclmeta.h"; do
  [ -e "$f" ] || { echo "missing: $f"; exit 1; }
done
pkg-config --print-requires gstreamer-ccl-1.0 | grep -q '^gstreamer-video-1.0' ||
  { echo "gstreamer-ccl-1.0.pc does not require gstreamer-video-1.0"; exit 1; }
echo "pkg-config --cflags --libs gstreamer-ccl-1.0: $(pkg-config --cflags --libs gstreamer-ccl-1.0)"

"${cc[@]}" "$src/examples/read_ccl_meta.c" -o "$tmp/read_ccl_meta" $(pkg-config --cflags --libs gstreamer-ccl-1.0)

# The installed plugin finds its metadata library through its rpath; the example through LD_LIBRARY_PATH.
export GST_PLUGIN_PATH=$libdir/gstreamer-1.0 GST_REGISTRY=$tmp/registry.bin
gst-inspect-1.0 ccloverlay >/dev/null || { echo "the installed plugin has no ccloverlay"; exit 1; }
LD_LIBRARY_PATH=$libdir "$tmp/read_ccl_meta" \
  "cclblobsrc num-buffers=3 ! cudaccl backend=cpu threshold=128 ! videoconvert ! ccloverlay ! fakesink name=sink"

# With introspection (CCL_EXPECT_TYPELIB=1, set by meson when it builds the typelib): the typelib in
# <libdir>/girepository-1.0 and the .gir in <datadir>/gir-1.0, and the Python example reading
# GstCclMeta through the installed typelib.
if [ "${CCL_EXPECT_TYPELIB:-0}" = 1 ]; then
  typelib=$libdir/girepository-1.0/GstCcl-1.0.typelib
  [ -f "$typelib" ] || { echo "missing: $typelib"; exit 1; }
  [ -f "$prefix/share/gir-1.0/GstCcl-1.0.gir" ] || { echo "missing: <prefix>/share/gir-1.0/GstCcl-1.0.gir"; exit 1; }
  GI_TYPELIB_PATH=$libdir/girepository-1.0 LD_LIBRARY_PATH=$libdir "${CCL_PYTHON:-python3}" "$src/examples/read_ccl.py" \
    "cclblobsrc num-buffers=2 ! cudaccl backend=cpu threshold=128 post-messages=true ! fakesink name=sink"
fi
