// The benches' input ring: NV12 buffers from a GstCudaBufferPool (or, without a CUDA context, a
// system-memory video pool), luma = the frame, chroma 128 (or a still coloured ground, for
// chroma=true), uploaded once so no timed loop uploads.
#pragma once

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

class Nv12FrameRing {
 public:
  // lumas[i]: frame i's luma, `stride` bytes per row. context nullptr: system memory. `coloured`:
  // U and V vary by a few levels from sample to sample, the same in every frame.
  Nv12FrameRing(GstCudaContext* context, int width, int height, int stride, const std::vector<const std::uint8_t*>& lumas,
                bool coloured = false) {
    gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, guint(width), guint(height));
    GST_VIDEO_INFO_FPS_N(&info) = 30;
    caps = gst_video_info_to_caps(&info);
    if (context)
      gst_caps_set_features_simple(caps, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
    pool_ = context ? gst_cuda_buffer_pool_new(context) : gst_video_buffer_pool_new();
    GstStructure* config = gst_buffer_pool_get_config(pool_);
    gst_buffer_pool_config_set_params(config, caps, guint(info.size), guint(lumas.size()), 0);
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config(pool_, config) || !gst_buffer_pool_set_active(pool_, TRUE)) fail("buffer pool");
    for (const std::uint8_t* luma : lumas) {
      GstBuffer* b = nullptr;
      if (gst_buffer_pool_acquire_buffer(pool_, &b, nullptr) != GST_FLOW_OK) fail("acquire");
      GstVideoFrame frame;
      if (!gst_video_frame_map(&frame, &info, b, GST_MAP_WRITE)) fail("map for writing");
      auto* y = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
      for (int r = 0; r < height; ++r)
        std::memcpy(y + std::size_t(r) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0), luma + std::size_t(r) * stride,
                    std::size_t(width));
      auto* uv = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1));
      const int uv_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1);
      for (int cy = 0; cy < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 1); ++cy)
        for (int cx = 0; cx < GST_VIDEO_FRAME_COMP_WIDTH(&frame, 1); ++cx) {
          uv[cy * uv_stride + 2 * cx] = std::uint8_t(coloured ? 121 + (cx * 3 + cy * 5) % 15 : 128);
          uv[cy * uv_stride + 2 * cx + 1] = std::uint8_t(coloured ? 122 + (cx * 5 + cy * 2) % 13 : 128);
        }
      gst_video_frame_unmap(&frame);
      // Map for CUDA once so the upload happens now, not inside the timed loop.
      if (context) {
        if (!gst_video_frame_map(&frame, &info, b, GstMapFlags(GST_MAP_READ | GST_MAP_CUDA))) fail("map for CUDA");
        gst_video_frame_unmap(&frame);
      }
      buffers.push_back(b);
    }
  }
  ~Nv12FrameRing() {
    for (GstBuffer* b : buffers) gst_buffer_unref(b);
    gst_buffer_pool_set_active(pool_, FALSE);
    gst_object_unref(pool_);
    gst_caps_unref(caps);
  }
  Nv12FrameRing(const Nv12FrameRing&) = delete;
  Nv12FrameRing& operator=(const Nv12FrameRing&) = delete;

  GstCaps* caps = nullptr;
  GstVideoInfo info;
  std::vector<GstBuffer*> buffers;

 private:
  [[noreturn]] static void fail(const char* what) {
    std::fprintf(stderr, "bench frame ring: %s failed\n", what);
    std::exit(1);
  }
  GstBufferPool* pool_ = nullptr;
};

}  // namespace bench
