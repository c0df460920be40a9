// The host BackgroundModel of the CPU backend: M and V bytes of one stream (and Adaptive's C), dense
// (width bytes a row), and Adaptive's per-stream state (the previous frame's R and foreground count).
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"
#include "chroma_foreground.hpp"

namespace ccl::cpu {

class CpuBackgroundModel final : public BackgroundModel {
 public:
  const char* backend_name() const override { return "cpu"; }
  void reset() override { frames_seen_ = 0; }
  std::uint64_t frames_seen() const override { return frames_seen_; }

  // Updates the model with `image` under options.foreground (Motion or Adaptive) and writes its
  // mask (0/1, width bytes a row). The first frame after a reset, or of another size, starts the
  // model and has no foreground. Callers serialise.
  void update(const ImageView& image, const Options& options, std::uint8_t* mask);

 private:
  void resize_chroma(std::size_t pixels);
  std::vector<std::uint8_t> mean_, deviation_, count_;  // M, V and C
  // Options::chroma: U_M, V_M, V_c and this frame's changed blocks, per 2x2 block (empty: no chroma
  // seen); the gap map and chroma_fill's scratch (FillScratch).
  std::vector<std::uint8_t> chroma_u_, chroma_v_, chroma_deviation_, changed_, between_, above_;
  std::vector<int> column_edge_;
  ChromaSums chroma_light_;  // the last frame's chroma sums
  int width_ = 0, height_ = 0;
  std::uint64_t frames_seen_ = 0;
  Foreground mode_ = Foreground::Motion;  // a frame of the other model's mode resets
  int relearn_ = 0;                       // R of the last frame
  std::uint64_t foreground_ = 0;          // F of the last frame
  LightSums light_;                       // the last frame's light sums
};

}  // namespace ccl::cpu
