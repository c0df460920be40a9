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

}  // namespace ccl::cuda
