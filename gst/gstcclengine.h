// What runs the core analyzer on a buffer: maps plane 0 in the memory the backend reads and, for
// CUDA, keeps the GstCudaContext current and owns the element's stream. The element chooses which.
#pragma once

#include <functional>
#include <memory>

#include <gst/video/video.h>

#include "ccl/types.hpp"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

class GstCclEngine {
 public:
  virtual ~GstCclEngine() = default;
  virtual const char* name() const = 0;
  // Prepares for frames of this size, in system memory when `system_memory`, labelled with
  // `options`' algorithm and analysis, so no frame allocates; throws ccl::Error.
  virtual void reserve(int width, int height, bool system_memory, const ccl::Options& options) = 0;
  // Labels plane 0 of `buffer`; false when the buffer cannot be mapped. Throws ccl::Error.
  // `while_device_works` runs at most once, on this thread, while a device labels the frame (the
  // CPU engine never calls it): work for the buffer that needs no result goes there.
  virtual bool run(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, ccl::Result& result,
                   const std::function<void()>& while_device_works = {}) = 0;
#if CCL_HAVE_CUDA
  // The context the engine works in now (it adopts upstream memory's); nullptr on the CPU.
  virtual GstCudaContext* cuda_context() const { return nullptr; }
#endif
};

std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cpu();

#if CCL_HAVE_CUDA
// Creates the stream and device scratch on `context` (takes a reference); throws ccl::Error.
std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cuda(GstCudaContext* context);
#endif
