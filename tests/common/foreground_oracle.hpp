// The foreground oracle: the Sigma-Delta model and the clipped-square morphology of
// ccl/foreground.hpp written as plain loops for the tests (brute-force windows, no separable
// passes), sharing no code with any backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "ccl/types.hpp"
#include "frames.hpp"

namespace oracle {

// Mask bytes are 0 or 1, width*height, no padding.
using Mask = std::vector<std::uint8_t>;

// The sums of a frame's (M, I) pairs, and the least-squares line of I on M they give, in fixed point
// (Q8 means and moments, Q16 gain and offset): the adaptive model's light fit, luma's and chroma's.
struct LightMoments {
  std::int64_t m = 0, i = 0, mm = 0, mi = 0;
  void add(std::int64_t in, std::int64_t mean) { m += mean, i += in, mm += mean * mean, mi += mean * in; }
  // The variance of M over n pairs, Q8.
  std::int64_t variance(std::int64_t n) const { return mm * 256 / n - (m * 256 / n) * (m * 256 / n) / 256; }
};

struct LightLine {
  std::int64_t gain = 65536, offset = 0;
  int at(int m) const {
    const std::int64_t v = gain * m + offset + 32768;
    return v < 0 ? 0 : int(std::min<std::int64_t>(v / 65536, 255));
  }
};

inline LightLine fit_line(const LightMoments& s, std::int64_t n) {
  const std::int64_t mm = s.m * 256 / n, mi = s.i * 256 / n;
  const std::int64_t var = s.variance(n), cov = s.mi * 256 / n - mm * mi / 256;
  LightLine l;
  l.gain = var > 256 ? cov * 65536 / var : 65536;
  l.gain = std::min<std::int64_t>(std::max<std::int64_t>(l.gain, 0), 4 * 65536);
  l.offset = mi * 256 - l.gain * mm / 256;
  return l;
}

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

// Foreground::Adaptive as ccl/foreground.hpp words it, pixel by pixel with plain branches.
class Adaptive {
 public:
  Mask next(const frames::Frame& f, int factor, int absorb_frames) {
    const int w = f.width, h = f.height;
    Mask fg(std::size_t(w) * h, 0);
    const bool first = !started_ || w != width_ || h != height_;
    if (first) {
      width_ = w; height_ = h; started_ = true; t_ = 0; relearn_ = 0; last_count_ = 0;
      m_.assign(fg.size(), 0);
      v_.assign(fg.size(), 2);
      c_.assign(fg.size(), 0);
    } else {
      ++t_;
      if (relearn_ > 0) relearn_ = relearn_ - 1;
      else if (8 * last_count_ > 3 * fg.size()) relearn_ = 4;  // more than 3/8 of the frame: relearn 4 frames
    }
    std::size_t count = 0;
    if (!first && relearn_ > 0) line_ = fit_line(moments_, std::int64_t(fg.size()));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        const int in = f.at(x, y);
        if (first) {
          m_[i] = std::uint8_t(in); v_[i] = 2; c_[i] = 0;
          continue;
        }
        if (relearn_ > 0) {  // the background follows the previous frame's light fit
          m_[i] = std::uint8_t(line_.at(m_[i]));
          c_[i] = 0;
          continue;
        }
        int m = m_[i], v = v_[i], c = c_[i];
        if (c >= absorb_frames) { m = in; c = 0; }
        const bool learn = c == 0 || (t_ % 16 == 0 && c < 32);  // past 32 frames in a row it stands
        if (learn) {
          if (m < in) m = m + 1;
          else if (m > in) m = m - 1;
        }
        const int d = m > in ? m - in : in - m;
        if (learn && d != 0) {
          const int target = std::min(factor * d, 255);
          if (v < target) v = v + 1;
          else if (v > target) v = v - 1;
        }
        if (v < 2) v = 2;
        const bool on = d >= v;
        c = on ? std::min(c + 1, 255) : 0;
        fg[i] = on ? 1 : 0;
        count += on ? 1 : 0;
        m_[i] = std::uint8_t(m); v_[i] = std::uint8_t(v); c_[i] = std::uint8_t(c);
      }
    last_count_ = count;
    moments_ = LightMoments{};  // this frame's I with the M it wrote, for the next frame's fit
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) moments_.add(f.at(x, y), m_[std::size_t(y) * w + x]);
    return fg;
  }
  void reset() { started_ = false; }
  // After next(): the M and C it wrote, whether it relearnt, and t.
  const std::vector<std::uint8_t>& mean() const { return m_; }
  const std::vector<std::uint8_t>& count() const { return c_; }
  bool relearnt() const { return relearn_ > 0; }
  unsigned long long frame_index() const { return t_; }

 private:
  LightMoments moments_;
  LightLine line_;

  bool started_ = false;
  int width_ = 0, height_ = 0;
  unsigned long long t_ = 0;
  int relearn_ = 0;
  std::size_t last_count_ = 0;
  std::vector<std::uint8_t> m_, v_, c_;
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

// Opening, closing, then erosion by `shrink_radius`, as every mode ends.
inline Mask clean_up(Mask m, int w, int h, int open_radius, int close_radius, int shrink_radius) {
  m = open_close(std::move(m), w, h, open_radius, close_radius);
  if (shrink_radius > 0) m = square_filter(m, w, h, shrink_radius, true);
  return m;
}

// One stream's mask as a foreground mode makes it (`o` as the analyzer receives it, any recipe
// already applied): the mode's model or the threshold, then the clean-up.
struct Models {
  SigmaDelta motion;
  Adaptive adaptive;
  Mask next(const frames::Frame& f, const ccl::Options& o) {
    Mask m = o.foreground == ccl::Foreground::Motion     ? motion.next(f, o.motion_factor)
             : o.foreground == ccl::Foreground::Adaptive ? adaptive.next(f, o.motion_factor, o.absorb_frames)
                                                         : threshold_mask(f, o.threshold);
    return clean_up(std::move(m), f.width, f.height, o.open_radius, o.close_radius, o.shrink_radius);
  }
  void reset() {
    motion.reset();
    adaptive.reset();
  }
};

// A frame whose pixels are the mask (0 or 255), so the labelling oracle can be run on it.
inline frames::Frame mask_frame(const Mask& m, int w, int h) {
  frames::Frame f = frames::blank("mask", w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = m[std::size_t(y) * w + x] ? 255 : 0;
  return f;
}

}  // namespace oracle
