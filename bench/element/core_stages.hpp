// The core's share of an element frame, timed on the same device frames the element reads:
// run() wall time and its stages (cudaEvent marks through ccl/profiling.hpp). Kept apart from
// GStreamer so only this file goes through nvcc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ccl/types.hpp"

namespace bench {

struct CoreTimes {
  std::vector<double> run_ms;  // wall time of each CudaAnalyzer::run (host copy and syncs included)
  std::vector<double> enqueue_ms;  // of which queuing the frame's device work, up to the first wait
  std::vector<double> direct_run_ms, direct_enqueue_ms;  // every operation queued by itself: no graph, no overlap
  std::vector<double> no_overlap_run_ms;  // graphs whose kernels do not overlap the previous one's tail
  std::vector<std::pair<std::string, std::vector<double>>> stage_ms;  // per stage, one entry per frame
  std::vector<ccl::Result> results;  // of each distinct frame
  // Frames/s with 1, 2, 3 frames in flight: that many CudaAnalyzers, each with its own stream,
  // scratch and host thread, taking the frames in turn. The ceiling of an element that kept as
  // many frames in flight (one GstBaseTransform frame waits for its own result before the next).
  std::vector<double> in_flight_fps;
};

// Runs `iterations` frames cycling over `frames` (device pointers, `stride` bytes per row) on a new
// stream; the caller has made the CUDA context current, and `enter_context` makes it current on
// the threads of the in-flight figures.
CoreTimes time_core(const std::vector<const std::uint8_t*>& frames, int width, int height, std::ptrdiff_t stride,
                    const ccl::Options& options, int iterations, const std::function<void()>& enter_context);

}  // namespace bench
