// I420 (a 4:2:0 JPEG's own planes, as jpegdec decodes them) to BGR the way libjpeg does it for
// OpenCV's imread: "fancy" triangular upsampling of the chroma (jdsample.c, h2v2_fancy_upsample,
// edge rows and columns replicated) and its fixed-point YCbCr -> RGB tables (jdcolor.c). So the
// MOG2 peer sees the bytes cv::imread would give and its scores compare with figures taken that way.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quality {

struct I420Planes {
  const std::uint8_t* y;
  const std::uint8_t* u;
  const std::uint8_t* v;
  std::ptrdiff_t y_stride, u_stride, v_stride;
  int width, height;  // of the luma plane; chroma is (width + 1) / 2 x (height + 1) / 2
};

namespace detail {

// One chroma plane upsampled 2x2 to cw*2 x ch*2 (h2v2_fancy_upsample).
inline std::vector<std::uint8_t> fancy_upsample(const std::uint8_t* in, std::ptrdiff_t stride, int cw, int ch) {
  const int ow = 2 * cw;
  std::vector<std::uint8_t> out(std::size_t(ow) * 2 * ch);
  for (int row = 0; row < ch; ++row)
    for (int v = 0; v < 2; ++v) {
      const std::uint8_t* near = in + std::ptrdiff_t(row) * stride;
      const int other = v == 0 ? std::max(row - 1, 0) : std::min(row + 1, ch - 1);  // next nearest row
      const std::uint8_t* next = in + std::ptrdiff_t(other) * stride;
      std::uint8_t* o = &out[std::size_t(2 * row + v) * ow];
      if (cw == 1) {
        o[0] = o[1] = std::uint8_t(((near[0] * 3 + next[0]) * 4 + 8) >> 4);
        continue;
      }
      int this_sum = near[0] * 3 + next[0], next_sum = near[1] * 3 + next[1], last_sum = this_sum;
      *o++ = std::uint8_t((this_sum * 4 + 8) >> 4);
      *o++ = std::uint8_t((this_sum * 3 + next_sum + 7) >> 4);
      last_sum = this_sum;
      this_sum = next_sum;
      for (int c = 2; c < cw; ++c) {
        next_sum = near[c] * 3 + next[c];
        *o++ = std::uint8_t((this_sum * 3 + last_sum + 8) >> 4);
        *o++ = std::uint8_t((this_sum * 3 + next_sum + 7) >> 4);
        last_sum = this_sum;
        this_sum = next_sum;
      }
      *o++ = std::uint8_t((this_sum * 3 + last_sum + 8) >> 4);
      *o++ = std::uint8_t((this_sum * 4 + 7) >> 4);
    }
  return out;
}

}  // namespace detail

// `bgr`: width*height*3 bytes, rows without padding.
inline void i420_to_bgr_like_libjpeg(const I420Planes& p, std::uint8_t* bgr) {
  constexpr int kScale = 16;
  constexpr long kHalf = 1L << (kScale - 1);
  const auto fix = [](double x) { return long(x * (1L << kScale) + 0.5); };
  int cr_r[256], cb_b[256];
  long cr_g[256], cb_g[256];
  for (int i = 0; i < 256; ++i) {
    const long x = i - 128;
    cr_r[i] = int((fix(1.40200) * x + kHalf) >> kScale);
    cb_b[i] = int((fix(1.77200) * x + kHalf) >> kScale);
    cr_g[i] = -fix(0.71414) * x;
    cb_g[i] = -fix(0.34414) * x + kHalf;
  }
  const int cw = (p.width + 1) / 2, ch = (p.height + 1) / 2, ow = 2 * cw;
  const std::vector<std::uint8_t> cb = detail::fancy_upsample(p.u, p.u_stride, cw, ch);
  const std::vector<std::uint8_t> cr = detail::fancy_upsample(p.v, p.v_stride, cw, ch);
  const auto clamp = [](int v) { return std::uint8_t(std::min(255, std::max(0, v))); };
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x) {
      const int l = p.y[std::ptrdiff_t(y) * p.y_stride + x];
      const int b = cb[std::size_t(y) * ow + x], r = cr[std::size_t(y) * ow + x];
      std::uint8_t* o = bgr + (std::size_t(y) * p.width + x) * 3;
      o[0] = clamp(l + cb_b[b]);
      o[1] = clamp(l + int((cb_g[b] + cr_g[r]) >> kScale));
      o[2] = clamp(l + cr_r[r]);
    }
}

}  // namespace quality
