// The oracle of Options::chroma: ccl/foreground.hpp's colour passes written as plain loops with
// brute-force windows (the gap by looking along the row and the column, the texture by summing the
// window), beside oracle::Adaptive for the luma. Shares no code with any backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "foreground_oracle.hpp"

namespace oracle {

// One U and one V byte per 2x2 block, (width+1)/2 a row, no padding.
struct Chroma {
  int width = 0, height = 0;  // in blocks
  std::vector<std::uint8_t> u, v;
  int at_u(int cx, int cy) const { return u[std::size_t(cy) * width + cx]; }
  int at_v(int cx, int cy) const { return v[std::size_t(cy) * width + cx]; }
};

class AdaptiveChroma {
 public:
  // The raw mask (before morphology) of `f` with its chroma `c`, updating both models.
  Mask next(const frames::Frame& f, const Chroma& c, int factor, int absorb_frames) {
    const int w = f.width, h = f.height;
    const bool first = !started_ || w != width_ || h != height_;
    const std::vector<std::uint8_t> count_before = first ? std::vector<std::uint8_t>() : luma_.count();
    Mask fg = luma_.next(f, factor, absorb_frames);
    if (first) {
      started_ = true, width_ = w, height_ = h;
      um_ = c.u, vm_ = c.v;
      vc_.assign(c.u.size(), 7);
      sums(c);
      return fg;
    }
    if (luma_.relearnt()) {
      const std::int64_t n = std::int64_t(um_.size());
      const LightLine lu = fit_line(su_, n), lv = fit_line(sv_, n);
      for (std::size_t b = 0; b < um_.size(); ++b) um_[b] = std::uint8_t(lu.at(um_[b])), vm_[b] = std::uint8_t(lv.at(vm_[b]));
      sums(c);
      return fg;
    }
    const Mask luma = fg;
    auto block_of = [&](int x, int y) { return std::size_t(y / 2) * c.width + x / 2; };
    // 1. absorb: a block with a pixel whose C (as the previous frame left it) reached A.
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (count_before[std::size_t(y) * w + x] >= absorb_frames) {
          um_[block_of(x, y)] = c.u[block_of(x, y)];
          vm_[block_of(x, y)] = c.v[block_of(x, y)];
        }
    // 2. changed blocks.
    std::vector<bool> changed(um_.size());
    for (std::size_t b = 0; b < um_.size(); ++b)
      changed[b] = std::max(std::abs(c.u[b] - um_[b]), std::abs(c.v[b] - vm_[b])) >= vc_[b];
    // 4. the gap: luma foreground within 6 on both sides, along the row or the column.
    auto on = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && luma[std::size_t(y) * w + x] != 0; };
    std::vector<bool> gap(luma.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        bool left = false, right = false, up = false, down = false;
        for (int k = 1; k <= 6; ++k) {
          left = left || on(x - k, y);
          right = right || on(x + k, y);
          up = up || on(x, y - k);
          down = down || on(x, y + k);
        }
        gap[std::size_t(y) * w + x] = on(x, y) || (left && right) || (up && down);
      }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (changed[block_of(x, y)] && gap[std::size_t(y) * w + x]) fg[std::size_t(y) * w + x] = 1;
    // 5. shadows, with the M the step wrote and the chroma model after step 1, where the previous
    // frame's chroma background had colour (its U_M and V_M variances over 1 level^2).
    const std::vector<std::uint8_t>& mean = luma_.mean();
    for (int y = 0; y < h && colourful(); ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t p = std::size_t(y) * w + x;
        const int i = f.at(x, y), m = mean[p];
        if (!fg[p] || !(i < m) || 16 * i < 6 * m || 16 * i > 15 * m) continue;
        if (std::abs(c.u[block_of(x, y)] - um_[block_of(x, y)]) > 6) continue;
        if (std::abs(c.v[block_of(x, y)] - vm_[block_of(x, y)]) > 6) continue;
        std::int64_t n = 0, si = 0, sm = 0, e = 0;
        for (int yy = std::max(0, y - 2); yy <= std::min(h - 1, y + 2); ++yy)
          for (int xx = std::max(0, x - 2); xx <= std::min(w - 1, x + 2); ++xx)
            ++n, si += f.at(xx, yy), sm += mean[std::size_t(yy) * w + xx];
        for (int yy = std::max(0, y - 2); yy <= std::min(h - 1, y + 2); ++yy)
          for (int xx = std::max(0, x - 2); xx <= std::min(w - 1, x + 2); ++xx)
            e += std::llabs(std::int64_t(f.at(xx, yy)) * sm - std::int64_t(mean[std::size_t(yy) * w + xx]) * si);
        if (e <= 3 * n * sm) fg[p] = 0;
      }
    // 6. learning, per block.
    std::vector<bool> block_fg(um_.size(), false), block_gap(um_.size(), false);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        block_fg[block_of(x, y)] = block_fg[block_of(x, y)] || luma_.count()[std::size_t(y) * w + x] != 0;
        block_gap[block_of(x, y)] = block_gap[block_of(x, y)] || gap[std::size_t(y) * w + x];
      }
    const bool slow_turn = luma_.frame_index() % 16 == 0;
    for (std::size_t b = 0; b < um_.size(); ++b) {
      if (!block_fg[b] && (!block_gap[b] || slow_turn)) {
        um_[b] = step_towards(um_[b], c.u[b]);
        vm_[b] = step_towards(vm_[b], c.v[b]);
      }
      const int d = std::max(std::abs(c.u[b] - um_[b]), std::abs(c.v[b] - vm_[b]));
      if (d != 0) vc_[b] = std::uint8_t(std::max(7, step_towards(vc_[b], std::min(3 * d, 36))));
    }
    sums(c);
    return fg;
  }
  void reset() {
    started_ = false;
    luma_.reset();
  }

 private:
  // The previous frame's U_M, V_M variances (Q8, from its sums) add up to more than 1 level^2.
  bool colourful() const {
    const std::int64_t n = std::int64_t(um_.size());
    return su_.variance(n) + sv_.variance(n) > 256;
  }
  static int step_towards(int from, int to) { return from < to ? from + 1 : from > to ? from - 1 : from; }
  void sums(const Chroma& c) {
    su_ = sv_ = LightMoments{};
    for (std::size_t b = 0; b < um_.size(); ++b) su_.add(c.u[b], um_[b]), sv_.add(c.v[b], vm_[b]);
  }

  Adaptive luma_;
  bool started_ = false;
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> um_, vm_, vc_;
  LightMoments su_, sv_;  // the frame's (U_M, U) and (V_M, V) pairs
};

}  // namespace oracle
