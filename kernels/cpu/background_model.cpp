#include "background_model.hpp"

#include <memory>

#include "adaptive_foreground.hpp"
#include "foreground.hpp"

namespace ccl {
namespace cpu {

void CpuBackgroundModel::update(const ImageView& image, const Options& options, std::uint8_t* mask) {
  if (image.width != width_ || image.height != height_ || options.foreground != mode_) frames_seen_ = 0;
  const bool first = frames_seen_ == 0;
  if (first) {
    width_ = image.width;
    height_ = image.height;
    mode_ = options.foreground;
    mean_.resize(std::size_t(width_) * height_);
    deviation_.resize(mean_.size());
    relearn_ = 0;
    foreground_ = 0;
  }
  if (options.foreground == Foreground::Adaptive) {
    count_.resize(mean_.size());
    const AdaptivePlanes planes{mean_.data(), deviation_.data(), count_.data()};
    if (first) {
      light_ = adaptive_start(image, planes, mask);
    } else {
      relearn_ = next_relearn_frames(relearn_, foreground_, mean_.size());
      if (relearn_ > 0) {
        light_ = adaptive_relearn(image, fit_light(light_, mean_.size()), planes, mask);
        foreground_ = 0;
      } else {
        light_ = adaptive_step(image, options.motion_factor, options.absorb_frames, frames_seen_, planes, mask,
                               foreground_);
      }
    }
  } else if (first) {
    sigma_delta_start(image, mean_.data(), deviation_.data(), mask);
  } else {
    sigma_delta_step(image, options.motion_factor, mean_.data(), deviation_.data(), mask);
  }
  ++frames_seen_;
}

}  // namespace cpu

std::shared_ptr<BackgroundModel> make_cpu_background_model() { return std::make_shared<cpu::CpuBackgroundModel>(); }

}  // namespace ccl
