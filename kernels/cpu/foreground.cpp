#include "foreground.hpp"

#include <algorithm>

#include "ccl/foreground.hpp"

namespace ccl::cpu {

void threshold_mask(const ImageView& image, std::uint8_t threshold, std::uint8_t* mask) {
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
    std::uint8_t* out = mask + std::ptrdiff_t(y) * image.width;
    for (int x = 0; x < image.width; ++x) out[x] = in[x] > threshold;
  }
}

void sigma_delta_start(const ImageView& image, std::uint8_t* m, std::uint8_t* v, std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
    std::copy(in, in + w, m + y * w);
  }
  std::fill(v, v + w * image.height, kMotionMinDeviation);
  std::fill(mask, mask + w * image.height, std::uint8_t(0));
}

// Branch-free per pixel (noise makes every branch unpredictable), in ints so the compiler vectorises.
void sigma_delta_step(const ImageView& image, int factor, std::uint8_t* m, std::uint8_t* v, std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width);
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
    std::uint8_t* mr = m + y * w;
    std::uint8_t* vr = v + y * w;
    std::uint8_t* fg = mask + y * w;
    for (std::size_t x = 0; x < w; ++x) {
      const int i = in[x];
      int mean = mr[x];
      mean += (mean < i) - (mean > i);  // M first, then D from the new M (paper order)
      const int d = mean > i ? mean - i : i - mean;
      const int target = std::min(factor * d, 255);
      int dev = vr[x];
      const int step = (dev < target) - (dev > target);
      dev += d != 0 ? step : 0;
      dev = std::max(dev, int(kMotionMinDeviation));  // never above 255: it only rises towards target <= 255
      mr[x] = std::uint8_t(mean);
      vr[x] = std::uint8_t(dev);
      fg[x] = d >= dev;
    }
  }
}

void SquareMorphology::open(std::uint8_t* mask, int width, int height, int radius) {
  if (radius <= 0) return;
  filter(mask, width, height, radius, true);
  filter(mask, width, height, radius, false);
}

void SquareMorphology::close(std::uint8_t* mask, int width, int height, int radius) {
  if (radius <= 0) return;
  filter(mask, width, height, radius, false);
  filter(mask, width, height, radius, true);
}

void SquareMorphology::shrink(std::uint8_t* mask, int width, int height, int radius) {
  if (radius > 0) filter(mask, width, height, radius, true);
}

// A clipped square is a rectangle, so its min (max) is the min (max) over its rows of each row's
// clipped span: a horizontal pass, then a vertical one. Each counts the set pixels of its window,
// updated as the window slides, and compares the count with the window's clipped size.
void SquareMorphology::filter(std::uint8_t* mask, int width, int height, int radius, bool erode) {
  const std::size_t w = std::size_t(width);
  rows_.resize(w * height);
  count_.resize(w);

  for (int y = 0; y < height; ++y) {
    const std::uint8_t* in = mask + y * w;
    std::uint8_t* out = rows_.data() + y * w;
    int count = 0;
    for (int x = 0; x < std::min(radius, width); ++x) count += in[x];
    for (int x = 0; x < width; ++x) {
      if (x + radius < width) count += in[x + radius];
      if (x - radius - 1 >= 0) count -= in[x - radius - 1];
      const int size = std::min(width - 1, x + radius) - std::max(0, x - radius) + 1;
      out[x] = erode ? count == size : count > 0;
    }
  }

  std::uint16_t* count = count_.data();
  std::fill(count, count + w, std::uint16_t(0));
  for (int y = 0; y < std::min(radius, height); ++y)
    for (std::size_t x = 0; x < w; ++x) count[x] += rows_[y * w + x];
  for (int y = 0; y < height; ++y) {
    if (y + radius < height) {
      const std::uint8_t* enter = rows_.data() + (y + radius) * w;
      for (std::size_t x = 0; x < w; ++x) count[x] += enter[x];
    }
    if (y - radius - 1 >= 0) {
      const std::uint8_t* leave = rows_.data() + (y - radius - 1) * w;
      for (std::size_t x = 0; x < w; ++x) count[x] -= leave[x];
    }
    const int size = std::min(height - 1, y + radius) - std::max(0, y - radius) + 1;
    std::uint8_t* out = mask + y * w;
    if (erode)
      for (std::size_t x = 0; x < w; ++x) out[x] = count[x] == size;
    else
      for (std::size_t x = 0; x < w; ++x) out[x] = count[x] > 0;
  }
}

}  // namespace ccl::cpu
