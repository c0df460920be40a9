// The CPU backend's Foreground::Adaptive per-pixel passes (ccl/foreground.hpp): the selective
// Sigma-Delta with absorption and light relearning, the same integer arithmetic as every backend.
#pragma once

#include <cstdint>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl::cpu {

// The model's planes, width*height bytes each, no padding.
struct AdaptivePlanes {
  std::uint8_t* mean;       // M
  std::uint8_t* deviation;  // V
  std::uint8_t* count;      // C: frames in a row the pixel was foreground
};

// Every pass writes the 0/1 mask and returns the frame's light sums (I with the M written).

// The frame after a reset: M = I, V = floor, C = 0, no foreground.
LightSums adaptive_start(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask);

// A relearning frame: M = fit(M), C = 0, no foreground, V kept.
LightSums adaptive_relearn(const ImageView& image, const LightFit& fit, const AdaptivePlanes& planes,
                           std::uint8_t* mask);

// Frame `frame_index` (> 0) of the stream, not relearning; `foreground` receives F.
LightSums adaptive_step(const ImageView& image, int factor, int absorb_frames, std::uint64_t frame_index,
                        const AdaptivePlanes& planes, std::uint8_t* mask, std::uint64_t& foreground);

}  // namespace ccl::cpu
