#include "shadow_foreground.hpp"

#include <algorithm>
#include <cstdlib>

namespace ccl::cpu {
namespace {

int chroma_width(const ImageView& image) { return (image.width + 1) / 2; }
int chroma_height(const ImageView& image) { return (image.height + 1) / 2; }

int sample(const std::uint8_t* plane, const ChromaView& c, int cx, int cy) {
  return plane[std::ptrdiff_t(cy) * c.stride + std::ptrdiff_t(cx) * c.step];
}

// The window's luma proportional to its background, or correlated with it (ShadowRule::texture).
bool texture_kept(const ImageView& image, const std::uint8_t* mean, const ShadowRule& rule, int x, int y) {
  if (rule.texture == 0) return true;
  const int w = image.width, r = rule.radius;
  const int x0 = std::max(0, x - r), x1 = std::min(w - 1, x + r);
  const int y0 = std::max(0, y - r), y1 = std::min(image.height - 1, y + r);
  auto in = [&](int u, int v) { return std::int64_t(image.data[std::ptrdiff_t(v) * image.stride + u]); };
  auto bg = [&](int u, int v) { return std::int64_t(mean[std::ptrdiff_t(v) * w + u]); };
  std::int64_t n = 0, si = 0, sm = 0, sii = 0, smm = 0, sim = 0;
  for (int v = y0; v <= y1; ++v)
    for (int u = x0; u <= x1; ++u) {
      const std::int64_t i = in(u, v), m = bg(u, v);
      ++n, si += i, sm += m, sii += i * i, smm += m * m, sim += i * m;
    }
  if (rule.texture == 1) {
    std::int64_t e = 0;
    for (int v = y0; v <= y1; ++v)
      for (int u = x0; u <= x1; ++u) e += std::llabs(in(u, v) * sm - bg(u, v) * si);
    return e <= std::int64_t(rule.tau) * n * sm;
  }
  const std::int64_t cov = n * sim - si * sm, var_i = n * sii - si * si, var_m = n * smm - sm * sm;
  if (var_m <= std::int64_t(rule.flat) * n * n) return true;  // a flat background: no texture to compare
  if (cov <= 0) return false;
  return 256 * cov * cov >= std::int64_t(rule.ncc16) * rule.ncc16 * var_i * var_m;  // < 2^63 for radius <= 2
}

}  // namespace

void chroma_start(const ImageView& image, const ChromaPlanes& planes) {
  const ChromaView& c = image.chroma;
  const int cw = chroma_width(image);
  for (int cy = 0; cy < chroma_height(image); ++cy)
    for (int cx = 0; cx < cw; ++cx) {
      planes.u[cy * cw + cx] = std::uint8_t(sample(c.u, c, cx, cy));
      planes.v[cy * cw + cx] = std::uint8_t(sample(c.v, c, cx, cy));
    }
}

std::uint64_t suppress_shadows(const ImageView& image, const ShadowRule& rule, const std::uint8_t* mean,
                               const ChromaPlanes& chroma, std::uint8_t* mask) {
  const ChromaView& c = image.chroma;
  const int w = image.width, cw = chroma_width(image);
  std::uint64_t cleared = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      if (!mask[at]) continue;
      const int i = image.data[std::ptrdiff_t(y) * image.stride + x], m = mean[at];
      if (!(i < m && 16 * i >= rule.ratio_low * m && 16 * i <= rule.ratio_high * m)) continue;
      const int cx = x / 2, cy = y / 2;
      if (std::abs(sample(c.u, c, cx, cy) - chroma.u[cy * cw + cx]) > rule.chroma ||
          std::abs(sample(c.v, c, cx, cy) - chroma.v[cy * cw + cx]) > rule.chroma)
        continue;
      if (!texture_kept(image, mean, rule, x, y)) continue;
      mask[at] = 0;
      ++cleared;
    }
  return cleared;
}

// A sample learns only where none of its four pixels is foreground: learning where only the
// top-left one is lets an object's colour leak in, and the shadow behind it then fails the test.
void chroma_step(const ImageView& image, const std::uint8_t* count, const ChromaPlanes& planes) {
  const ChromaView& c = image.chroma;
  const int w = image.width, h = image.height, cw = chroma_width(image);
  for (int cy = 0; cy < chroma_height(image); ++cy)
    for (int cx = 0; cx < cw; ++cx) {
      bool foreground = false;
      for (int y = 2 * cy; y < std::min(h, 2 * cy + 2); ++y)
        for (int x = 2 * cx; x < std::min(w, 2 * cx + 2); ++x) foreground |= count[std::size_t(y) * w + x] != 0;
      if (foreground) continue;
      std::uint8_t& mu = planes.u[cy * cw + cx];
      std::uint8_t& mv = planes.v[cy * cw + cx];
      const int u = sample(c.u, c, cx, cy), v = sample(c.v, c, cx, cy);
      mu = std::uint8_t(mu + (mu < u) - (mu > u));
      mv = std::uint8_t(mv + (mv < v) - (mv > v));
    }
}

}  // namespace ccl::cpu
