#include "ccl_frame_errors.h"

#include <new>

#include "ccl/types.hpp"

static void post_core_error(GstElement* self, const ccl::Error& e, int w, int h, guint64 frame) {
  const char* cause = *e.cause() ? e.cause() : e.what();
  switch (e.kind()) {
    case ccl::Error::Kind::OutOfMemory:
      GST_ELEMENT_ERROR(self, RESOURCE, NO_SPACE_LEFT, ("Out of device memory for a %dx%d frame.", w, h),
                        ("%s", e.what()));
      break;
    case ccl::Error::Kind::NoDevice:
      GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("No usable CUDA device for a %dx%d frame.", w, h),
                        ("%s", e.what()));
      break;
    case ccl::Error::Kind::DeviceFailure:
      if (frame)
        GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                          ("CUDA failed while labeling frame %" G_GUINT64_FORMAT " (%dx%d): %s.", frame, w, h, cause),
                          ("%s", e.what()));
      else
        GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("CUDA failed while preparing for %dx%d frames: %s.", w, h, cause),
                          ("%s", e.what()));
      break;
    case ccl::Error::Kind::InvalidArgument:
      GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("Cannot label a %dx%d frame: %s.", w, h, e.what()), (nullptr));
      break;
  }
}

void gst_cuda_ccl_post_error(GstElement* self, std::exception_ptr failure, const GstVideoInfo& info, guint64 frame,
                             GstBuffer* buffer) {
  const int w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
  try {
    std::rethrow_exception(failure);
  } catch (const ccl::Error& e) {
    post_core_error(self, e, w, h, frame);
  } catch (const GstCclFrameError& e) {
    if (e.kind == GstCclFrameError::Kind::TooShort)
      GST_ELEMENT_ERROR(self, STREAM, FORMAT,
                        ("A %dx%d %s frame needs %" G_GSIZE_FORMAT " bytes but the buffer has only %" G_GSIZE_FORMAT
                         ".",
                         w, h, GST_VIDEO_INFO_NAME(&info), e.need, e.have),
                        ("%" GST_PTR_FORMAT, buffer));
    else
      GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Could not read the frame."),
                        ("failed to map plane 0 of %" GST_PTR_FORMAT, buffer));
  } catch (const std::bad_alloc&) {
    GST_ELEMENT_ERROR(self, RESOURCE, NO_SPACE_LEFT, ("Out of host memory for a %dx%d frame.", w, h), (nullptr));
  } catch (...) {
    GST_ELEMENT_ERROR(self, LIBRARY, FAILED, (nullptr), ("unexpected failure labeling a %dx%d frame", w, h));
  }
}
