#!/usr/bin/env bash
# One device session for the foreground benchmark (at most 240 s in all): the host's description,
# cudaccl's foreground properties as gst-inspect sees them, then ccl-bench-foreground (1080p and 4K,
# ours and the OpenCV chain in one process). Usage (repo root, packed runtime in .gpuhost, libraries
# the host may lack in BUILD_DIR/hostlib): bench/foreground/run_on_device.sh BUILD_DIR OUT_DIR [bench args]
B=${1:-build}
O=${2:-.}
shift 2 2>/dev/null
mkdir -p "$O"
source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$B/hostlib"
{ date -u; nvidia-smi -L; nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|NUMA node\(s\)"; free -g | head -2
  timeout 5 python3 -c 'import cv2; print("cv2", cv2.__version__)' 2>&1
  timeout 10 gst-inspect-1.0 cudaccl 2>&1 | grep -E -A3 "^  (foreground|motion-factor|open|close|frames-in-flight) "; } > "$O/host.txt" 2>&1
timeout 220 "$B/bench/foreground/ccl-bench-foreground" "$@" > "$O/bench.log" 2>&1; echo "bench rc=$?" > "$O/summary.txt"
cat "$O/bench.log" "$O/host.txt" "$O/summary.txt"
