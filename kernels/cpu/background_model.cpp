#include "background_model.hpp"

#include <memory>

#include "adaptive_foreground.hpp"
#include "foreground.hpp"
#include "shadow_foreground.hpp"

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
    const bool shadow = options.shadow && image.chroma.present();
    const std::size_t chroma_size = std::size_t((width_ + 1) / 2) * ((height_ + 1) / 2);
    if (shadow && (first || chroma_u_.size() != chroma_size)) {  // chroma appears: its model starts here
      chroma_u_.resize(chroma_size);
      chroma_v_.resize(chroma_size);
      chroma_start(image, ChromaPlanes{chroma_u_.data(), chroma_v_.data()});
    } else if (!shadow) {
      chroma_u_.clear();
      chroma_v_.clear();
    }
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
        if (shadow) {
          const ChromaPlanes chroma{chroma_u_.data(), chroma_v_.data()};
          suppress_shadows(image, ShadowRule{}, mean_.data(), chroma, mask);
          chroma_step(image, count_.data(), chroma);
        }
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
