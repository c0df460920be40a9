// Colour test sequences (luma frames with 4:2:0 chroma) for Options::chroma, with exact content:
// a street with striped objects, shadows, a light step, a standing object and a grey night, and
// random colour frames; laid out as I420 (planes of their own) or NV12 (interleaved), padded.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"
#include "chroma_oracle.hpp"
#include "frames.hpp"

namespace colour_frames {

// One colour frame: luma with padding, chroma as I420 (planes of their own) or NV12 (interleaved).
struct ColourFrame {
  frames::Frame luma;
  oracle::Chroma chroma;
};

struct ChromaBuffer {
  std::vector<std::uint8_t> bytes;
  ccl::ChromaView view;
};

inline ChromaBuffer lay_out(const oracle::Chroma& c, bool nv12, int pad) {
  ChromaBuffer b;
  const int step = nv12 ? 2 : 1;
  const std::ptrdiff_t stride = std::ptrdiff_t(c.width) * step + pad;
  const std::size_t plane = std::size_t(stride) * c.height;
  b.bytes.assign(nv12 ? plane : 2 * plane, 0x5A);  // garbage in the padding
  std::uint8_t* u = b.bytes.data();
  std::uint8_t* v = nv12 ? u + 1 : u + plane;
  for (int cy = 0; cy < c.height; ++cy)
    for (int cx = 0; cx < c.width; ++cx) {
      u[cy * stride + cx * step] = std::uint8_t(c.at_u(cx, cy));
      v[cy * stride + cx * step] = std::uint8_t(c.at_v(cx, cy));
    }
  b.view = ccl::ChromaView{u, v, stride, step};
  return b;
}

inline int clamp_byte(long v) { return v < 0 ? 0 : v > 255 ? 255 : int(v); }

// A street in colour: a textured ground, two objects crossing with bands of the ground's grey (in
// their own colour) and a shadow each, a light step (frames 20-22), one object standing (frames
// 25-44), night (frames 46-58: grey, 0.6 contrast), sensor noise on luma.
inline std::vector<ColourFrame> street(int w, int h, int n, std::uint32_t seed, int pad) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> noise(-2, 2);
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  std::vector<ColourFrame> out;
  for (int t = 0; t < n; ++t) {
    ColourFrame f{frames::blank("street seed=" + std::to_string(seed) + " t=" + std::to_string(t), w, h, pad), {}};
    f.chroma.width = cw, f.chroma.height = ch;
    f.chroma.u.resize(std::size_t(cw) * ch), f.chroma.v.resize(f.chroma.u.size());
    std::vector<int> luma(std::size_t(w) * h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) luma[std::size_t(y) * w + x] = 60 + (x * 7 + y * 13) % 50;
    for (int cy = 0; cy < ch; ++cy)
      for (int cx = 0; cx < cw; ++cx) {
        f.chroma.u[std::size_t(cy) * cw + cx] = std::uint8_t(128 + (cx * 3 + cy * 5) % 15 - 7);
        f.chroma.v[std::size_t(cy) * cw + cx] = std::uint8_t(128 + (cx * 5 + cy * 2) % 13 - 6);
      }
    for (int k = 0; k < 2; ++k) {
      const int ow = 18 + 4 * k, oh = 10 + 2 * k, oy = k == 0 ? h / 5 : h / 2;
      const bool stands = k == 1 && t >= 25 && t < 45;
      const int ox = stands ? w / 3 : -ow + ((2 + k) * (t < 45 ? t : t - 20) + 9 * k) % (w + ow);
      for (int y = oy + oh / 2; y < std::min(h, oy + oh + oh / 2); ++y)  // the shadow, down-right
        for (int x = std::max(0, ox + ow / 2); x < std::min(w, ox + ow + ow / 2); ++x)
          luma[std::size_t(y) * w + x] = luma[std::size_t(y) * w + x] * 11 / 20;
      for (int y = std::max(0, oy); y < std::min(h, oy + oh); ++y)
        for (int x = std::max(0, ox); x < std::min(w, ox + ow); ++x) {
          const int band = (x - ox) / 4 % 3;  // the middle band of three keeps the ground's grey
          int& l = luma[std::size_t(y) * w + x];
          l = band == 1 ? 60 + (x * 7 + y * 13) % 50 + 1 : band == 0 ? 170 : 25;
          f.chroma.u[std::size_t(y / 2) * cw + x / 2] = std::uint8_t(128 + 36 - 20 * k);
          f.chroma.v[std::size_t(y / 2) * cw + x / 2] = std::uint8_t(128 - 30 + 50 * k);
        }
    }
    const double gain = t < 20 ? 1.0 : t < 23 ? 1.0 + 0.1 * (t - 19) : 1.3;
    const bool night = t >= 46 && t < 59;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double lit = night ? 0.6 * luma[std::size_t(y) * w + x] + 70 : gain * luma[std::size_t(y) * w + x];
        f.luma.at(x, y) = std::uint8_t(clamp_byte(std::lround(lit) + noise(rng)));
      }
    for (std::size_t b = 0; b < f.chroma.u.size(); ++b) {
      f.chroma.u[b] = std::uint8_t(night ? 128 : clamp_byte(std::lround(128 + gain * (f.chroma.u[b] - 128))));
      f.chroma.v[b] = std::uint8_t(night ? 128 : clamp_byte(std::lround(128 + gain * (f.chroma.v[b] - 128))));
    }
    out.push_back(std::move(f));
  }
  return out;
}

// Every pixel random every frame, luma and colour: relearning, saturation, clipped blocks.
inline std::vector<ColourFrame> random_colour(int w, int h, int n, std::uint32_t seed, int pad) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 3);
  std::vector<ColourFrame> out;
  for (int t = 0; t < n; ++t) {
    ColourFrame f{frames::blank("random colour t=" + std::to_string(t), w, h, pad), {}};
    f.chroma.width = (w + 1) / 2, f.chroma.height = (h + 1) / 2;
    const bool calm = t % 5 != 4;  // mostly small changes, every fifth frame all of it
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        f.luma.at(x, y) = std::uint8_t(calm ? clamp_byte(100 + x % 9 * 10 + (coin(rng) == 0 ? byte(rng) / 4 : 0))
                                             : byte(rng));
    for (int b = 0; b < f.chroma.width * f.chroma.height; ++b) {
      f.chroma.u.push_back(std::uint8_t(calm ? 120 + coin(rng) * (coin(rng) == 0 ? 12 : 1) : byte(rng)));
      f.chroma.v.push_back(std::uint8_t(calm ? 135 - coin(rng) * (coin(rng) == 0 ? 12 : 1) : coin(rng) * 85));
    }
    out.push_back(std::move(f));
  }
  return out;
}

// Adaptive with chroma=true and factor 3; `recipe`: with cudaccl's morphology (ccl::adaptive_recipe).
inline ccl::Options colour_options(int absorb_frames, bool recipe) {
  ccl::Options o;
  o.foreground = ccl::Foreground::Adaptive;
  o.chroma = true;
  o.absorb_frames = absorb_frames;
  o.motion_factor = 3;
  return recipe ? ccl::adaptive_recipe(o) : o;
}

// Pixels where a mask handed out through MaskView (0 / kMaskForeground) and an oracle's (0 / 1) differ.
inline int mismatches(const std::vector<std::uint8_t>& shown, const oracle::Mask& want) {
  int wrong = 0;
  for (std::size_t p = 0; p < want.size(); ++p) wrong += (shown[p] == ccl::kMaskForeground) != (want[p] != 0);
  return wrong;
}

}  // namespace colour_frames
