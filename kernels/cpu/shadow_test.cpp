#include <algorithm>
#include <cstdlib>

#include "chroma_foreground.hpp"

namespace ccl::cpu {
namespace {

// The window's luma proportional to its background: over the (2 kShadowRadius + 1)^2 window,
// sum |I SM - M SI| <= tau n SM (ccl/foreground.hpp).
bool texture_kept(const ImageView& image, const std::uint8_t* mean, int x, int y) {
  const int w = image.width, r = kShadowRadius;
  const int x0 = std::max(0, x - r), x1 = std::min(w - 1, x + r);
  const int y0 = std::max(0, y - r), y1 = std::min(image.height - 1, y + r);
  auto in = [&](int u, int v) { return std::int64_t(image.data[std::ptrdiff_t(v) * image.stride + u]); };
  auto bg = [&](int u, int v) { return std::int64_t(mean[std::ptrdiff_t(v) * w + u]); };
  std::int64_t n = 0, si = 0, sm = 0;
  for (int v = y0; v <= y1; ++v)
    for (int u = x0; u <= x1; ++u) ++n, si += in(u, v), sm += bg(u, v);
  std::int64_t e = 0;
  for (int v = y0; v <= y1; ++v)
    for (int u = x0; u <= x1; ++u) e += std::llabs(in(u, v) * sm - bg(u, v) * si);
  return e <= std::int64_t(kShadowTexture) * n * sm;
}

}  // namespace

void suppress_shadows(const ImageView& image, const std::uint8_t* mean, const ChromaPlanes& chroma,
                      std::uint8_t* mask) {
  const ChromaView& c = image.chroma;
  const int w = image.width, cw = chroma_width(image);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      if (!mask[at]) continue;
      const int i = image.data[std::ptrdiff_t(y) * image.stride + x], m = mean[at];
      if (!(i < m && 16 * i >= kShadowRatioLow * m && 16 * i <= kShadowRatioHigh * m)) continue;
      const int cx = x / 2, cy = y / 2;
      if (std::abs(chroma_sample(c.u, c, cx, cy) - chroma.u[cy * cw + cx]) > kShadowChroma ||
          std::abs(chroma_sample(c.v, c, cx, cy) - chroma.v[cy * cw + cx]) > kShadowChroma)
        continue;
      if (!texture_kept(image, mean, x, y)) continue;
      mask[at] = 0;
    }
}

}  // namespace ccl::cpu
