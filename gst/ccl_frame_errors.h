// Labelling failures in sentences a user understands, posted as element errors.
#pragma once

#include <exception>

#include <gst/video/video.h>

// A buffer that does not hold the frame its caps announce.
struct GstCclFrameError {
  enum class Kind { TooShort, Unreadable } kind;
  gsize need, have;  // bytes plane 0 needs and the buffer has
};

// Posts what `failure` (a ccl::Error, GstCclFrameError or std::bad_alloc) means for a frame of
// `info`; `frame` counts from 1, 0 while preparing for new caps.
void gst_cuda_ccl_post_error(GstElement* element, std::exception_ptr failure, const GstVideoInfo& info,
                             guint64 frame, GstBuffer* buffer = nullptr);
