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
    const bool chroma = options.chroma && image.chroma.present();
    const bool chroma_starts = chroma && (first || chroma_u_.empty());
    if (chroma_starts) resize_chroma(mean_.size());
    if (!chroma) resize_chroma(0);
    const ChromaPlanes chroma_planes{chroma_u_.data(), chroma_v_.data(), chroma_deviation_.data()};
    if (chroma_starts) chroma_light_ = chroma_start(image, chroma_planes);
    if (first) {
      light_ = adaptive_start(image, planes, mask);
    } else {
      relearn_ = next_relearn_frames(relearn_, foreground_, mean_.size());
      const std::uint64_t blocks = chroma_u_.size();
      if (relearn_ > 0) {
        light_ = adaptive_relearn(image, fit_light(light_, mean_.size()), planes, mask);
        if (chroma && !chroma_starts)
          chroma_light_ = chroma_relearn(image, fit_light(chroma_light_.u, blocks), fit_light(chroma_light_.v, blocks),
                                         chroma_planes);
        foreground_ = 0;
      } else if (!chroma || chroma_starts) {
        light_ = adaptive_step(image, options.motion_factor, options.absorb_frames, frames_seen_, planes, mask,
                               foreground_);
      } else {
        chroma_changes(image, count_.data(), options.absorb_frames, chroma_planes, changed_.data());
        light_ = adaptive_step(image, options.motion_factor, options.absorb_frames, frames_seen_, planes, mask,
                               foreground_);
        chroma_fill(image, changed_.data(), between_.data(), FillScratch{above_.data(), column_edge_.data()}, mask);
        if (has_colour(chroma_light_.u, chroma_light_.v, blocks)) suppress_shadows(image, mean_.data(), chroma_planes, mask);
        chroma_light_ = chroma_step(image, count_.data(), between_.data(),
                                    frames_seen_ % kForegroundUpdatePeriod == 0, chroma_planes);
      }
    }
  } else if (first) {
    sigma_delta_start(image, mean_.data(), deviation_.data(), mask);
  } else {
    sigma_delta_step(image, options.motion_factor, mean_.data(), deviation_.data(), mask);
  }
  ++frames_seen_;
}

// The chroma planes for a frame of `pixels` luma pixels, or none (0).
void CpuBackgroundModel::resize_chroma(std::size_t pixels) {
  const std::size_t blocks = pixels ? std::size_t((width_ + 1) / 2) * ((height_ + 1) / 2) : 0;
  for (auto* plane : {&chroma_u_, &chroma_v_, &chroma_deviation_, &changed_}) plane->resize(blocks);
  between_.resize(pixels);
  above_.resize(pixels);
  column_edge_.resize(pixels ? std::size_t(width_) : 0);
}

}  // namespace cpu

std::shared_ptr<BackgroundModel> make_cpu_background_model() { return std::make_shared<cpu::CpuBackgroundModel>(); }

}  // namespace ccl
