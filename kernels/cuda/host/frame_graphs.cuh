// A frame's device work replayed as one CUDA graph: the host queues labelling, analysis and gather
// with one launch (~2-3 us on the H100 host) instead of one call per kernel (~15-30 us for the
// default four). A graph holds its kernels' arguments, so one is kept per key: the frame's pointer,
// geometry and options, and how many components are gathered before the count is known. Buffer
// pools hand out a few buffers again and again; a stream of more than 64 distinct buffers would
// capture and update a graph every frame, at about the cost of queuing the operations directly.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "ccl/types.hpp"

namespace ccl::cuda {

// What the captured operations take from the frame and the caller. Scratch and the pinned host
// list are not in it: the pipeline forgets every graph when it replaces them.
struct FrameGraphKey {
  const void* image;
  int width, height;
  std::ptrdiff_t stride;
  Options options;
  std::uint32_t gathered;  // components gathered and copied with the counts
  const void* labels;      // the label map written too, or nullptr
  std::ptrdiff_t label_stride;
};

bool operator==(const FrameGraphKey& a, const FrameGraphKey& b);

class FrameGraphs {
 public:
  FrameGraphs() = default;
  ~FrameGraphs();  // the CUDA context of the launches must be current
  FrameGraphs(const FrameGraphs&) = delete;
  FrameGraphs& operator=(const FrameGraphs&) = delete;

  // Queues on `stream` what `queue_work` queues on the stream it is given, as one launch of the
  // graph kept for `key`; the first time the key is seen, queue_work is recorded on a private
  // stream. False when no graph could be made (queue_work threw while recorded, the driver
  // refused): nothing was queued, the caller queues the work directly (and meets any error
  // itself). Throws Error(DeviceFailure) when the launch fails.
  bool launch(const FrameGraphKey& key, cudaStream_t stream, const std::function<void(cudaStream_t)>& queue_work);
  // Forgets every graph: what they point at is about to be freed or replaced.
  void clear() noexcept;
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    FrameGraphKey key;
    cudaGraphExec_t exec;
    std::uint64_t last_use;
  };
  Entry* find(const FrameGraphKey& key);
  Entry* store(const FrameGraphKey& key, cudaGraph_t graph);

  std::vector<Entry> entries_;
  std::uint64_t launches_ = 0;
  // Recorded on, never run on. Non-blocking: capturing a blocking stream (the element's) would
  // make the legacy stream unusable meanwhile for every thread of the context (upstream elements).
  cudaStream_t capture_stream_ = nullptr;
};

}  // namespace ccl::cuda
