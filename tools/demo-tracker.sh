#!/usr/bin/env bash
# Track ids on the daylight scene: cclblobsrc scene=daylight ! cudaccl foreground=adaptive
# min-area=50 ! ccltracker ! ccloverlay trail=12 (the track id where one is set, and a line through
# its last 12 centroids); frames 60, 70,
# 80 and 90 side by side in docs/demo-tracker.png. Run after tools/demo.sh has built ./build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export GST_PLUGIN_PATH="$PWD/build/gst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gst-launch-1.0 -q cclblobsrc scene=daylight num-buffers=91 ! \
  cudaccl foreground=adaptive min-area=50 ! ccltracker ! \
  videoconvert ! video/x-raw,format=RGBA ! videoscale ! video/x-raw,width=400,height=225 ! \
  ccloverlay label-scale=1 trail=12 ! videoconvert ! video/x-raw,format=RGB ! multifilesink location="$tmp/f%03d.rgb"
python3 - "$tmp" <<'PY'
import sys
tmp, w, h, gap = sys.argv[1], 400, 225, 4
frames = [open(f"{tmp}/f{n:03d}.rgb", "rb").read() for n in (60, 70, 80, 90)]
rows = bytearray()
for y in range(h):  # the four frames side by side, a white gap between them
    rows += (b"\xff" * 3 * gap).join(f[y * w * 3:(y + 1) * w * 3] for f in frames)
open(f"{tmp}/strip.rgb", "wb").write(rows)
PY
gst-launch-1.0 -q filesrc location="$tmp/strip.rgb" ! \
  rawvideoparse width=$((4 * 400 + 3 * 4)) height=225 format=rgb framerate=1/1 ! videoconvert ! \
  pngenc compression-level=9 ! filesink location=docs/demo-tracker.png
echo "track ids, frames 60 70 80 90: docs/demo-tracker.png"
