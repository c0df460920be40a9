// The benchmarks' hook into the CUDA backend: per-stage device times and the switches they
// compare. Production code never needs it; an analyzer without one attached records nothing.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ccl/cuda_analyzer.hpp"

namespace ccl {

// Milliseconds of each stage of one frame (from the end of the stage before), by the name of the
// kernel or operation that ends it, in queue order.
using StageTimes = std::vector<std::pair<std::string, float>>;

class Profiling {
 public:
  // Attached to `analyzer` (which must outlive it) until destroyed.
  explicit Profiling(CudaAnalyzer& analyzer);
  ~Profiling();
  Profiling(const Profiling&) = delete;
  Profiling& operator=(const Profiling&) = delete;

  // While on, the frames that follow record a cudaEvent after each stage; they are then queued
  // operation by operation, never as a graph.
  void time_stages(bool on);
  // The stages of the last frame timed; after collect() or synchronize().
  StageTimes stage_times() const;

  // Queues only the device work of labelling and analysis (statistics by rank, the counts), without
  // compaction or host copy: the kernels' own time. Does not wait.
  void queue_label_and_analyze(const ImageView& image, const Options& options);
  // Waits for the work queued on the analyzer's stream.
  void synchronize();

  // Frames queued as one CUDA graph where their options allow (on by default).
  void use_graphs(bool on);
  // Process-wide: kernels may start while the kernel before them finishes (programmatic dependent
  // launch on compute capability 9.0+; on by default). Graphs captured before keep what they had.
  static void use_dependent_launches(bool on);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ccl
