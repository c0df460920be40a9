// The independent oracle: a plain flood fill, written for the tests and sharing no code with any
// backend (not even ccl::finalize), so a bug in the library cannot hide in its own reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "ccl/types.hpp"
#include "frames.hpp"

namespace oracle {

struct Output {
  ccl::Result result;
  std::vector<std::uint32_t> labels;  // width*height, final label in the chosen order, 0 = background
};

inline Output flood_fill(const frames::Frame& f, const ccl::Options& opt) {
  const int w = f.width, h = f.height;
  auto fg = [&](int x, int y) { return f.pixels[std::size_t(y) * f.stride + x] > opt.threshold; };
  std::vector<std::uint32_t> raster_label(std::size_t(w) * h, 0);
  struct Acc { std::uint64_t area = 0, sx = 0, sy = 0; int x0, y0, x1, y1; };
  std::vector<Acc> acc;
  std::vector<std::pair<int, int>> stack;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (!fg(x, y) || raster_label[std::size_t(y) * w + x]) continue;
      const std::uint32_t id = std::uint32_t(acc.size() + 1);  // first pixel in raster order
      Acc a{0, 0, 0, x, y, x, y};
      raster_label[std::size_t(y) * w + x] = id;
      stack.assign(1, {x, y});
      while (!stack.empty()) {
        auto [px, py] = stack.back();
        stack.pop_back();
        a.area++; a.sx += px; a.sy += py;
        a.x0 = std::min(a.x0, px); a.x1 = std::max(a.x1, px);
        a.y0 = std::min(a.y0, py); a.y1 = std::max(a.y1, py);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            if (!dx && !dy) continue;
            if (opt.connectivity == 4 && dx && dy) continue;
            const int nx = px + dx, ny = py + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || !fg(nx, ny)) continue;
            std::uint32_t& l = raster_label[std::size_t(ny) * w + nx];
            if (l) continue;
            l = id;
            stack.push_back({nx, ny});
          }
      }
      acc.push_back(a);
    }

  // Chosen order: raster, or area descending with ties in raster order.
  std::vector<std::uint32_t> rank_to_raster(acc.size());
  std::iota(rank_to_raster.begin(), rank_to_raster.end(), 0u);
  if (opt.order == ccl::Order::Area)
    std::stable_sort(rank_to_raster.begin(), rank_to_raster.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return acc[a].area > acc[b].area; });
  std::vector<std::uint32_t> raster_to_final(acc.size() + 1, 0);
  for (std::size_t r = 0; r < rank_to_raster.size(); ++r) raster_to_final[rank_to_raster[r] + 1] = std::uint32_t(r + 1);

  Output out;
  out.labels.resize(raster_label.size());
  for (std::size_t i = 0; i < raster_label.size(); ++i) out.labels[i] = raster_to_final[raster_label[i]];
  ccl::Result& res = out.result;
  res.width = w; res.height = h; res.connectivity = opt.connectivity;
  res.n_components_total = std::uint32_t(acc.size());
  for (std::size_t r = 0; r < rank_to_raster.size(); ++r) {
    const Acc& a = acc[rank_to_raster[r]];
    if (a.area < opt.min_area || a.area > opt.max_area) continue;
    if (res.components.size() == opt.max_objects) { res.truncated = true; break; }
    ccl::Component c;
    c.label = std::uint32_t(r + 1);
    c.area = std::uint32_t(a.area);
    c.x = a.x0; c.y = a.y0; c.width = a.x1 - a.x0 + 1; c.height = a.y1 - a.y0 + 1;
    c.centroid_x = double(a.sx) / double(a.area);
    c.centroid_y = double(a.sy) / double(a.area);
    res.components.push_back(c);
  }
  return out;
}

}  // namespace oracle
