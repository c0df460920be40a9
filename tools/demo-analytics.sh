#!/usr/bin/env bash
# The analytics metadata drawn by GStreamer's own objectdetectionoverlay (GStreamer 1.26, in the
# Debian trixie root of tools/trixie-root.sh): cudaccl attaches one GstAnalyticsODMtd per component,
# the overlay draws them; the frame goes to docs/demo-analytics.png. Needs root (chroot).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/trixie-root.sh
bash tools/trixie-run.sh bash -euo pipefail -c '
  [ -f build-1.26/build.ninja ] || meson setup build-1.26 -Dcuda=disabled -Dbench=disabled | tail -n 12
  ninja -C build-1.26 >/dev/null
  GST_PLUGIN_PATH=$PWD/build-1.26/gst gst-launch-1.0 -q \
    cclblobsrc num-buffers=1 ! cudaccl threshold=128 ! videoconvert ! objectdetectionoverlay ! \
    videoconvert ! pngenc compression-level=9 ! filesink location=docs/demo-analytics.png'
echo "annotated frame: docs/demo-analytics.png"
