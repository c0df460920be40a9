// One pixel of the Sigma-Delta background model (ccl/foreground.hpp), the same integer arithmetic
// as every backend, so CUDA masks are byte-identical to the CPU backend's and the oracle's.
#pragma once

#include <cstdint>

#include "ccl/foreground.hpp"

namespace ccl::cuda {

struct SigmaDeltaPixel {
  std::uint8_t m;  // background after this frame
  std::uint8_t v;  // deviation after this frame
  bool foreground;
};

// `first`: the frame after a reset initialises the model (M = I, V = floor) and is background.
__host__ __device__ inline SigmaDeltaPixel sigma_delta_step(int in, int m, int v, int factor, bool first) {
  if (first) return {std::uint8_t(in), kMotionMinDeviation, false};
  if (m < in)
    ++m;
  else if (m > in)
    --m;
  const int d = m > in ? m - in : in - m;  // taken after M moved (paper order)
  if (d != 0) {
    const int target = factor * d < 255 ? factor * d : 255;
    if (v < target)
      ++v;
    else if (v > target)
      --v;
  }
  if (v < kMotionMinDeviation) v = kMotionMinDeviation;
  if (v > kMotionMaxDeviation) v = kMotionMaxDeviation;
  return {std::uint8_t(m), std::uint8_t(v), d >= v};
}

// One pixel of Foreground::Adaptive on a frame that is not relearning (ccl/foreground.hpp);
// `slow_turn`: t % kForegroundUpdatePeriod == 0.
struct AdaptivePixel {
  std::uint8_t m, v, c;
  bool foreground;
};

__host__ __device__ inline AdaptivePixel adaptive_step(int in, int m, int v, int c, int factor, int absorb_frames,
                                                       bool slow_turn) {
  if (c >= absorb_frames) {  // foreground that long: a stopped object or a ghost joins the background
    m = in;
    c = 0;
  }
  const bool learn = c == 0 || (slow_turn && c < kStandingFrames);  // a standing pixel waits for absorption
  if (learn) m += (m < in) - (m > in);
  const int d = m > in ? m - in : in - m;
  if (learn && d != 0) {
    const int target = factor * d < 255 ? factor * d : 255;
    v += (v < target) - (v > target);
  }
  if (v < kMotionMinDeviation) v = kMotionMinDeviation;
  const bool fg = d >= v;
  return {std::uint8_t(m), std::uint8_t(v), std::uint8_t(fg ? (c < 255 ? c + 1 : 255) : 0), fg};
}

}  // namespace ccl::cuda
