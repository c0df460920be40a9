// One frame through the CUDA backend: label, analyze, count, and compact the kept components
// (straight into pinned host memory when few), waiting for the device once a frame where the order
// allows (raster order; an area filter is then applied on the host while frames stay under 16384
// components). CudaAnalyzer is this class behind the public header; ccl::Profiling
// (ccl/profiling.hpp) reaches its timer and switches.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ccl/types.hpp"
#include "foreground/cuda_background_model.cuh"
#include "host/frame_graphs.cuh"
#include "host/scratch.cuh"
#include "output/compact.cuh"
#include "primitives/device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

class FramePipeline {
 public:
  explicit FramePipeline(cudaStream_t stream) : stream_(stream) {}
  ~FramePipeline() { release(); }
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;

  // host_frames: also reserve the device copy run_host uploads frames into; `options`: also the
  // segment arrays its algorithm or analysis uses (otherwise the first frame that needs them).
  void reserve(int width, int height, bool host_frames = false, const Options& options = {});
  void release() noexcept;

  // Device work of a frame, queued without waiting: labels, statistics and the component count.
  // `image.data` is device memory; calls fit() first, so a frame never runs on scratch too small.
  void label_and_analyze(const ImageView& image, const Options& options) { label_and_analyze(image, options, timer_); }
  // Grows the scratch when this frame, or the segment arrays its options use, do not fit (the only
  // allocation a frame can cause), and zeroes what a frame that threw may have left half used.
  void fit(const ImageView& image, const Options& options);

  // A frame in two halves, so a caller can queue the next frame's work (on another pipeline)
  // before waiting for this one: submit() queues everything up to the first wait for the device,
  // collect() waits and fills `result`. One frame at a time; `image`, `labels` and `mask` must stay
  // valid until collect(). `mask` (device memory) gets the mask that is labelled, queued after the
  // frame's labelling in submit().
  void submit(const ImageView& image, const Options& options, const LabelView* labels, const MaskView* mask = nullptr);
  void collect(Result& result);
  // `image.data` is host memory: one async upload into reused device memory, then submit(). `mask`
  // (host memory) gets the mask that is labelled in collect().
  void submit_host(const ImageView& image, const Options& options, const MaskView* mask = nullptr);
  // submit_host() then collect().
  void run_host(const ImageView& image, const Options& options, Result& result);

  // The model Foreground::Motion updates (nullptr drops it); without one, the first motion frame
  // makes the pipeline its own.
  void set_background_model(std::shared_ptr<CudaBackgroundModel> model) { model_ = std::move(model); }

  cudaStream_t stream() const { return stream_; }
  // Frames are queued as CUDA graphs where their options allow (raster order, an area filter only
  // on the host, an algorithm that does not wait: the defaults); off, every operation is queued by
  // itself (the benchmarks compare both).
  void use_graphs(bool on) { use_graphs_ = on; }
  // Marks each stage of the frames that follow on `timer` (null: none); timed frames are queued
  // operation by operation.
  void set_timer(StageTimer* timer) { timer_ = timer; }
  std::size_t graphs_kept() const { return graphs_.size(); }
  // Device memory held now: the scratch allocations (foreground planes included) and run_host's
  // upload copy; not the background model, which analyzers may share.
  std::size_t device_bytes() const {
    return scratch_.arena_bytes + scratch_.segment_arena_bytes + scratch_.foreground_arena_bytes + upload_bytes_;
  }

 private:
  void reserve_pixels(std::size_t pixels, int height, SegmentArrays segments, bool foreground, int width_asked,
                      int height_asked);
  // The foreground stage of a frame whose options ask for it, queued on stream_ (outside any
  // graph): returns the mask plane, which the frame's labelling reads with threshold 0.
  ImageView queue_foreground(const ImageView& image, const Options& options);
  // Room for a width x height frame and `chroma_bytes` of its chroma in run_host's copy.
  void reserve_upload(int width, int height, std::size_t chroma_bytes);
  ChromaView upload_chroma(const ImageView& image, std::uint8_t* to, std::size_t plane_bytes);
  void label_and_analyze(const ImageView& image, const Options& options, StageTimer* timer);
  // Room for n components in the host list; the first `keep` stay when it moves.
  void grow_host_results(std::uint32_t n, std::uint32_t keep = 0);
  ComponentList host_list() const { return ComponentList{host_counts_, host_components_}; }
  // The device list's components first..end-1 to the host list (same positions).
  void copy_components(std::uint32_t first, std::uint32_t end);
  // The kernels of label_and_analyze() on `stream`, without fit(): the scratch must fit already.
  void queue_label_and_analyze(const ImageView& image, const Options& options, StageTimer* timer,
                               cudaStream_t stream);
  void queue_frame(const ImageView& image, const Options& options, std::uint32_t gathered, const LabelView* labels,
                   StageTimer* timer, cudaStream_t stream);
  void submit_frame();
  void collect_frame(Result& result);
  // A frame that threw may have left the ranking's state or the root slots (host/scratch.cuh) half
  // used: the next frame zeroes them first.
  void clear_state_left_by_a_failure();

  cudaStream_t stream_;
  Scratch scratch_;
  FrameCounts* host_counts_ = nullptr;  // pinned, one block with host_components_; the device writes both
  Component* host_components_ = nullptr;  // grown only when a frame keeps more
  std::size_t host_capacity_ = 0;
  std::uint32_t components_before_ = 0;  // the last frame's n_components_total: filter on the host?
  std::uint32_t expected_kept_ = 0;  // components gathered and copied before the counts are known (0: none yet)
  std::uint8_t* upload_ = nullptr;  // run_host's device copy of the frame, pitch = width
  std::size_t upload_bytes_ = 0;
  FrameGraphs graphs_;  // point into scratch_ and host_counts_: cleared before either is replaced
  bool use_graphs_ = true;
  StageTimer* timer_ = nullptr;
  bool frame_state_dirty_ = false;
  std::shared_ptr<CudaBackgroundModel> model_;  // Foreground::Motion's, possibly shared with other pipelines
  // The frame between submit() and collect().
  struct PendingFrame {
    ImageView image;
    Options options;
    LabelView labels;  // data == nullptr: no label map
    StageTimer* timer;
    std::uint32_t expected;  // components gathered before the counts were known
    MaskView host_mask;      // submit_host()'s mask destination, copied from upload_ in collect()
    Options asked;           // with filter_on_host: the caller's area filter and max_objects
    bool filter_on_host;     // labelled and gathered unfiltered; collect() filters the list
  };
  PendingFrame frame_{};
  bool pending_ = false;
};

}  // namespace ccl::cuda
