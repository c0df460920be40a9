#include "ccl_engine.h"

namespace {

class CpuEngine final : public GstCclEngine {
 public:
  explicit CpuEngine(std::shared_ptr<ccl::BackgroundModel> model)
      : analyzer_(ccl::make_cpu_analyzer()), model_(std::move(model)) {
    analyzer_->set_background_model(model_);
  }
  void reserve(int, int, bool, const ccl::Options&) override {}
  // CUDA memory is downloaded by the plain map (and uploaded again at the unmap when written).
  void submit(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options, bool show_mask) override {
    map_.map(buffer, info, show_mask ? kGstCclShowMaskMap : GST_MAP_READ);
    map_.use([&](ccl::ImageView image) {
      if (options.chroma) image.chroma = map_.chroma_view();  // read by the foreground stage in submit()
      if (!show_mask) return analyzer_->submit(image, options);
      const ccl::MaskView mask = map_.mask_view();
      analyzer_->submit(image, options, nullptr, &mask);
      map_.fill_other_planes(kNeutralChroma);  // after submit(): the CPU foreground has read the chroma
    });
  }
  void collect(ccl::Result& result) override {
    map_.release_after([&] { analyzer_->collect(result); });
  }
  void reset_background() override { model_->reset(); }

 private:
  std::unique_ptr<ccl::Analyzer> analyzer_;
  std::shared_ptr<ccl::BackgroundModel> model_;  // the analyzer's, shared with the other engines
  GstCclPlane0Map map_;
};

}  // namespace

std::shared_ptr<ccl::BackgroundModel> gst_ccl_background_model_new_cpu() { return ccl::make_cpu_background_model(); }

std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cpu(std::shared_ptr<ccl::BackgroundModel> model) {
  return std::make_unique<CpuEngine>(std::move(model));
}
