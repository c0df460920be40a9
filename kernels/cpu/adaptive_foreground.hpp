// The CPU backend's Foreground::Adaptive per-pixel step (ccl/foreground.hpp): the selective
// Sigma-Delta with absorption, the same integer arithmetic as every backend.
#pragma once

#include <cstdint>

#include "ccl/types.hpp"

namespace ccl::cpu {

// The model's planes, width*height bytes each, no padding.
struct AdaptivePlanes {
  std::uint8_t* mean;       // M
  std::uint8_t* deviation;  // V
  std::uint8_t* count;      // C: frames in a row the pixel was foreground
};

// The frame after a reset: M = I, V = floor, C = 0, no foreground.
void adaptive_start(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask);

// Frame `frame_index` (> 0) of the stream, not relearning: updates the planes, writes the 0/1
// mask and returns its foreground count (before morphology).
std::uint64_t adaptive_step(const ImageView& image, int factor, int absorb_frames, std::uint64_t frame_index,
                            const AdaptivePlanes& planes, std::uint8_t* mask);

// A relearning frame: M = I, C = 0, no foreground, V kept.
void adaptive_relearn(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask);

}  // namespace ccl::cpu
