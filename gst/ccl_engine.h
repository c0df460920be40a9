// An engine labels one frame at a time: it maps plane 0 of the buffer in the memory its backend
// reads, queues the core analyzer on it (submit) and, later, waits for the result (collect).
#pragma once

#include <memory>

#include <gst/video/video.h>

#include "ccl/analyzer.hpp"
#include "ccl/types.hpp"

#if CCL_HAVE_CUDA
#include "ccl_cuda_context.h"
#endif

class GstCclEngine {
 public:
  virtual ~GstCclEngine() = default;
  // Prepares for frames of this size, in system memory when `system_memory`, labelled with
  // `options`' algorithm and analysis, so no frame allocates; throws ccl::Error.
  virtual void reserve(int width, int height, bool system_memory, const ccl::Options& options) = 0;
  // Maps plane 0 of `buffer` (mapped until collect()) and queues its labelling. With `show_mask`
  // the frame is mapped writable and becomes the mask that is labelled (plane 0: 255 foreground,
  // 0 background; the other planes 128) by collect(). Throws ccl::Error, or GstCclFrameError when
  // the buffer does not hold the frame.
  virtual void submit(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, bool show_mask) = 0;
  // Waits for the submitted frame, fills `result` and unmaps the frame (also when it throws).
  virtual void collect(ccl::Result& result) = 0;
  // The next frame submitted to any engine starts the background model they share afresh; frames
  // submitted before keep the model they were submitted with. Throws ccl::Error.
  virtual void reset_background() = 0;
};

// Plane 0 of one frame, mapped from submit() to collect() (the other planes too, for show-mask).
// The map flags of a frame that shows its mask: written, and read first by the labelling.
constexpr std::uint8_t kNeutralChroma = 128;  // the other planes of a shown mask: grey
constexpr GstMapFlags kGstCclShowMaskMap = GstMapFlags(GST_MAP_READ | GST_MAP_WRITE);

class GstCclPlane0Map {
 public:
  GstCclPlane0Map() = default;
  GstCclPlane0Map(const GstCclPlane0Map&) = delete;
  GstCclPlane0Map& operator=(const GstCclPlane0Map&) = delete;
  ~GstCclPlane0Map() { unmap(); }
  // Throws GstCclFrameError when plane 0 lies outside `buffer` or cannot be mapped with `flags`.
  void map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags);
  void unmap();
  // Plane 0 as the destination of the mask (the frame must be mapped with GST_MAP_WRITE).
  ccl::MaskView mask_view() const;
  // U and V of a 4:2:0 frame in the memory mapped (NV12, I420...); none (u == nullptr) otherwise.
  ccl::ChromaView chroma_view() const;
  // The planes after plane 0 (chroma), as bytes: none for GRAY8.
  struct Plane {
    std::uint8_t* data;
    std::ptrdiff_t stride;
    int width_bytes;
    int height;
  };
  struct OtherPlanes {
    Plane planes[GST_VIDEO_MAX_PLANES];
    int n;
  };
  OtherPlanes other_planes() const;
  // Sets every byte of the other planes to `value` (system memory maps only).
  void fill_other_planes(std::uint8_t value) const;
  // Runs `queue` on the mapped plane 0; unmaps when it throws.
  template <typename Queue>
  void use(Queue&& queue) {
    try {
      queue(view());
    } catch (...) {
      unmap();
      throw;
    }
  }
  // Runs `wait`, then unmaps, also when it throws.
  template <typename Wait>
  void release_after(Wait&& wait) {
    try {
      wait();
    } catch (...) {
      unmap();
      throw;
    }
    unmap();
  }

 private:
  ccl::ImageView view() const;

  GstVideoFrame frame_{};
  bool mapped_ = false;
};

// `model`: the element's one background model, shared by all its engines (foreground=motion).
std::shared_ptr<ccl::BackgroundModel> gst_ccl_background_model_new_cpu();
std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cpu(std::shared_ptr<ccl::BackgroundModel> model);

#if CCL_HAVE_CUDA
// Device memory in `context`; throws ccl::Error.
std::shared_ptr<ccl::BackgroundModel> gst_ccl_background_model_new_cuda(GstCudaContext* context);
// Labels on `stream` (its context is the engine's and the model's); throws ccl::Error.
std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cuda(std::unique_ptr<GstCudaCclStream> stream,
                                                      std::shared_ptr<ccl::BackgroundModel> model);
#endif
