#!/usr/bin/env bash
# One batched device session for the element: element tests, compute-sanitizer memcheck on their
# CUDA cases, then ccl-bench-element. Usage (repo root, packed runtime in .gpuhost, libraries the
# host may lack in BUILD_DIR/hostlib): bench/element/run_on_device.sh BUILD_DIR OUT_DIR
B=${1:-build}
O=${2:-.}
source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$B/hostlib"
T=$B/tests/element/ccl-test-element
{ nvidia-smi -L; nproc; ls /usr/lib/x86_64-linux-gnu/libopencv_imgproc* 2>&1; python3 -c 'import cv2; print("cv2", cv2.__version__)' 2>&1; gst-inspect-1.0 cudaupload 2>&1 | head -3; } > "$O/host.txt" 2>&1
timeout 100 "$T" > "$O/tests.log" 2>&1; echo "tests rc=$?" >> "$O/summary.txt"
timeout 160 "$B/bench/element/ccl-bench-element" --frames 3000 > "$O/bench.log" 2>&1; echo "bench rc=$?" >> "$O/summary.txt"
timeout 130 compute-sanitizer --tool memcheck --error-exitcode 9 "$T" \
  --gtest_filter='ElementOracle.Cuda*:ElementCudaMemory.*:ElementPipelines.*Cuda*:ElementPipelines.SystemMemoryStillNegotiatesOnGpu:FramesInFlight.*:ElementPipelines.FramesInFlight*:*Foreground*:*Daylight*' \
  > "$O/memcheck.log" 2>&1
echo "memcheck rc=$?" >> "$O/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" "$O/tests.log" | head -30; tail -4 "$O/memcheck.log"; cat "$O/bench.log"; cat "$O/host.txt" "$O/summary.txt"
