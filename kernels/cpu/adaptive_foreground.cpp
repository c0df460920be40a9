#include "adaptive_foreground.hpp"

#include <algorithm>

#include "ccl/foreground.hpp"

namespace ccl::cpu {

void adaptive_start(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask) {
  adaptive_relearn(image, planes, mask);
  std::fill(planes.deviation, planes.deviation + std::size_t(image.width) * image.height, kMotionMinDeviation);
}

void adaptive_relearn(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width), n = w * image.height;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
    std::copy(in, in + w, planes.mean + y * w);
  }
  std::fill(planes.count, planes.count + n, std::uint8_t(0));
  std::fill(mask, mask + n, std::uint8_t(0));
}

// Branch-free per pixel (noise makes every branch unpredictable), in ints so the compiler vectorises.
std::uint64_t adaptive_step(const ImageView& image, int factor, int absorb_frames, std::uint64_t frame_index,
                            const AdaptivePlanes& planes, std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width);
  const int slow_turn = frame_index % kForegroundUpdatePeriod == 0;
  std::uint64_t foreground = 0;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
    std::uint8_t* mr = planes.mean + y * w;
    std::uint8_t* vr = planes.deviation + y * w;
    std::uint8_t* cr = planes.count + y * w;
    std::uint8_t* fg = mask + y * w;
    unsigned row_count = 0;
    for (std::size_t x = 0; x < w; ++x) {
      const int i = in[x];
      const int absorb = cr[x] >= absorb_frames;
      int mean = absorb ? i : mr[x];
      const int count = absorb ? 0 : cr[x];
      const int learn = (count == 0) | slow_turn;
      mean += learn * ((mean < i) - (mean > i));
      const int d = mean > i ? mean - i : i - mean;
      const int target = std::min(factor * d, 255);
      int dev = vr[x];
      const int step = (dev < target) - (dev > target);
      dev += (learn & (d != 0)) * step;
      dev = std::max(dev, int(kMotionMinDeviation));  // never above 255: it only rises towards target <= 255
      const int is_fg = d >= dev;
      mr[x] = std::uint8_t(mean);
      vr[x] = std::uint8_t(dev);
      cr[x] = std::uint8_t(is_fg * std::min(count + 1, 255));
      fg[x] = std::uint8_t(is_fg);
      row_count += unsigned(is_fg);
    }
    foreground += row_count;
  }
  return foreground;
}

}  // namespace ccl::cpu
