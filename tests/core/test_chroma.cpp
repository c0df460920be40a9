// Options::chroma on the CPU backend (ccl/foreground.hpp): hand-made frames whose foreground is
// known without the code under test. A region darkened to half, chroma and texture kept, is a
// shadow; a changed chroma, another texture or no chroma at all (GRAY8) keep it foreground. An
// object's stripe with the ground's luma but its own colour joins its parts when at most
// kChromaReach wide; colour alone, far from luma foreground, is no object.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ccl/analyzer.hpp"
#include "ccl/foreground.hpp"

namespace {

constexpr int kW = 32, kH = 24, kCw = kW / 2, kCh = kH / 2;
// The darkened rectangle (even corners, so it covers whole chroma samples).
constexpr int kX0 = 8, kX1 = 20, kY0 = 6, kY1 = 16;
bool inside(int x, int y) { return x >= kX0 && x < kX1 && y >= kY0 && y < kY1; }

struct Frame {
  std::vector<std::uint8_t> y = std::vector<std::uint8_t>(kW * kH), u = std::vector<std::uint8_t>(kCw * kCh, 110),
                            v = std::vector<std::uint8_t>(kCw * kCh, 140);
  ccl::ImageView view(bool chroma) const {
    ccl::ImageView image{y.data(), kW, kH, kW, {}};
    if (chroma) image.chroma = ccl::ChromaView{u.data(), v.data(), kCw, 1};  // I420's layout
    return image;
  }
};

// A textured ground: 100 + 8 (x % 5) + 6 (y % 3), from 100 to 144.
Frame ground() {
  Frame f;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) f.y[y * kW + x] = std::uint8_t(100 + 8 * (x % 5) + 6 * (y % 3));
  return f;
}

// The raw mask (no morphology) of `second` after `first` started the model.
std::vector<std::uint8_t> mask_after(const Frame& first, const Frame& second, bool shadow, bool chroma) {
  auto analyzer = ccl::make_cpu_analyzer();
  ccl::Options o;
  o.foreground = ccl::Foreground::Adaptive;
  o.chroma = shadow;
  std::vector<std::uint8_t> out(kW * kH);
  ccl::MaskView mask{out.data(), kW};
  ccl::Result r;
  analyzer->run(first.view(chroma), o, r, nullptr, &mask);
  analyzer->run(second.view(chroma), o, r, nullptr, &mask);
  return out;
}

int count_inside(const std::vector<std::uint8_t>& m) {
  int n = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) n += inside(x, y) && m[y * kW + x] == ccl::kMaskForeground;
  return n;
}

int count_outside(const std::vector<std::uint8_t>& m) {
  int n = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) n += !inside(x, y) && m[y * kW + x] == ccl::kMaskForeground;
  return n;
}

// Half the ground's luma inside the rectangle: I / M ~ 0.5, within [6/16, 15/16].
Frame shadowed() {
  Frame f = ground();
  for (int y = kY0; y < kY1; ++y)
    for (int x = kX0; x < kX1; ++x) f.y[y * kW + x] = std::uint8_t(f.y[y * kW + x] / 2);
  return f;
}

constexpr int kArea = (kX1 - kX0) * (kY1 - kY0);
// The rectangle's 1-pixel rim: its 3x3 window straddles lit and shadowed ground, which is not one
// ratio, so the texture test keeps it (the opening of foreground=adaptive removes such a rim).
constexpr int kRim = kArea - (kX1 - kX0 - 2) * (kY1 - kY0 - 2);

TEST(ShadowForeground, DarkenedGroundWithItsChromaAndTextureIsBackground) {
  EXPECT_EQ(count_inside(mask_after(ground(), shadowed(), false, true)), kArea);  // without the test: all of it
  const std::vector<std::uint8_t> m = mask_after(ground(), shadowed(), true, true);
  EXPECT_EQ(count_inside(m), kRim);
  for (int y = kY0 + 1; y < kY1 - 1; ++y)
    for (int x = kX0 + 1; x < kX1 - 1; ++x) EXPECT_EQ(m[y * kW + x], ccl::kMaskBackground) << x << "," << y;
  EXPECT_EQ(count_outside(m), 0);
}

TEST(ShadowForeground, ChangedChromaStaysForeground) {
  Frame f = shadowed();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.u[cy * kCw + cx] = 110 + 7;  // one level past T_c = 6
  EXPECT_EQ(count_inside(mask_after(ground(), f, true, true)), kArea);
}

TEST(ShadowForeground, ChromaWithinToleranceIsStillShadow) {
  Frame f = shadowed();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.v[cy * kCw + cx] = 140 - 6;  // T_c = 6 itself
  EXPECT_EQ(count_inside(mask_after(ground(), f, true, true)), kRim);
}

// A flat dark object (72) on the textured ground: in the ratio band (72 / 144 = 0.5, 72 / 100 =
// 0.72) with the ground's chroma, but not the ground's texture: a residual of ~8 levels > tau 4.
TEST(ShadowForeground, FlatObjectOnTextureStaysForeground) {
  Frame f = ground();
  for (int y = kY0; y < kY1; ++y)
    for (int x = kX0; x < kX1; ++x) f.y[y * kW + x] = 72;
  const int kept = count_inside(mask_after(ground(), f, true, true));
  // Where the whole 3x3 window is the object: (kX1 - kX0 - 2) x (kY1 - kY0 - 2) pixels at least.
  EXPECT_GE(kept, (kX1 - kX0 - 2) * (kY1 - kY0 - 2));
}

TEST(ShadowForeground, TooDarkIsNotShadow) {
  Frame f = ground();
  for (int y = kY0; y < kY1; ++y)
    for (int x = kX0; x < kX1; ++x) f.y[y * kW + x] = std::uint8_t(f.y[y * kW + x] / 4);  // 0.25 < 6/16
  EXPECT_EQ(count_inside(mask_after(ground(), f, true, true)), kArea);
}

TEST(ShadowForeground, WithoutChromaOrOffTheMaskIsUnchanged) {
  const std::vector<std::uint8_t> plain = mask_after(ground(), shadowed(), false, false);
  EXPECT_EQ(count_inside(plain), kArea);
  EXPECT_EQ(mask_after(ground(), shadowed(), true, false), plain);  // GRAY8: no chroma, no test
  EXPECT_EQ(mask_after(ground(), shadowed(), false, true), plain);  // off: chroma is not read
}

// The components of a 0/1 mask, 8-connected, by flood fill (independent of the labellers).
int components(const std::vector<std::uint8_t>& m) {
  std::vector<int> seen(m.size(), 0);
  int n = 0;
  for (int start = 0; start < kW * kH; ++start) {
    if (m[start] != ccl::kMaskForeground || seen[start]) continue;
    ++n;
    std::vector<int> stack{start};
    seen[start] = 1;
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = p % kW + dx, y = p / kW + dy;
          if (x < 0 || y < 0 || x >= kW || y >= kH) continue;
          const int q = y * kW + x;
          if (m[q] == ccl::kMaskForeground && !seen[q]) seen[q] = 1, stack.push_back(q);
        }
    }
  }
  return n;
}

// An object over x 2..29, y 6..15 in its own colour (U + 30), its luma the ground's + 40 except a
// vertical stripe of `stripe` columns from x = 12 that keeps the ground's luma (camouflaged).
Frame striped_object(int stripe) {
  Frame f = ground();
  for (int y = kY0; y < kY1; ++y)
    for (int x = 2; x < 30; ++x)
      if (x < 12 || x >= 12 + stripe) f.y[y * kW + x] = std::uint8_t(f.y[y * kW + x] + 40);
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = 1; cx < 15; ++cx) f.u[cy * kCw + cx] = 140;
  return f;
}

TEST(ChromaForeground, ColourJoinsAStripeUpToTheReach) {
  static_assert(ccl::kChromaReach == 6, "the stripes below are sized for a reach of 6");
  const std::vector<std::uint8_t> luma_only = mask_after(ground(), striped_object(6), false, true);
  EXPECT_EQ(components(luma_only), 2);
  const std::vector<std::uint8_t> joined = mask_after(ground(), striped_object(6), true, true);
  EXPECT_EQ(components(joined), 1);
  for (int y = kY0; y < kY1; ++y)
    for (int x = 2; x < 30; ++x) EXPECT_EQ(joined[y * kW + x], ccl::kMaskForeground) << x << "," << y;
  EXPECT_EQ(count_outside(joined) - count_outside(luma_only), 0) << "colour adds nothing beyond the object";
}

TEST(ChromaForeground, AWiderStripeStaysApart) {
  // 14 columns: each is more than 6 from one of the object's sides, so none is bridged.
  EXPECT_EQ(components(mask_after(ground(), striped_object(14), true, true)), 2);
}

TEST(ChromaForeground, ColourAloneIsNoObject) {
  Frame f = ground();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.u[cy * kCw + cx] = 160, f.v[cy * kCw + cx] = 90;
  EXPECT_EQ(components(mask_after(ground(), f, true, true)), 0);
}

}  // namespace
