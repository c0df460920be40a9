#include "host/frame_graphs.cuh"

#include <algorithm>

#include "host/cuda_check.hpp"

namespace ccl::cuda {
namespace {

// Graphs kept per pipeline: a decoder's or an upload pool's buffers (a few to a few dozen) times
// one or two guesses. Past that the least recently used graph is updated in place.
constexpr std::size_t kMostGraphs = 64;

bool same_options(const Options& a, const Options& b) {
  return a.connectivity == b.connectivity && a.threshold == b.threshold && a.min_area == b.min_area &&
         a.max_area == b.max_area && a.max_objects == b.max_objects && a.order == b.order &&
         a.algorithm == b.algorithm && a.analysis == b.analysis;
}

// The work queue_work queues on `stream`, recorded instead of run; nullptr when queue_work threw
// (the direct queuing that follows meets the error again, if it was not the recording's) or the
// driver refused the graph.
cudaGraph_t capture(cudaStream_t stream, const std::function<void(cudaStream_t)>& queue_work) {
  // Thread-local: another thread's CUDA calls neither join nor break this capture.
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  cudaGraph_t graph = nullptr;
  bool recorded = true;
  try {
    queue_work(stream);
  } catch (...) {
    recorded = false;
  }
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);  // out of capture mode whatever happened
  if (ended != cudaSuccess || !recorded) {
    (void)cudaGetLastError();
    if (graph) cudaGraphDestroy(graph);
    return nullptr;
  }
  return graph;
}

// Whether a graph captured for `a` can be updated to `b`'s: the same operations (they follow from
// the geometry, the options, whether anything is gathered and whether a label map is written), so
// only pointers, strides and the gather's size differ.
bool same_operations(const FrameGraphKey& a, const FrameGraphKey& b) {
  return a.width == b.width && a.height == b.height && same_options(a.options, b.options) &&
         (a.gathered == 0) == (b.gathered == 0) && (a.labels == nullptr) == (b.labels == nullptr);
}

}  // namespace

bool operator==(const FrameGraphKey& a, const FrameGraphKey& b) {
  return a.image == b.image && a.width == b.width && a.height == b.height && a.stride == b.stride &&
         same_options(a.options, b.options) && a.gathered == b.gathered && a.labels == b.labels &&
         a.label_stride == b.label_stride;
}

FrameGraphs::~FrameGraphs() {
  clear();
  if (capture_stream_) cudaStreamDestroy(capture_stream_);
}

bool FrameGraphs::launch(const FrameGraphKey& key, cudaStream_t stream,
                         const std::function<void(cudaStream_t)>& queue_work) {
  Entry* entry = find(key);
  if (!entry) {
    if (!capture_stream_ && cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking) != cudaSuccess) {
      (void)cudaGetLastError();
      capture_stream_ = nullptr;
      return false;
    }
    const cudaGraph_t graph = capture(capture_stream_, queue_work);
    if (!graph) return false;
    entry = store(key, graph);
    cudaGraphDestroy(graph);  // the executable graph has its own copy
    if (!entry) return false;
  }
  entry->last_use = ++launches_;
  check(cudaGraphLaunch(entry->exec, stream), "cudaGraphLaunch (frame)");
  return true;
}

FrameGraphs::Entry* FrameGraphs::find(const FrameGraphKey& key) {
  for (Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

FrameGraphs::Entry* FrameGraphs::store(const FrameGraphKey& key, cudaGraph_t graph) {
  if (entries_.size() >= kMostGraphs) {
    const auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    // Same operations with other arguments: updating keeps the instantiation cost off this frame.
    if (same_operations(oldest->key, key)) {
      cudaGraphExecUpdateResultInfo info{};
      if (cudaGraphExecUpdate(oldest->exec, graph, &info) == cudaSuccess) {
        oldest->key = key;
        return &*oldest;
      }
      (void)cudaGetLastError();
    }
    cudaGraphExecDestroy(oldest->exec);
    *oldest = entries_.back();
    entries_.pop_back();
  }
  cudaGraphExec_t exec = nullptr;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
    (void)cudaGetLastError();  // out of memory, say: the frame is queued directly instead
    return nullptr;
  }
  entries_.push_back({key, exec, 0});
  return &entries_.back();
}

void FrameGraphs::clear() noexcept {
  for (const Entry& e : entries_) cudaGraphExecDestroy(e.exec);
  entries_.clear();
}

}  // namespace ccl::cuda
