#!/usr/bin/env bash
# The N-chain streams benchmark on the GPU host (issue 37): bench/streams/streams.sh with nvh264dec,
# N = 1 8 32 64, the three configurations in one run. Usage (repo root, packed runtime in .gpuhost,
# libraries the host may lack in BUILD_DIR/hostlib): bench/streams/run_on_device.sh BUILD_DIR OUT_DIR [streams.sh options]
# Getting there, from this machine:
#   - the runtime: ../shared/gpu-host/pack-gst-runtime .gpuhost (its default set has nvcodec,
#     videoparsersbad for h264parse and coreelements for filesrc, queue and fakesink);
#   - a CUDA build of the plugin packed by tools/stage-gpuhost.sh (BUILD_DIR=build-cuda for another
#     folder name); the clip bench/streams/daylight-1080p.h264 is in the tree (make_clip.sh made it);
#   - carry [".gpuhost", ".gpurun"] and run: tar -xJf .gpurun/.gpurun.tar.xz && bench/streams/run_on_device.sh build out
B=${1:-build}
O=${2:-.}
shift 2 2>/dev/null
mkdir -p "$O"
source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$B/hostlib:$PWD/hostlib"
{ date -u; nvidia-smi -L; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; free -g | head -2
  timeout 10 gst-inspect-1.0 nvh264dec 2>&1 | head -3; timeout 10 gst-inspect-1.0 cudaccl 2>&1 | head -3; } > "$O/host.txt" 2>&1
timeout 560 bench/streams/streams.sh "$@" > "$O/streams.log" 2>&1
echo "streams rc=$?" > "$O/summary.txt"
cat "$O/streams.log" "$O/host.txt" "$O/summary.txt"
