#!/usr/bin/env bash
# The main job: installs what is missing, builds, then runs a real pipeline on a generated input
# (videotestsrc's concentric rings, binarized at 128) and prints the components found per frame.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/bootstrap.sh >/dev/null
export GST_PLUGIN_PATH="$PWD/build/gst"
gst-launch-1.0 -m \
  videotestsrc pattern=circular num-buffers=2 ! video/x-raw,format=GRAY8,width=320,height=240 ! \
  cudaccl threshold=128 post-messages=true ! fakesink 2>&1 |
  python3 tools/print-components.py
