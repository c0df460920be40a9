#include "gstcclengine.h"

#include "ccl/analyzer.hpp"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "ccl/cuda_analyzer.hpp"
#endif

GST_DEBUG_CATEGORY_STATIC(gst_ccl_engine_debug);
#define GST_CAT_DEFAULT gst_ccl_engine_debug

namespace {

void ensure_debug_category() {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    GST_DEBUG_CATEGORY_INIT(gst_ccl_engine_debug, "cudacclengine", 0, "cudaccl backends");
    g_once_init_leave(&done, 1);
  }
}

// Plane 0 of a mapped frame as the core sees it.
ccl::ImageView plane0(const GstVideoFrame& frame) {
  ccl::ImageView view;
  view.data = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
  view.width = GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0);
  view.height = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 0);
  view.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
  return view;
}

// Unmaps on every exit, exceptions included. Takes no reference on the buffer (the caller holds
// one), so the buffer stays writable: metas go on while the device reads the frame.
class MappedFrame {
 public:
  MappedFrame(const GstVideoInfo& info, GstBuffer* buffer, GstMapFlags flags)
      : ok_(gst_video_frame_map(&frame_, const_cast<GstVideoInfo*>(&info), buffer,
                                GstMapFlags(flags | GST_VIDEO_FRAME_MAP_FLAG_NO_REF))) {}
  ~MappedFrame() {
    if (ok_) gst_video_frame_unmap(&frame_);
  }
  MappedFrame(const MappedFrame&) = delete;
  MappedFrame& operator=(const MappedFrame&) = delete;
  bool ok() const { return ok_; }
  const GstVideoFrame& frame() const { return frame_; }

 private:
  GstVideoFrame frame_{};
  bool ok_;
};

class CpuEngine final : public GstCclEngine {
 public:
  CpuEngine() : analyzer_(ccl::make_cpu_analyzer()) {}
  const char* name() const override { return "cpu"; }
  void reserve(int, int, bool, const ccl::Options&) override {}
  // CUDA memory is downloaded by the plain map.
  bool run(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, ccl::Result& result,
           const std::function<void()>&) override {
    MappedFrame map(info, buffer, GST_MAP_READ);
    if (!map.ok()) return false;
    analyzer_->run(plane0(map.frame()), options, result);
    return true;
  }

 private:
  std::unique_ptr<ccl::Analyzer> analyzer_;
};

#if CCL_HAVE_CUDA

// Makes `context` current for the scope; every CUDA call happens inside one.
class ContextGuard {
 public:
  explicit ContextGuard(GstCudaContext* context) {
    if (!gst_cuda_context_push(context))
      throw ccl::Error(ccl::Error::Kind::DeviceFailure, "could not make the CUDA context current");
  }
  ~ContextGuard() { gst_cuda_context_pop(nullptr); }
  ContextGuard(const ContextGuard&) = delete;
  ContextGuard& operator=(const ContextGuard&) = delete;
};

class CudaEngine final : public GstCclEngine {
 public:
  explicit CudaEngine(GstCudaContext* context) {
    try {
      bind(context);
    } catch (...) {
      unbind();
      throw;
    }
  }
  ~CudaEngine() override { unbind(); }
  const char* name() const override { return "cuda"; }
  GstCudaContext* cuda_context() const override { return context_; }

  // System memory also reserves the upload copy, and a variant's options its segment arrays, so
  // the first frame does not allocate them.
  void reserve(int width, int height, bool system_memory, const ccl::Options& options) override {
    {
      ContextGuard guard(context_);
      analyzer_->reserve(width, height, system_memory, options);
    }
    // Remembered only once reserved: a refused size must not be reserved again on adopt().
    width_ = width;
    height_ = height;
    system_memory_ = system_memory;
    options_ = options;
  }

  bool run(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, ccl::Result& result,
           const std::function<void()>& while_device_works) override {
    GstMemory* mem = gst_buffer_peek_memory(buffer, 0);
    if (gst_is_cuda_memory(mem)) {
      GstCudaContext* upstream = GST_CUDA_MEMORY_CAST(mem)->context;
      if (upstream != context_) adopt(upstream);
      require_bound();
      GST_TRACE("labeling CUDA memory in place");
      MappedFrame map(info, buffer, GstMapFlags(GST_MAP_READ | GST_MAP_CUDA));
      if (!map.ok()) return false;
      ContextGuard guard(context_);
      analyzer_->submit(plane0(map.frame()), options);
      if (while_device_works) while_device_works();
      analyzer_->collect(result);
      return true;
    }
    require_bound();
    GST_TRACE("uploading system memory");
    MappedFrame map(info, buffer, GST_MAP_READ);
    if (!map.ok()) return false;
    ContextGuard guard(context_);
    analyzer_->submit_host(plane0(map.frame()), options);
    if (while_device_works) while_device_works();
    analyzer_->collect(result);
    return true;
  }

 private:
  void bind(GstCudaContext* context) {
    context_ = static_cast<GstCudaContext*>(gst_object_ref(context));
    ContextGuard guard(context_);
    if (!gst_cuda_result(CuStreamCreate(&stream_, CU_STREAM_DEFAULT)))
      throw ccl::Error(ccl::Error::Kind::DeviceFailure, "could not create a CUDA stream");
    analyzer_ = std::make_unique<ccl::CudaAnalyzer>(reinterpret_cast<CUstream_st*>(stream_));
    if (width_ > 0) analyzer_->reserve(width_, height_, system_memory_, options_);
  }

  void unbind() {
    if (!context_) return;
    if (gst_cuda_context_push(context_)) {
      analyzer_.reset();
      if (stream_) CuStreamDestroy(stream_);
      gst_cuda_context_pop(nullptr);
    }
    stream_ = nullptr;
    gst_clear_object(&context_);
  }

  // Upstream's memory lives in another context: work there rather than copy every frame. A
  // failed bind leaves the engine unbound (the next CUDA frame tries again), never half bound.
  void adopt(GstCudaContext* upstream) {
    GST_INFO("adopting the CUDA context %" GST_PTR_FORMAT " of the upstream memory", upstream);
    GstCudaContext* keep = static_cast<GstCudaContext*>(gst_object_ref(upstream));
    unbind();
    try {
      bind(keep);
    } catch (...) {
      unbind();
      gst_object_unref(keep);
      throw;
    }
    gst_object_unref(keep);
  }

  void require_bound() const {
    if (!analyzer_)
      throw ccl::Error(ccl::Error::Kind::DeviceFailure, "the CUDA backend has no usable context after a failure");
  }

  GstCudaContext* context_ = nullptr;
  CUstream stream_ = nullptr;
  std::unique_ptr<ccl::CudaAnalyzer> analyzer_;
  int width_ = 0, height_ = 0;
  bool system_memory_ = false;
  ccl::Options options_;  // of the last reservation
};

#endif  // CCL_HAVE_CUDA

}  // namespace

std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cpu() {
  ensure_debug_category();
  return std::make_unique<CpuEngine>();
}

#if CCL_HAVE_CUDA
std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cuda(GstCudaContext* context) {
  ensure_debug_category();
  return std::make_unique<CudaEngine>(context);
}
#endif
