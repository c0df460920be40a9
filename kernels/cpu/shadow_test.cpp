#include "ccl/chroma_rules.hpp"
#include "chroma_foreground.hpp"

namespace ccl::cpu {

void suppress_shadows(const ImageView& image, const std::uint8_t* mean, const ChromaPlanes& chroma,
                      std::uint8_t* mask) {
  const ChromaView& c = image.chroma;
  const int w = image.width, cw = chroma_width(image);
  auto in = [&](int x, int y) { return int(image.data[std::ptrdiff_t(y) * image.stride + x]); };
  auto background = [&](int x, int y) { return int(mean[std::ptrdiff_t(y) * w + x]); };
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      if (!mask[at] || !shadow_light(in(x, y), background(x, y))) continue;
      const int cx = x / 2, cy = y / 2;
      if (!shadow_colour(chroma_sample(c.u, c, cx, cy), chroma_sample(c.v, c, cx, cy), chroma.u[cy * cw + cx],
                         chroma.v[cy * cw + cx]))
        continue;
      if (shadow_texture(x, y, w, image.height, in, background)) mask[at] = 0;
    }
}

}  // namespace ccl::cpu
