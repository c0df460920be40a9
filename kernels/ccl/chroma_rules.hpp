// Options::chroma's per-block and per-pixel rules (ccl/foreground.hpp, steps 2, 5 and 6), shared by
// the CPU and CUDA backends so both compute the same bytes from the same integers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl {

CCL_FOREGROUND_HOST_DEVICE inline int level_distance(int a, int b) { return a > b ? a - b : b - a; }

// Where sample (cx, cy) of one of a frame's chroma planes (c.u or c.v) lies, and its value.
CCL_FOREGROUND_HOST_DEVICE inline const std::uint8_t* chroma_sample_at(const std::uint8_t* plane, const ChromaView& c,
                                                                       int cx, int cy) {
  return plane + std::ptrdiff_t(cy) * c.stride + std::ptrdiff_t(cx) * c.step;
}
CCL_FOREGROUND_HOST_DEVICE inline int chroma_sample(const std::uint8_t* plane, const ChromaView& c, int cx, int cy) {
  return *chroma_sample_at(plane, c, cx, cy);
}

// Step 2: the block's colour strays from its background.
CCL_FOREGROUND_HOST_DEVICE inline bool chroma_changed(int u, int v, int mean_u, int mean_v, int deviation) {
  const int du = level_distance(u, mean_u), dv = level_distance(v, mean_v);
  return (du > dv ? du : dv) >= deviation;
}

// Step 5's first two tests: 6/16..15/16 of the background's light, and its colour within kShadowChroma.
CCL_FOREGROUND_HOST_DEVICE inline bool shadow_light(int in, int mean) {
  return in < mean && 16 * in >= kShadowRatioLow * mean && 16 * in <= kShadowRatioHigh * mean;
}
CCL_FOREGROUND_HOST_DEVICE inline bool shadow_colour(int u, int v, int mean_u, int mean_v) {
  return level_distance(u, mean_u) <= kShadowChroma && level_distance(v, mean_v) <= kShadowChroma;
}

// Step 5's texture: the window's luma proportional to its background, sum |I SM - M SI| <= tau n SM
// over the (2 kShadowRadius + 1)^2 window around (x, y) clipped to the width x height frame.
// in(x, y) and mean(x, y) read I and M.
// In 32 bits: a residual is at most 255 * 25 * 255 and the sum 25 of them (asserted below).
template <typename In, typename Mean>
CCL_FOREGROUND_HOST_DEVICE bool shadow_texture(int x, int y, int width, int height, In in, Mean mean) {
  constexpr int r = kShadowRadius, side = 2 * r + 1;
  static_assert(std::int64_t(side) * side * 255 * side * side * 255 * (kShadowTexture + 1) < (std::int64_t(1) << 31),
                "the texture sums fit 32 bits");
  const int x0 = x - r < 0 ? 0 : x - r, x1 = x + r >= width ? width - 1 : x + r;
  const int y0 = y - r < 0 ? 0 : y - r, y1 = y + r >= height ? height - 1 : y + r;
  std::int32_t n = 0, si = 0, sm = 0;
  for (int v = y0; v <= y1; ++v)
    for (int u = x0; u <= x1; ++u) ++n, si += in(u, v), sm += mean(u, v);
  std::int32_t e = 0;
  for (int v = y0; v <= y1; ++v)
    for (int u = x0; u <= x1; ++u) {
      const std::int32_t d = in(u, v) * sm - mean(u, v) * si;
      e += d < 0 ? -d : d;
    }
  return e <= kShadowTexture * n * sm;
}

// Step 6 for one block: U_M, V_M move a level towards U, V where `learn`; V_c follows kChromaFactor
// D_c up to the ceiling, never below the floor, wherever D_c != 0.
CCL_FOREGROUND_HOST_DEVICE inline void chroma_learn(std::uint8_t& mean_u, std::uint8_t& mean_v,
                                                    std::uint8_t& deviation, int u, int v, bool learn) {
  if (learn) {
    mean_u = std::uint8_t(mean_u + (mean_u < u) - (mean_u > u));
    mean_v = std::uint8_t(mean_v + (mean_v < v) - (mean_v > v));
  }
  const int du = level_distance(u, mean_u), dv = level_distance(v, mean_v), d = du > dv ? du : dv;
  if (d == 0) return;
  const int target = kChromaFactor * d < kChromaMaxDeviation ? kChromaFactor * d : kChromaMaxDeviation;
  const int next = deviation + (deviation < target) - (deviation > target);
  deviation = std::uint8_t(next < kChromaMinDeviation ? kChromaMinDeviation : next);
}

}  // namespace ccl
