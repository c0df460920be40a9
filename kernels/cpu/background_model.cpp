#include "background_model.hpp"

#include <memory>

#include "foreground.hpp"

namespace ccl {
namespace cpu {

void CpuBackgroundModel::update(const ImageView& image, int factor, std::uint8_t* mask) {
  if (image.width != width_ || image.height != height_) frames_seen_ = 0;
  if (frames_seen_ == 0) {
    width_ = image.width;
    height_ = image.height;
    mean_.resize(std::size_t(width_) * height_);
    deviation_.resize(mean_.size());
    sigma_delta_start(image, mean_.data(), deviation_.data(), mask);
  } else {
    sigma_delta_step(image, factor, mean_.data(), deviation_.data(), mask);
  }
  ++frames_seen_;
}

}  // namespace cpu

std::shared_ptr<BackgroundModel> make_cpu_background_model() { return std::make_shared<cpu::CpuBackgroundModel>(); }

}  // namespace ccl
