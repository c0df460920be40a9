#include "ccl_engine.h"

namespace {

class CpuEngine final : public GstCclEngine {
 public:
  CpuEngine() : analyzer_(ccl::make_cpu_analyzer()) {}
  void reserve(int, int, bool, const ccl::Options&) override {}
  // CUDA memory is downloaded by the plain map.
  void submit(GstBuffer* buffer, const GstVideoInfo& info, const ccl::Options& options) override {
    map_.map(buffer, info, GST_MAP_READ);
    map_.use([&](const ccl::ImageView& image) { analyzer_->submit(image, options); });
  }
  void collect(ccl::Result& result) override {
    map_.release_after([&] { analyzer_->collect(result); });
  }

 private:
  std::unique_ptr<ccl::Analyzer> analyzer_;
  GstCclPlane0Map map_;
};

}  // namespace

std::unique_ptr<GstCclEngine> gst_ccl_engine_new_cpu() { return std::make_unique<CpuEngine>(); }
