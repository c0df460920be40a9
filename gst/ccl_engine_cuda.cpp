#include <gst/cuda/gstcudamemory.h>

#include "ccl/cuda_analyzer.hpp"
#include "ccl_debug.h"
#include "ccl_engine.h"

#define GST_CAT_DEFAULT gst_ccl_engine_cuda_debug

namespace {

// CUDA memory is read in place (the element made its context ours before the frame); system
// memory is uploaded on the engine's stream.
class CudaEngine final : public GstCclEngine {
 public:
  CudaEngine(std::unique_ptr<GstCudaCclStream> stream, std::shared_ptr<ccl::BackgroundModel> model)
      : stream_(std::move(stream)), model_(std::move(model)) {
    GstCudaCclContextScope scope(stream_->context());
    analyzer_ = std::make_unique<ccl::CudaAnalyzer>(reinterpret_cast<CUstream_st*>(stream_->handle()));
    analyzer_->set_background_model(model_);
  }
  ~CudaEngine() override {
    // The analyzer frees device memory (the last one the model's too): inside its context, before the stream goes.
    if (gst_cuda_context_push(stream_->context())) {
      map_.unmap();
      analyzer_.reset();
      model_.reset();
      gst_cuda_context_pop(nullptr);
    }
  }

  // System memory also reserves the upload copy, and a variant's options its segment arrays, so
  // the first frame does not allocate them.
  void reserve(int width, int height, bool system_memory, const ccl::Options& options) override {
    GstCudaCclContextScope scope(stream_->context());
    analyzer_->reserve(width, height, system_memory, options);
  }

  void submit(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, bool show_mask) override {
    const bool device = gst_is_cuda_memory(gst_buffer_peek_memory(buffer, 0));
    GST_TRACE("%s", device ? "labeling CUDA memory in place" : "uploading system memory");
#if GST_CHECK_VERSION(1, 24, 0)
    // Since 1.24 upstream may write the frame on its own stream; mapping does not wait for it.
    if (device) {
      GstCudaMemory* memory = GST_CUDA_MEMORY_CAST(gst_buffer_peek_memory(buffer, 0));
      if (gst_cuda_memory_get_stream(memory)) gst_cuda_memory_sync(memory);
    }
#endif
    const GstMapFlags read = show_mask ? kGstCclShowMaskMap : GST_MAP_READ;
    map_.map(buffer, info, device ? GstMapFlags(read | GST_MAP_CUDA) : read);
    map_.use([&](ccl::ImageView image) {
      GstCudaCclContextScope scope(stream_->context());
      if (options.chroma) image.chroma = map_.chroma_view();  // read by the foreground stage
      const ccl::MaskView mask = show_mask ? map_.mask_view() : ccl::MaskView{};
      const ccl::MaskView* shown = show_mask ? &mask : nullptr;
      if (device)
        analyzer_->submit(image, options, nullptr, shown);
      else
        analyzer_->submit_host(image, options, shown);
      // The other planes turn grey once the frame's chroma was read: device planes on the stream
      // after the frame's kernels, host planes in collect(), after the upload surely copied them.
      if (show_mask && device) fill_device_planes();
      fill_host_planes_ = show_mask && !device;
    });
  }

  void collect(ccl::Result& result) override {
    map_.release_after([&] {
      GstCudaCclContextScope scope(stream_->context());
      analyzer_->collect(result);
      if (fill_host_planes_) map_.fill_other_planes(kNeutralChroma);
    });
  }

  void fill_device_planes() {
    const GstCclPlane0Map::OtherPlanes other = map_.other_planes();
    for (int i = 0; i < other.n; ++i) {
      const GstCclPlane0Map::Plane& p = other.planes[i];
      analyzer_->fill_plane(p.data, p.stride, p.width_bytes, p.height, kNeutralChroma);
    }
  }

  void reset_background() override {
    GstCudaCclContextScope scope(stream_->context());
    model_->reset();
  }

 private:
  std::unique_ptr<GstCudaCclStream> stream_;
  std::unique_ptr<ccl::CudaAnalyzer> analyzer_;
  std::shared_ptr<ccl::BackgroundModel> model_;  // the analyzer's, shared with the other engines
  GstCclPlane0Map map_;
  bool fill_host_planes_ = false;  // the frame in flight shows its mask from system memory
};

}  // namespace

std::shared_ptr<ccl::BackgroundModel> gst_ccl_background_model_new_cuda(GstCudaContext* context) {
  GstCudaCclContextScope scope(context);
  return ccl::make_cuda_background_model();
}

std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cuda(std::unique_ptr<GstCudaCclStream> stream,
                                                      std::shared_ptr<ccl::BackgroundModel> model) {
  return std::make_unique<CudaEngine>(std::move(stream), std::move(model));
}
