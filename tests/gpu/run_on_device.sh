#!/bin/sh
# One batched device session: GPU tests, compute-sanitizer memcheck and racecheck on the quick
# frame set, then the benchmark. Usage: tests/gpu/run_on_device.sh BUILD_DIR OUT_DIR
B=${1:-build-gpu}
O=${2:-.}
T=$B/tests/gpu/ccl-test-gpu
nvidia-smi -L > "$O/device.txt" 2>&1
timeout 200 "$T" > "$O/tests.log" 2>&1; echo "tests rc=$?" >> "$O/summary.txt"
timeout 90 "$B/bench/gpu/ccl-bench-gpu" --kernels > "$O/bench.log" 2>&1; echo "bench rc=$?" >> "$O/summary.txt"
CCL_GPU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 "$T" \
  --gtest_filter='Random.Quick:Shapes.*:Api.*:Determinism.*:Graphs.*:Ranking.*:-Api.OutOfMemoryNamesTheFrame' > "$O/memcheck.log" 2>&1
echo "memcheck rc=$?" >> "$O/summary.txt"
CCL_GPU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 "$T" \
  --gtest_filter='Random.Quick:Shapes.TileEdges:Shapes.Thresholds:Graphs.ReplayReadsTheBuffersNewContents:Graphs.MoreBuffersThanGraphsKept:Ranking.HeightsChangeOnOneAnalyzer' > "$O/racecheck.log" 2>&1
echo "racecheck rc=$?" >> "$O/summary.txt"
for tool in memcheck racecheck; do  # the foreground stage's kernels (shared-memory tiles, the model)
  CCL_GPU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$T" \
    --gtest_filter='Foreground.*' > "$O/foreground-$tool.log" 2>&1
  echo "foreground $tool rc=$?" >> "$O/summary.txt"
done
tail -3 "$O/tests.log" "$O/memcheck.log" "$O/racecheck.log" "$O/foreground-memcheck.log" "$O/foreground-racecheck.log"
cat "$O/summary.txt"
