// The core's share of an element frame, timed on the same device frames the element reads:
// run() wall time and its stages (cudaEvent marks of the internal FramePipeline). Kept apart from
// GStreamer so only this file goes through nvcc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ccl/types.hpp"

namespace bench {

struct CoreTimes {
  std::vector<double> run_ms;  // wall time of each FramePipeline::run (host copy and syncs included)
  std::vector<double> enqueue_ms;  // of which queuing the frame's device work, up to the first wait
  std::vector<double> direct_run_ms, direct_enqueue_ms;  // every operation queued by itself: no graph, no overlap
  std::vector<double> no_overlap_run_ms;  // graphs whose kernels do not overlap the previous one's tail
  std::vector<std::pair<std::string, std::vector<double>>> stage_ms;  // per stage, one entry per frame
  std::vector<ccl::Result> results;  // of each distinct frame
};

// Runs `iterations` frames cycling over `frames` (device pointers, `stride` bytes per row) on a new
// stream; the caller has made the CUDA context current.
CoreTimes time_core(const std::vector<const std::uint8_t*>& frames, int width, int height, std::ptrdiff_t stride,
                    const ccl::Options& options, int iterations);

}  // namespace bench
