#!/usr/bin/env bash
# One batched GPU-host session for issue 7: the reliability tests with their GPU cases (out of
# device memory, 8 CUDA pipelines, 100,000-frame soak with host RSS and device memory printed),
# nvidia-smi memory sampled during them, compute-sanitizer memcheck on the element-level
# GPU cases and synccheck + initcheck on the GPU core tests (memcheck and racecheck of those:
# tests/gpu/run_on_device.sh). Usage (repo root; packed runtime in .gpuhost where the host lacks
# GStreamer, libraries it may lack in BUILD_DIR/hostlib):
#   bash tests/reliability/run_on_device.sh BUILD_DIR OUT_DIR      (BUILD_DIR from -Dgpu_archs=90)
B=${1:-build-rel-cuda}
O=${2:-.}
[ -f .gpuhost/env.sh ] && source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/$B/hostlib"
R=$B/tests/reliability/ccl-test-reliability
G=$B/tests/gpu/ccl-test-gpu
S=$O/summary.txt
: > "$S"
{ nvidia-smi -L; nvidia-smi --query-gpu=memory.used,memory.total --format=csv; } > "$O/device.txt" 2>&1

# All reliability tests, GPU cases included; device memory sampled every second meanwhile.
nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -l 1 > "$O/device-memory.csv" 2>&1 &
smi=$!
timeout 240 "$R" > "$O/tests.log" 2>&1; echo "reliability tests rc=$?" >> "$S"
kill "$smi" 2>/dev/null

# Element-level GPU cases under compute-sanitizer, with short soaks (the tool is slow).
GPU_CASES='Faults.FrameTooBigForTheDeviceIsAnElementError:Load.EightPipelinesAtOnceCuda:Load.SoakCuda'
# --report-api-errors no: the out-of-memory cases make cudaMalloc fail on purpose.
CCL_SOAK_FRAMES_GPU=300 timeout 110 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$R" \
  --gtest_filter="$GPU_CASES" > "$O/memcheck-reliability.log" 2>&1
echo "memcheck (reliability GPU cases) rc=$?" >> "$S"
# No initcheck on these element-level cases: the tests' own probes download GstCudaMemory,
# whose pitch padding GStreamer never writes, and initcheck flags that copy inside libgstcuda.

# GPU core tests: synccheck and initcheck on the quick frame set (OOM test left out: it asks for 200 GB).
CCL_GPU_TEST_QUICK=1 timeout 70 compute-sanitizer --tool synccheck --error-exitcode 9 "$G" \
  --gtest_filter='Random.Quick:Shapes.*:Determinism.*' > "$O/synccheck-gpu.log" 2>&1
echo "synccheck (gpu tests) rc=$?" >> "$S"
CCL_GPU_TEST_QUICK=1 timeout 70 compute-sanitizer --tool initcheck --error-exitcode 9 "$G" \
  --gtest_filter='Random.Quick:Shapes.*:Determinism.*' > "$O/initcheck-gpu.log" 2>&1
echo "initcheck (gpu tests) rc=$?" >> "$S"

grep -E "^\[  (PASSED|FAILED|SKIPPED) |reliability \]|tests ran" "$O/tests.log"
awk -F', ' 'NR==1{min=$2} {v=$2+0; if(v<min+0)min=$2; if(v>max+0)max=$2} END{print "nvidia-smi memory.used over the run: min " min ", max " max " (" NR " samples)"}' "$O/device-memory.csv"
for f in memcheck-reliability synccheck-gpu initcheck-gpu; do echo "== $f"; tail -n 3 "$O/$f.log"; done
cat "$O/device.txt" "$S"
