#!/usr/bin/env bash
# Makes the benchmark's 1080p H.264 clip from the daylight scene (cclblobsrc, so it needs nothing
# from outside): Annex-B byte-stream, 25 fps, High profile without B-frames and an I-frame every
# 2 s, as IP cameras send. Uses x264enc (gstreamer1.0-plugins-ugly), else openh264enc
# (gstreamer1.0-plugins-bad, Baseline). Run here, in the repo root, after building the plugin:
#   bench/streams/make_clip.sh [OUT.h264] [FRAMES] [BUILD_DIR]
set -euo pipefail
out=${1:-bench/streams/daylight-1080p.h264}
frames=${2:-150}
build=${3:-build}
export GST_PLUGIN_PATH=$PWD/$build/gst
src="cclblobsrc scene=daylight num-buffers=$frames ! video/x-raw,format=I420,width=1920,height=1080,framerate=25/1"
if gst-inspect-1.0 x264enc > /dev/null 2>&1; then
  enc="x264enc speed-preset=medium bitrate=3000 key-int-max=50 bframes=0 ! video/x-h264,profile=high"
elif gst-inspect-1.0 openh264enc > /dev/null 2>&1; then
  enc="openh264enc bitrate=3000000 gop-size=50"
else
  echo "make_clip.sh: no H.264 encoder: apt-get install gstreamer1.0-plugins-ugly (x264enc)" >&2
  exit 1
fi
# shellcheck disable=SC2086  # the descriptions are word-split into gst-launch arguments on purpose
gst-launch-1.0 -q $src ! $enc ! h264parse ! video/x-h264,stream-format=byte-stream,alignment=au ! filesink location="$out"
echo "$out: $frames frames, $(stat -c %s "$out") bytes"
