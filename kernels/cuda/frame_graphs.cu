#include "frame_graphs.cuh"

#include <algorithm>

#include "cuda_check.hpp"

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

// The work queue_work queues on `stream`, recorded instead of run; nullptr when the stream cannot
// be captured (`refused` is set then) or the driver refused the graph.
cudaGraph_t capture(cudaStream_t stream, const std::function<void()>& queue_work, bool& refused) {
  // Thread-local: another thread's CUDA calls neither join nor break this capture.
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    (void)cudaGetLastError();
    refused = true;  // the stream cannot be captured: later frames do not ask again
    return nullptr;
  }
  cudaGraph_t graph = nullptr;
  try {
    queue_work();
  } catch (...) {
    if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
    (void)cudaGetLastError();  // the stream is out of capture mode again; the caller sees the first error
    throw;
  }
  if (cudaStreamEndCapture(stream, &graph) != cudaSuccess) {
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

bool FrameGraphs::launch(const FrameGraphKey& key, cudaStream_t stream, const std::function<void()>& queue_work) {
  // The legacy default stream cannot be captured; asking would only log an error per frame.
  if (stream == nullptr || stream == cudaStreamLegacy || capture_refused_) return false;
  Entry* entry = find(key);
  if (!entry) {
    const cudaGraph_t graph = capture(stream, queue_work, capture_refused_);
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
    cudaGraphExecUpdateResultInfo info{};
    if (same_operations(oldest->key, key)) {
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
