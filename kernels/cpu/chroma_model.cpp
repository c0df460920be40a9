#include <algorithm>
#include <limits>

#include "ccl/chroma_rules.hpp"
#include "chroma_foreground.hpp"

namespace ccl::cpu {
namespace {

void add_pair(LightSums& s, int in, int mean) {
  s.m += unsigned(mean), s.i += unsigned(in), s.mm += unsigned(mean * mean), s.mi += unsigned(mean * in);
}

// Calls f(pixel index) for each pixel of block (cx, cy), clipped at the frame's edges.
template <typename F>
void for_block_pixels(const ImageView& image, int cx, int cy, F f) {
  for (int y = 2 * cy; y < std::min(image.height, 2 * cy + 2); ++y)
    for (int x = 2 * cx; x < std::min(image.width, 2 * cx + 2); ++x) f(std::size_t(y) * image.width + x);
}

// Calls f(cx, cy, at, u, v) for each block: its position, its index in the model, its U and V.
template <typename F>
void for_each_block(const ImageView& image, F f) {
  const ChromaView& c = image.chroma;
  const int cw = chroma_width(image);
  for (int cy = 0; cy < chroma_height(image); ++cy)
    for (int cx = 0; cx < cw; ++cx)
      f(cx, cy, std::size_t(cy) * cw + cx, chroma_sample(c.u, c, cx, cy), chroma_sample(c.v, c, cx, cy));
}

}  // namespace

ChromaSums chroma_start(const ImageView& image, const ChromaPlanes& planes) {
  ChromaSums sums;
  for_each_block(image, [&](int, int, std::size_t at, int u, int v) {
    planes.u[at] = std::uint8_t(u), planes.v[at] = std::uint8_t(v), planes.deviation[at] = kChromaMinDeviation;
    add_pair(sums.u, u, u), add_pair(sums.v, v, v);
  });
  return sums;
}

ChromaSums chroma_relearn(const ImageView& image, const LightFit& fit_u, const LightFit& fit_v,
                          const ChromaPlanes& planes) {
  ChromaSums sums;
  for_each_block(image, [&](int, int, std::size_t at, int u, int v) {
    planes.u[at] = std::uint8_t(apply_light(fit_u, planes.u[at]));
    planes.v[at] = std::uint8_t(apply_light(fit_v, planes.v[at]));
    add_pair(sums.u, u, planes.u[at]), add_pair(sums.v, v, planes.v[at]);
  });
  return sums;
}

void chroma_changes(const ImageView& image, const std::uint8_t* count, int absorb_frames,
                    const ChromaPlanes& planes, std::uint8_t* blocks) {
  for_each_block(image, [&](int cx, int cy, std::size_t at, int u, int v) {
    bool absorbed = false;
    for_block_pixels(image, cx, cy, [&](std::size_t p) { absorbed |= count[p] >= absorb_frames; });
    if (absorbed) planes.u[at] = std::uint8_t(u), planes.v[at] = std::uint8_t(v);
    blocks[at] = std::uint8_t(chroma_changed(u, v, planes.u[at], planes.v[at], planes.deviation[at]));
  });
}

// Two sweeps a row find luma foreground within the reach on the left and on the right; two a column,
// above and below. Distances are taken to the nearest such pixel, so each sweep is one pass.
void chroma_fill(const ImageView& image, const std::uint8_t* blocks, std::uint8_t* between,
                 const FillScratch& scratch, std::uint8_t* mask) {
  const int w = image.width, h = image.height, cw = chroma_width(image), r = kChromaReach;
  constexpr int kFar = std::numeric_limits<int>::max() / 2;
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* l = mask + std::size_t(y) * w;
    std::uint8_t* b = between + std::size_t(y) * w;
    for (int x = 0, last = -kFar; x < w; ++x) {
      b[x] = std::uint8_t(x - last <= r);
      if (l[x]) last = x;
    }
    for (int x = w - 1, next = kFar; x >= 0; --x) {
      b[x] = std::uint8_t(l[x] | (b[x] & (next - x <= r)));
      if (l[x]) next = x;
    }
  }
  int* edge = scratch.column_edge;
  std::fill(edge, edge + w, -kFar);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      scratch.above[at] = std::uint8_t(y - edge[x] <= r);
      if (mask[at]) edge[x] = y;
    }
  std::fill(edge, edge + w, kFar);
  for (int y = h - 1; y >= 0; --y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      between[at] = std::uint8_t(between[at] | (scratch.above[at] & (edge[x] - y <= r)));
      if (mask[at]) edge[x] = y;
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      mask[at] = std::uint8_t(mask[at] | (blocks[std::size_t(y / 2) * cw + x / 2] & between[at]));
    }
}

// U_M, V_M learn where no pixel of the block is luma foreground (C != 0), and where one lies in a
// gap only every kForegroundUpdatePeriod frames: an object's colour must not leak into its
// background. V_c learns everywhere, so colour that keeps moving (leaves) stops counting.
ChromaSums chroma_step(const ImageView& image, const std::uint8_t* count, const std::uint8_t* between,
                       bool slow_turn, const ChromaPlanes& planes) {
  ChromaSums sums;
  for_each_block(image, [&](int cx, int cy, std::size_t at, int u, int v) {
    bool foreground = false, in_gap = false;
    for_block_pixels(image, cx, cy, [&](std::size_t p) {
      foreground |= count[p] != 0;
      in_gap |= between[p] != 0;
    });
    chroma_learn(planes.u[at], planes.v[at], planes.deviation[at], u, v, !foreground && (!in_gap || slow_turn));
    add_pair(sums.u, u, planes.u[at]), add_pair(sums.v, v, planes.v[at]);
  });
  return sums;
}

}  // namespace ccl::cpu
