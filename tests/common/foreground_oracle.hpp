// The foreground oracle: the Sigma-Delta model and the clipped-square morphology of
// ccl/foreground.hpp written as plain loops for the tests (brute-force windows, no separable
// passes), sharing no code with any backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ccl/types.hpp"
#include "frames.hpp"

namespace oracle {

// Mask bytes are 0 or 1, width*height, no padding.
using Mask = std::vector<std::uint8_t>;

class SigmaDelta {
 public:
  // The mask of `f` under the model, updating it; the first frame (or one of another size) resets.
  Mask next(const frames::Frame& f, int factor) {
    const int w = f.width, h = f.height;
    Mask fg(std::size_t(w) * h, 0);
    const bool first = !started_ || w != width_ || h != height_;
    if (first) {
      width_ = w; height_ = h; started_ = true;
      m_.assign(fg.size(), 0);
      v_.assign(fg.size(), 2);
    }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        const int in = f.at(x, y);
        int m = m_[i], v = v_[i];
        if (first) {
          m = in;
          v = 2;
        } else {
          if (m < in) m = m + 1;
          else if (m > in) m = m - 1;
          const int d = m > in ? m - in : in - m;
          if (d != 0) {
            const int target = std::min(factor * d, 255);
            if (v < target) v = v + 1;
            else if (v > target) v = v - 1;
          }
          if (v < 2) v = 2;
          if (v > 255) v = 255;
          fg[i] = d >= v ? 1 : 0;
        }
        m_[i] = std::uint8_t(m);
        v_[i] = std::uint8_t(v);
      }
    return fg;
  }
  void reset() { started_ = false; }

 private:
  bool started_ = false;
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> m_, v_;
};

inline Mask threshold_mask(const frames::Frame& f, std::uint8_t threshold) {
  Mask fg(std::size_t(f.width) * f.height);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) fg[std::size_t(y) * f.width + x] = f.at(x, y) > threshold ? 1 : 0;
  return fg;
}

// Erosion (want = 1: every pixel of the clipped window is set) or dilation (want = 0 inverted:
// any pixel of the window is set), by looking at the whole window.
inline Mask square_filter(const Mask& in, int w, int h, int r, bool erode) {
  Mask out(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool all = true, any = false;
      for (int yy = std::max(0, y - r); yy <= std::min(h - 1, y + r); ++yy)
        for (int xx = std::max(0, x - r); xx <= std::min(w - 1, x + r); ++xx) {
          const bool on = in[std::size_t(yy) * w + xx] != 0;
          all = all && on;
          any = any || on;
        }
      out[std::size_t(y) * w + x] = (erode ? all : any) ? 1 : 0;
    }
  return out;
}

inline Mask open_close(Mask m, int w, int h, int open_radius, int close_radius) {
  if (open_radius > 0) m = square_filter(square_filter(m, w, h, open_radius, true), w, h, open_radius, false);
  if (close_radius > 0) m = square_filter(square_filter(m, w, h, close_radius, false), w, h, close_radius, true);
  return m;
}

// A frame whose pixels are the mask (0 or 255), so the labelling oracle can be run on it.
inline frames::Frame mask_frame(const Mask& m, int w, int h) {
  frames::Frame f = frames::blank("mask", w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = m[std::size_t(y) * w + x] ? 255 : 0;
  return f;
}

}  // namespace oracle
