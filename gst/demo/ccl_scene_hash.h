// Counter-based randomness of the generated scenes: a hash of (seed, stream, indices), so any frame
// renders alone, in any order, and the same seed gives the same pixels on every platform.
#pragma once

#include <cmath>
#include <cstdint>

namespace ccl_demo {

inline std::uint64_t mix(std::uint64_t z) {  // SplitMix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline std::uint64_t hash(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0,
                          std::uint64_t d = 0) {
  std::uint64_t h = mix(seed + 0x9e3779b97f4a7c15ull);
  for (std::uint64_t v : {a, b, c, d}) h = mix(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
  return h;
}

// Uniform in [lo, hi) from the i-th draw of one hashed key.
struct Draws {
  std::uint64_t key;
  std::uint64_t i = 0;
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * double(mix(key + ++i * 0x632be59bd9b4e019ull) >> 11) / double(1ull << 53);
  }
};

inline double smooth(double t) { return t * t * (3 - 2 * t); }

// Smooth value noise in [0, 1]: random values on a lattice of `cell` pixels, interpolated. `stream`
// keeps lattices of different uses apart (the daylight scene's is 1).
inline double value_noise(std::uint64_t seed, int octave, double x, double y, double cell, std::uint64_t stream = 1) {
  const double fx = x / cell, fy = y / cell;
  const std::int64_t ix = std::int64_t(std::floor(fx)), iy = std::int64_t(std::floor(fy));
  const double tx = smooth(fx - double(ix)), ty = smooth(fy - double(iy));
  auto at = [&](std::int64_t i, std::int64_t j) {
    return double(hash(seed, stream, std::uint64_t(octave), std::uint64_t(i), std::uint64_t(j)) >> 11) /
           double(1ull << 53);
  };
  const double top = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * tx;
  const double bottom = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * tx;
  return top + (bottom - top) * ty;
}

inline int clamp_byte(int v, int lo = 0, int hi = 255) { return v < lo ? lo : v > hi ? hi : v; }

}  // namespace ccl_demo
