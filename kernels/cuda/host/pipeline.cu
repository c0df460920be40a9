#include "host/pipeline.cuh"

#include <algorithm>
#include <string>

#include "analyze/flsl_cd.cuh"
#include "analyze/flsl_otf.cuh"
#include "analyze/gather_roots.cuh"
#include "analyze/naive.cuh"
#include "foreground/foreground_stage.cuh"
#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "label/8dls.cuh"
#include "label/column_runs.cuh"
#include "label/optimized_uf.cuh"
#include "label/raster_segments.cuh"
#include "output/compact.cuh"
#include "output/label_map.cuh"
#include "output/mask_bytes.cuh"
#include "primitives/connectivity.hpp"

namespace ccl::cuda {
namespace {

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

// Whether submit_host uploads a frame's chroma: only Options::chroma's stage reads it.
bool uploads_chroma(const Options& options) { return options.chroma && options.foreground == Foreground::Adaptive; }

// The upload copy's bytes for U's rows and V's, each from its first sample to its last.
std::size_t upload_chroma_bytes(int width, int height, int step) {
  return 2 * std::size_t(chroma_row_bytes(width, step)) * std::size_t((height + 1) / 2);
}

// The labeling and analysis kernels each algorithm and analysis value selects, for the frame's
// connectivity. Every labeling leaves the contract of label/optimized_uf.cuh, so any labeling pairs
// with any analysis.
void label_frame(const DeviceMask& mask, const Options& options, const Scratch& s, cudaStream_t stream,
                 StageTimer* timer) {
  with_connectivity(options.connectivity, [&](auto connectivity) {
    constexpr int C = decltype(connectivity)::value;
    switch (options.algorithm) {
      case Algorithm::OptimizedUF: label_optimized_uf<C>(mask, s.labels, stream, timer); return;
      case Algorithm::EightDLS: label_8dls<C>(mask, s.labels, false, s.label_changed, stream, timer); return;
      case Algorithm::M8DLS: label_8dls<C>(mask, s.labels, true, s.label_changed, stream, timer); return;
      case Algorithm::ColumnRuns: label_column_runs<C>(mask, s.labels, stream, timer); return;
      case Algorithm::RasterSegments: label_raster_segments<C>(mask, s.labels, s.segments(), stream, timer); return;
    }
  });
}

void analyze_frame(const DeviceMask& mask, const Options& options, const Scratch& s, cudaStream_t stream,
                   StageTimer* timer) {
  with_connectivity(options.connectivity, [&](auto connectivity) {
    constexpr int C = decltype(connectivity)::value;
    switch (options.analysis) {
      case Analysis::FlslCd: analyze_flsl_cd(mask, s.labels, s.root_slots(), s.analysis(), stream, timer); return;
      case Analysis::Flsl: analyze_flsl(mask, s.labels, s.root_slots(), s.analysis(), stream, timer); return;
      case Analysis::Naive: analyze_naive(mask, s.labels, s.row_block_scan, s.analysis(), stream, timer); return;
      case Analysis::FlslOtf: analyze_flsl_otf<C>(mask, s.labels, s.otf_work(), s.analysis(), stream, timer); return;
    }
  });
}

// The segment arrays label_frame and analyze_frame hand the kernels of these options.
SegmentArrays segments_for(const Options& options) {
  if (options.analysis == Analysis::FlslOtf) return SegmentArrays::WithFeatures;
  if (options.algorithm == Algorithm::RasterSegments) return SegmentArrays::Segments;
  return SegmentArrays::None;
}

char* pinned(std::size_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t status = cudaMallocHost(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw Error(Error::Kind::OutOfMemory,
                std::string("out of pinned host memory: ") + what + " needs " + std::to_string(bytes) + " bytes");
  }
  check(status, "cudaMallocHost");
  return static_cast<char*>(p);
}

// Components gathered into the host list with the counts before the host knows how many a frame
// keeps: the last frame's count and a margin; more costs a copy and a sync (and a second gather for
// the naive and flsl-otf analyses), fewer only the gather's writes.
constexpr std::uint32_t kFirstExpected = 1024, kMostExpected = 16384;  // 16384 = 640 KiB across the bus

std::uint32_t expect_after(std::uint32_t n_out) { return std::min(kMostExpected, n_out + n_out / 4 + 32); }

// The next frame's guess. It stays while it covers the frame with an eighth to spare and is at most
// twice what the frame needs; otherwise it becomes the count and a margin, rounded up to an eighth
// of its power of two. A graph is kept per guess, so a guess that moved with every count would
// capture a new graph every frame.
std::uint32_t next_expected(std::uint32_t current, std::uint32_t n_out) {
  const std::uint32_t wanted = expect_after(n_out);
  if (current != 0 && current >= n_out + n_out / 8 && current <= 2 * wanted) return current;
  std::uint32_t step = 1;
  while (step * 16 <= wanted) step *= 2;  // step = power of two <= wanted, / 8
  return std::min(kMostExpected, (wanted + step - 1) / step * step);
}

// The analyses whose features are added up at the roots (add_features_at_roots): their frames can
// gather the components straight from there into the lists.
bool features_at_roots(const Options& options) {
  return options.analysis == Analysis::FlslCd || options.analysis == Analysis::Flsl;
}

// Raster order with an area filter: a frame whose frame before had at most this many components
// is gathered whole in its one wait and filtered on the host (the labels count every component
// either way, so the list is the device compaction's to the byte); beyond, the device compacts
// and waits twice, but sends only the kept components across the bus.
constexpr std::uint32_t kMostFilteredOnHost = kMostExpected;

// The area filter and max_objects, as finalize() applies them, on a list in raster order that
// holds every component.
void keep_in_range(const Options& asked, Result& result) {
  std::size_t kept = 0;
  result.truncated = false;
  for (const Component& c : result.components) {
    if (c.area < asked.min_area || c.area > asked.max_area) continue;
    if (kept == asked.max_objects) {
      result.truncated = true;
      break;
    }
    result.components[kept++] = c;
  }
  result.components.resize(kept);
}

// Kernels only, no host wait in between: the work can be captured into a graph.
bool capturable(const Options& options) {
  return options.algorithm != Algorithm::EightDLS && options.algorithm != Algorithm::M8DLS;
}

}  // namespace

void FramePipeline::reserve(int width, int height, bool host_frames, const Options& options) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw Error(Error::Kind::InvalidArgument, "cannot reserve for a " + size_text(width, height) + " frame");
  reserve_pixels(std::size_t(width) * height, height, segments_for(options), foreground_stage_needed(options), width,
                 height);
  if (host_frames) reserve_upload(width, height, uploads_chroma(options) ? upload_chroma_bytes(width, height, 2) : 0);
}

// A larger frame replaces the scratch (segment arrays and foreground planes included); otherwise
// only missing segment arrays or foreground planes are added, for the size already reserved.
void FramePipeline::reserve_pixels(std::size_t pixels, int height, SegmentArrays segments, bool foreground,
                                   int width_asked, int height_asked) {
  if (!host_counts_) grow_host_results(kFirstExpected);
  if (pixels > scratch_.max_pixels || height > scratch_.max_height) {
    graphs_.clear();
    allocate_scratch(scratch_, std::max(pixels, scratch_.max_pixels), std::max(height, scratch_.max_height), segments,
                     foreground, size_text(width_asked, height_asked));
    frame_state_dirty_ = true;  // until the new scratch is zeroed: a failed zeroing is retried
    clear_state_left_by_a_failure();
    return;
  }
  if (segments > scratch_.segments_held) {
    graphs_.clear();
    allocate_segments(scratch_, segments, size_text(width_asked, height_asked));
  }
  // Adding the planes frees nothing a graph points at: the graphs stay.
  if (foreground && !scratch_.foreground_arena) allocate_foreground(scratch_, size_text(width_asked, height_asked));
}

void FramePipeline::release() noexcept {
  graphs_.clear();
  free_scratch(scratch_);
  if (host_counts_) cudaFreeHost(host_counts_);
  if (upload_) cudaFree(upload_);
  host_counts_ = nullptr;
  host_components_ = nullptr;
  host_capacity_ = 0;
  expected_kept_ = 0;  // the next frame starts from kFirstExpected
  upload_ = nullptr;
  upload_bytes_ = 0;
  (void)cudaGetLastError();  // a free that failed in a broken context must not fail a later launch check
}

// Grows run_host's device copy; the new one comes first, so a failure keeps the old one.
void FramePipeline::reserve_upload(int width, int height, std::size_t chroma_bytes) {
  const std::size_t bytes = std::size_t(width) * height + chroma_bytes;
  if (bytes <= upload_bytes_) return;
  void* grown = device_alloc(bytes, "the upload copy of a " + size_text(width, height) + " frame");
  if (upload_) cudaFree(upload_);
  upload_ = static_cast<std::uint8_t*>(grown);
  upload_bytes_ = bytes;
}

void FramePipeline::fit(const ImageView& image, const Options& options) {
  reserve_pixels(std::size_t(image.width) * image.height, image.height, segments_for(options),
                 foreground_stage_needed(options), image.width, image.height);
  clear_state_left_by_a_failure();
}

void FramePipeline::grow_host_results(std::uint32_t n, std::uint32_t keep) {
  if (host_counts_ && n <= host_capacity_) return;
  graphs_.clear();
  const std::size_t capacity = std::max<std::size_t>(n, 2 * host_capacity_);
  char* block = pinned(sizeof(FrameCounts) + capacity * sizeof(Component), "the component list");
  auto* counts = reinterpret_cast<FrameCounts*>(block);
  auto* components = reinterpret_cast<Component*>(block + sizeof(FrameCounts));
  if (host_counts_) {
    *counts = *host_counts_;
    std::copy(host_components_, host_components_ + std::min<std::size_t>(keep, host_capacity_), components);
    cudaFreeHost(host_counts_);
  }
  host_counts_ = counts;
  host_components_ = components;
  host_capacity_ = capacity;
}

void FramePipeline::copy_components(std::uint32_t first, std::uint32_t end) {
  if (end <= first) return;
  check(cudaMemcpyAsync(host_components_ + first, scratch_.out + first, std::size_t(end - first) * sizeof(Component),
                        cudaMemcpyDeviceToHost, stream_),
        "cudaMemcpyAsync (components)");
}

void FramePipeline::label_and_analyze(const ImageView& image, const Options& options, StageTimer* timer) {
  fit(image, options);  // host comparisons only once the scratch fits
  try {
    queue_label_and_analyze(image, options, timer, stream_);
  } catch (...) {
    frame_state_dirty_ = true;
    throw;
  }
}

void FramePipeline::clear_state_left_by_a_failure() {
  if (!frame_state_dirty_ || !scratch_.arena) return;
  clear_frame_state(scratch_, stream_);
  frame_state_dirty_ = false;
}

void FramePipeline::queue_label_and_analyze(const ImageView& image, const Options& options, StageTimer* timer,
                                            cudaStream_t stream) {
  const DeviceMask mask{image.data, image.width, image.height, image.stride, options.threshold};
  if (timer) timer->start(stream);
  label_frame(mask, options, scratch_, stream, timer);
  analyze_frame(mask, options, scratch_, stream, timer);
}

// The frame's device work up to the first wait: labels, statistics, and the counts with the first
// `gathered` kept components written into the host list (with flsl-cd and flsl, the rest into the
// device list in the same gather). Queued on `stream`, or recorded there for a graph.
void FramePipeline::queue_frame(const ImageView& image, const Options& options, std::uint32_t gathered,
                                const LabelView* labels, StageTimer* timer, cudaStream_t stream) {
  const DeviceMask mask{image.data, image.width, image.height, image.stride, options.threshold};
  if (!features_at_roots(options)) {
    queue_label_and_analyze(image, options, timer, stream);
    gather_in_raster_order(mask, scratch_.labels, scratch_.analysis(), options, 0, gathered, host_list(), labels, stream,
                           timer);
    return;
  }
  // Straight from the roots into the lists: no statistics by rank in between.
  if (timer) timer->start(stream);
  label_frame(mask, options, scratch_, stream, timer);
  add_features_at_roots(mask, scratch_.labels, options.analysis == Analysis::FlslCd, scratch_.root_slots(),
                        scratch_.analysis(), stream, timer);
  gather_roots_into_lists(mask, scratch_.root_slots(), scratch_.analysis(), options.max_objects, gathered, host_list(),
                          scratch_.out, stream, timer);
  if (labels) write_label_map(mask, scratch_.labels, scratch_.analysis(), nullptr, *labels, stream, timer);
}

ImageView FramePipeline::queue_foreground(const ImageView& image, const Options& options) {
  fit(image, options);  // the mask planes, before anything is queued
  if (uses_background_model(options.foreground) && !model_) model_ = std::make_shared<CudaBackgroundModel>();
  return queue_foreground_stage(image, options, model_.get(), scratch_.foreground(), stream_);
}

void FramePipeline::submit(const ImageView& image, const Options& options, const LabelView* labels,
                           const MaskView* mask) {
  if (pending_) throw Error(Error::Kind::InvalidArgument, "submit() called twice without collect()");
  validate(image, options);
  validate(image, mask);
  if (labels && (labels->data == nullptr || labels->stride < image.width))
    throw Error(Error::Kind::InvalidArgument, "label map needs device memory and a stride of at least the width");
  Options labelled = options;
  // A frame that filters on the host is labelled and gathered as one without filters (one graph).
  const bool filter_on_host = options.order == Order::Raster && filters_area(options) &&
                              components_before_ <= kMostFilteredOnHost;
  if (filter_on_host) labelled.min_area = 0, labelled.max_area = labelled.max_objects = kUnlimited;
  ImageView labelled_image = image;
  if (foreground_stage_needed(options)) {
    // From here on the frame is the 0/1 mask plane, labelled like any plane with threshold 0.
    labelled.threshold = 0;
    labelled.foreground = Foreground::Threshold;
    labelled.open_radius = labelled.close_radius = labelled.shrink_radius = 0;
    labelled_image = queue_foreground(image, options);
  }
  frame_ = PendingFrame{labelled_image, labelled, labels ? *labels : LabelView{}, timer_, 0, MaskView{},
                        filter_on_host ? options : Options{}, filter_on_host};
  try {
    submit_frame();
    // After the labelling, so `mask` may be plane 0 itself. Without the foreground stage a frame
    // left to compaction in collect() reads plane 0 again: the 0/255 bytes binarize to the same mask
    // under the same threshold (255 > t for every t < 255; t = 255 leaves only zeros).
    if (mask)
      write_mask_bytes(DeviceMask{frame_.image.data, frame_.image.width, frame_.image.height, frame_.image.stride,
                                  frame_.options.threshold},
                       *mask, stream_, frame_.timer);
  } catch (...) {
    frame_state_dirty_ = true;  // the frame may have stopped between two kernels
    throw;
  }
  pending_ = true;
}

void FramePipeline::collect(Result& result) {
  if (!pending_) throw Error(Error::Kind::InvalidArgument, "collect() called without submit()");
  pending_ = false;
  try {
    collect_frame(result);
    components_before_ = result.n_components_total;
    if (frame_.filter_on_host) keep_in_range(frame_.asked, result);
    const MaskView& host = frame_.host_mask;
    if (host.data) {  // the mask went into the upload copy (pitch = width) in submit()
      check(cudaMemcpy2DAsync(host.data, host.stride, upload_, frame_.image.width, frame_.image.width,
                              frame_.image.height, cudaMemcpyDeviceToHost, stream_),
            "cudaMemcpy2DAsync (mask download)");
      check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (mask download)");
    }
  } catch (...) {
    frame_state_dirty_ = true;
    throw;
  }
}

// Everything up to the first wait: with keeps_without_counts(), the whole frame (gathered into the
// host list on the last frame's count, before this one's is known: one wait, not two); otherwise
// labels, statistics and the counts' copy.
void FramePipeline::submit_frame() {
  const ImageView& image = frame_.image;
  const Options& options = frame_.options;
  const LabelView* labels = frame_.labels.data ? &frame_.labels : nullptr;
  StageTimer* timer = frame_.timer;
  if (keeps_without_counts(options)) {
    fit(image, options);  // allocations first: none may happen while a graph is captured
    const std::uint32_t guess = expected_kept_ ? expected_kept_ : kFirstExpected;
    const auto expected = std::uint32_t(std::min<std::size_t>({guess, options.max_objects, scratch_.max_components}));
    frame_.expected = expected;
    grow_host_results(expected);
    const auto queue = [&](cudaStream_t stream) { queue_frame(image, options, expected, labels, timer, stream); };
    const FrameGraphKey key{image.data, image.width, image.height, image.stride, options, expected,
                            labels ? labels->data : nullptr, labels ? labels->stride : 0};
    if (timer || !use_graphs_ || !capturable(options) || !graphs_.launch(key, stream_, queue)) queue(stream_);
  } else {
    label_and_analyze(image, options, timer);
    count_in_range(scratch_.analysis(), image.height, options, stream_, timer);
    check(cudaMemcpyAsync(host_counts_, scratch_.counts, sizeof(FrameCounts), cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync (component counts)");
  }
}

void FramePipeline::collect_frame(Result& result) {
  const ImageView& image = frame_.image;
  const Options& options = frame_.options;
  const LabelView* labels = frame_.labels.data ? &frame_.labels : nullptr;
  StageTimer* timer = frame_.timer;
  const DeviceMask mask{image.data, image.width, image.height, image.stride, options.threshold};
  FrameCounts counts;
  std::uint32_t n_out = 0;
  if (keeps_without_counts(options)) {
    const std::uint32_t expected = frame_.expected;
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (frame)");
    counts = *host_counts_;
    n_out = std::min(counts.n_in_range, options.max_objects);
    if (n_out > expected) {  // more than guessed: the rest through the device list
      if (features_at_roots(options)) {  // there already, from the one gather
        grow_host_results(n_out, expected);
        copy_components(expected, n_out);
      } else {  // gathered again (all of it if the host list moves)
        const std::uint32_t from = n_out > host_capacity_ ? 0 : expected;
        grow_host_results(n_out);
        gather_in_raster_order(mask, scratch_.labels, scratch_.analysis(), options, from, n_out,
                               ComponentList{nullptr, scratch_.out}, nullptr, stream_, timer);
        copy_components(from, n_out);
      }
      mark(timer, "CopyToHost", stream_);
      check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (frame)");
    }
    expected_kept_ = next_expected(expected_kept_, n_out);
  } else {
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (labeling and analysis)");
    counts = *host_counts_;
    n_out = std::min(counts.n_in_range, options.max_objects);
    grow_host_results(n_out);
    compact(mask, scratch_.labels, scratch_.analysis(), scratch_.compaction(), options, counts, n_out,
            ComponentList{nullptr, scratch_.out}, labels, stream_, timer);
    copy_components(0, n_out);
    mark(timer, "CopyToHost", stream_);
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (compaction)");
  }

  result.width = image.width;
  result.height = image.height;
  result.connectivity = options.connectivity;
  result.n_components_total = counts.n_components;
  result.truncated = counts.n_in_range > options.max_objects;
  result.components.assign(host_components_, host_components_ + n_out);
}

void FramePipeline::submit_host(const ImageView& image, const Options& options, const MaskView* mask) {
  if (pending_) throw Error(Error::Kind::InvalidArgument, "submit() called twice without collect()");
  validate(image, options);
  validate(image, mask);
  const bool chroma = uploads_chroma(options) && image.chroma.present();
  const std::size_t luma_bytes = std::size_t(image.width) * image.height;
  const std::size_t chroma_bytes = chroma ? upload_chroma_bytes(image.width, image.height, image.chroma.step) : 0;
  reserve_upload(image.width, image.height, chroma_bytes);  // allocates only when reserve() did not cover this frame
  check(cudaMemcpy2DAsync(upload_, image.width, image.data, image.stride, image.width, image.height,
                          cudaMemcpyHostToDevice, stream_),
        "cudaMemcpy2DAsync (frame upload)");
  ImageView uploaded_image{upload_, image.width, image.height, image.width, {}};
  if (chroma) uploaded_image.chroma = upload_chroma(image, upload_ + luma_bytes, chroma_bytes / 2);
  // The mask overwrites the upload copy once the frame was read from it; collect() downloads it.
  const MaskView uploaded{upload_, image.width};
  submit(uploaded_image, options, nullptr, mask ? &uploaded : nullptr);
  if (mask) frame_.host_mask = *mask;
}

// U's rows, then V's, each as the frame lays them out (NV12's interleaved bytes copied twice, I420's
// plane once): `plane_bytes` apart from `to`, one 2D copy each on stream_.
ChromaView FramePipeline::upload_chroma(const ImageView& image, std::uint8_t* to, std::size_t plane_bytes) {
  const ChromaView& c = image.chroma;
  const std::size_t row = std::size_t(chroma_row_bytes(image.width, c.step));
  const std::uint8_t* from[2] = {c.u, c.v};
  for (int k = 0; k < 2; ++k)
    check(cudaMemcpy2DAsync(to + k * plane_bytes, row, from[k], c.stride, row, (image.height + 1) / 2,
                            cudaMemcpyHostToDevice, stream_),
          "cudaMemcpy2DAsync (chroma upload)");
  return ChromaView{to, to + plane_bytes, std::ptrdiff_t(row), c.step};
}

void FramePipeline::run_host(const ImageView& image, const Options& options, Result& result) {
  submit_host(image, options);
  collect(result);
}

}  // namespace ccl::cuda
