// The formats cudaccl accepts: those whose plane 0 is a full-size 8-bit plane (the mask).
#pragma once

#include <gst/video/video.h>

#include "ccl/types.hpp"

// GStreamer 1.22's CUDA allocator has no GRAY8, so CUDA memory carries the YUV formats only.
#define GST_CUDA_CCL_YUV_FORMATS "{ NV12, NV21, I420, YV12, Y42B, Y444 }"
#define GST_CUDA_CCL_SYSTEM_FORMATS "{ GRAY8, NV12, NV21, I420, YV12, Y42B, Y444 }"

// Sides up to ccl::kMaxSide keep pixel indices in 32 bits.
#define GST_CUDA_CCL_SIZE_RANGE "(int) [ 1, 65535 ]"
static_assert(ccl::kMaxSide == 65535, "GST_CUDA_CCL_SIZE_RANGE must follow ccl::kMaxSide");

// Whether `f` is 8-bit YUV with 4:2:0 U and V (NV12, NV21, I420, YV12): the planes chroma=true reads.
inline bool gst_ccl_format_has_420_chroma(const GstVideoFormatInfo* f) {
  if (!GST_VIDEO_FORMAT_INFO_IS_YUV(f) || GST_VIDEO_FORMAT_INFO_N_COMPONENTS(f) < 3) return false;
  for (int c = 1; c <= 2; ++c)
    if (GST_VIDEO_FORMAT_INFO_W_SUB(f, c) != 1 || GST_VIDEO_FORMAT_INFO_H_SUB(f, c) != 1 ||
        GST_VIDEO_FORMAT_INFO_DEPTH(f, c) != 8)
      return false;
  return true;
}

#define GST_CUDA_CCL_CAPS_FOR(features, formats)                                         \
  "video/x-raw" features ", format = (string) " formats ", width = " GST_CUDA_CCL_SIZE_RANGE \
  ", height = " GST_CUDA_CCL_SIZE_RANGE ", framerate = " GST_VIDEO_FPS_RANGE

#if CCL_HAVE_CUDA
#define GST_CUDA_CCL_CAPS                                                            \
  GST_CUDA_CCL_CAPS_FOR("(memory:CUDAMemory)", GST_CUDA_CCL_YUV_FORMATS) "; "        \
  GST_CUDA_CCL_CAPS_FOR("", GST_CUDA_CCL_SYSTEM_FORMATS)
#else
#define GST_CUDA_CCL_CAPS GST_CUDA_CCL_CAPS_FOR("", GST_CUDA_CCL_SYSTEM_FORMATS)
#endif
