// A deterministic synthetic daylight-like luma sequence for the foreground benchmark: a textured
// static background around mid-grey, per-frame sensor noise, a slow global illumination drift,
// and a few dozen textured objects moving across it whose brightness overlaps the background's.
// Frame i depends only on (width, height, i, seed), so frames are generated in parallel and every
// run produces the same bytes. Independent of cclblobsrc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

struct DaylightSequence {
  int width = 0, height = 0;
  std::size_t stride = 0;                         // bytes per row (= width)
  std::vector<std::vector<std::uint8_t>> frames;  // K distinct consecutive frames, luma only
};

struct DaylightParams {
  int objects = 40;              // moving objects ("a few dozen")
  double noise_sigma = 3.0;      // per-frame noise, grey levels (approximately Gaussian)
  double drift_amplitude = 6.0;  // illumination drift, grey levels peak, period drift_period frames
  double drift_period = 240.0;
  std::uint32_t seed = 2026;
};

// Frames 0..k-1 of the scene, generated with up to `threads` host threads.
DaylightSequence make_daylight_sequence(int width, int height, int k, const DaylightParams& params = {},
                                        int threads = 1);

// Ping-pong order over a ring of k frames: 0, 1, ..., k-1, k-2, ..., 1, 0, 1, ... so the motion
// stays continuous when the ring wraps (the objects reverse instead of jumping).
inline std::size_t ping_pong(std::size_t i, std::size_t k) {
  if (k < 2) return 0;
  const std::size_t period = 2 * k - 2, p = i % period;
  return p < k ? p : period - p;
}

}  // namespace bench
