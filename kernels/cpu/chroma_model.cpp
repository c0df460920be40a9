#include <algorithm>
#include <limits>

#include "ccl/chroma_rules.hpp"
#include "chroma_foreground.hpp"

namespace ccl::cpu {
namespace {

void add_pair(LightSums& s, int in, int mean) {
  s.m += unsigned(mean), s.i += unsigned(in), s.mm += unsigned(mean * mean), s.mi += unsigned(mean * in);
}

// Whether `pred` holds for a pixel of block (cx, cy) of a dense plane of `image`'s size. A block
// clipped at the right or bottom edge repeats its last column or row, which changes no "any".
template <typename Pred>
bool any_in_block(const ImageView& image, const std::uint8_t* plane, int cx, int cy, Pred pred) {
  const int x0 = 2 * cx, x1 = std::min(x0 + 1, image.width - 1);
  const std::uint8_t* top = plane + std::size_t(2 * cy) * image.width;
  const std::uint8_t* bottom = plane + std::size_t(std::min(2 * cy + 1, image.height - 1)) * image.width;
  return pred(top[x0]) || pred(top[x1]) || pred(bottom[x0]) || pred(bottom[x1]);
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
    if (any_in_block(image, count, cx, cy, [&](std::uint8_t c) { return c >= absorb_frames; }))
      planes.u[at] = std::uint8_t(u), planes.v[at] = std::uint8_t(v);
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
  for (int y = h - 1; y >= 0; --y) {  // the last sweep fills the row too: no sweep reads it again
    const std::uint8_t* block_row = blocks + std::size_t(y / 2) * cw;
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      const std::uint8_t luma = mask[at];
      between[at] = std::uint8_t(between[at] | (scratch.above[at] & (edge[x] - y <= r)));
      if (luma) edge[x] = y;
      mask[at] = std::uint8_t(luma | (block_row[x / 2] & between[at]));
    }
  }
}

// U_M, V_M learn where no pixel of the block is luma foreground (C != 0), and where one lies in a
// gap only every kForegroundUpdatePeriod frames: an object's colour must not leak into its
// background. V_c learns everywhere, so colour that keeps moving (leaves) stops counting.
ChromaSums chroma_step(const ImageView& image, const std::uint8_t* count, const std::uint8_t* between,
                       bool slow_turn, const ChromaPlanes& planes) {
  ChromaSums sums;
  for_each_block(image, [&](int cx, int cy, std::size_t at, int u, int v) {
    auto set = [](std::uint8_t b) { return b != 0; };
    const bool foreground = any_in_block(image, count, cx, cy, set);
    const bool in_gap = any_in_block(image, between, cx, cy, set);
    chroma_learn(planes.u[at], planes.v[at], planes.deviation[at], u, v, !foreground && (!in_gap || slow_turn));
    add_pair(sums.u, u, planes.u[at]), add_pair(sums.v, v, planes.v[at]);
  });
  return sums;
}

}  // namespace ccl::cpu
