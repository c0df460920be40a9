#include "adaptive_foreground.hpp"

#include <algorithm>

namespace ccl::cpu {
namespace {

// Row sums in 32 bits (255 * 255 * 65535 < 2^32), added to the frame's in 64.
struct RowSums {
  std::uint32_t m = 0, i = 0, mm = 0, mi = 0;
  void add(int in, int mean) {
    m += unsigned(mean);
    i += unsigned(in);
    mm += unsigned(mean * mean);
    mi += unsigned(mean * in);
  }
  void into(LightSums& s) const {
    s.m += m;
    s.i += i;
    s.mm += mm;
    s.mi += mi;
  }
};

const std::uint8_t* row(const ImageView& image, int y) { return image.data + std::ptrdiff_t(y) * image.stride; }

}  // namespace

LightSums adaptive_start(const ImageView& image, const AdaptivePlanes& planes, std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width), n = w * image.height;
  LightSums sums;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = row(image, y);
    RowSums r;
    for (std::size_t x = 0; x < w; ++x) r.add(in[x], in[x]);
    r.into(sums);
    std::copy(in, in + w, planes.mean + y * w);
  }
  std::fill(planes.deviation, planes.deviation + n, kMotionMinDeviation);
  std::fill(planes.count, planes.count + n, std::uint8_t(0));
  std::fill(mask, mask + n, std::uint8_t(0));
  return sums;
}

LightSums adaptive_relearn(const ImageView& image, const LightFit& fit, const AdaptivePlanes& planes,
                           std::uint8_t* mask) {
  const std::size_t w = std::size_t(image.width), n = w * image.height;
  LightSums sums;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = row(image, y);
    std::uint8_t* mr = planes.mean + y * w;
    RowSums r;
    for (std::size_t x = 0; x < w; ++x) {
      mr[x] = std::uint8_t(apply_light(fit, mr[x]));
      r.add(in[x], mr[x]);
    }
    r.into(sums);
  }
  std::fill(planes.count, planes.count + n, std::uint8_t(0));
  std::fill(mask, mask + n, std::uint8_t(0));
  return sums;
}

// Branch-free per pixel (noise makes every branch unpredictable), in ints so the compiler vectorises.
LightSums adaptive_step(const ImageView& image, int factor, int absorb_frames, std::uint64_t frame_index,
                        const AdaptivePlanes& planes, std::uint8_t* mask, std::uint64_t& foreground) {
  const std::size_t w = std::size_t(image.width);
  const int slow_turn = frame_index % kForegroundUpdatePeriod == 0;
  LightSums sums;
  foreground = 0;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* in = row(image, y);
    std::uint8_t* mr = planes.mean + y * w;
    std::uint8_t* vr = planes.deviation + y * w;
    std::uint8_t* cr = planes.count + y * w;
    std::uint8_t* fg = mask + y * w;
    RowSums r;
    unsigned row_count = 0;
    for (std::size_t x = 0; x < w; ++x) {
      const int i = in[x];
      const int absorb = cr[x] >= absorb_frames;  // a stopped object or a ghost joins the background
      int mean = absorb ? i : mr[x];
      const int count = absorb ? 0 : cr[x];
      const int learn = (count == 0) | (slow_turn & (count < kStandingFrames));
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
      r.add(i, mean);
    }
    r.into(sums);
    foreground += row_count;
  }
  return sums;
}

}  // namespace ccl::cpu
