#!/usr/bin/env bash
# The quality harness on the GPU host: ccl-bench-quality --backend both (the CPU and CUDA runs must
# give the same mask bytes and components; MOG2 in the same run) on the CDnet-layout folders given.
# Usage (repo root, packed runtime in .gpuhost, libraries the host may lack in BUILD_DIR/hostlib):
#   bench/quality/run_on_device.sh BUILD_DIR OUT_DIR [DATA_DIR...]   (DATA_DIR defaults to .cdnet/*)
# Getting there, from this machine:
#   - the runtime needs jpegdec: pack-gst-runtime .gpuhost /usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstjpeg.so
#     (multifile, png and app are in its default set);
#   - tools/stage-gpuhost.sh (BUILD_DIR=build-cuda for a CUDA build folder of another name) packs
#     bench/quality/ccl-bench-quality with the plugin;
#   - the data travels in a git-ignored folder named in the device tool's carry list (34 MB for
#     highway): mkdir -p .cdnet && cp -r ../shared/data/cdnet-highway .cdnet/ , then carry
#     [".gpuhost", ".gpurun", ".cdnet"] and run
#     tar -xJf .gpurun/.gpurun.tar.xz && bench/quality/run_on_device.sh build out
B=${1:-build}
O=${2:-.}
shift 2 2>/dev/null
mkdir -p "$O"
source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$B/hostlib:$PWD/hostlib"
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(.cdnet/*)
{ date -u; nvidia-smi -L; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; free -g | head -2
  timeout 10 gst-inspect-1.0 jpegdec 2>&1 | head -3; } > "$O/host.txt" 2>&1
timeout 500 "$B/bench/quality/ccl-bench-quality" --backend both "${dirs[@]}" > "$O/quality.log" 2>&1
echo "quality rc=$?" > "$O/summary.txt"
cat "$O/quality.log" "$O/host.txt" "$O/summary.txt"
