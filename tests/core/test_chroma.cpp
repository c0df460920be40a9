// Options::chroma on the CPU backend (ccl/foreground.hpp): hand-made frames whose foreground is
// known without the code under test. A region darkened to half, chroma and texture kept, is a
// shadow; a changed chroma, another texture or no chroma at all (GRAY8) keep it foreground. An
// object's stripe with the ground's luma but its own colour joins its parts when at most
// kChromaReach wide; colour alone, far from luma foreground, is no object.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ccl/analyzer.hpp"
#include "ccl/foreground.hpp"
#include "chroma_oracle.hpp"
#include "colour_frames.hpp"

namespace {

constexpr int kW = 32, kH = 24, kCw = kW / 2, kCh = kH / 2;
// The darkened rectangle (even corners, so it covers whole chroma samples).
constexpr int kX0 = 8, kX1 = 20, kY0 = 6, kY1 = 16;
bool inside(int x, int y) { return x >= kX0 && x < kX1 && y >= kY0 && y < kY1; }

// A chroma plane base + dx (cx % 3) + dy (cy % 2): a ground with colour (the shadow test needs some).
std::vector<std::uint8_t> chroma_plane(int base, int dx, int dy) {
  std::vector<std::uint8_t> p(kCw * kCh);
  for (int cy = 0; cy < kCh; ++cy)
    for (int cx = 0; cx < kCw; ++cx) p[cy * kCw + cx] = std::uint8_t(base + dx * (cx % 3) + dy * (cy % 2));
  return p;
}

struct Frame {
  std::vector<std::uint8_t> y = std::vector<std::uint8_t>(kW * kH), u = chroma_plane(110, 2, 0),
                            v = chroma_plane(140, 0, -3);
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

// A CPU analyzer running Adaptive (no morphology), with Options::chroma = `chroma_option`; each
// frame's mask lands in `mask`.
struct MaskRunner {
  std::unique_ptr<ccl::Analyzer> analyzer = ccl::make_cpu_analyzer();
  ccl::Options options;
  std::vector<std::uint8_t> mask = std::vector<std::uint8_t>(kW * kH);

  explicit MaskRunner(bool chroma_option) {
    options.foreground = ccl::Foreground::Adaptive;
    options.chroma = chroma_option;
  }
  const std::vector<std::uint8_t>& run(const ccl::ImageView& image) {
    const ccl::MaskView view{mask.data(), kW};
    ccl::Result r;
    analyzer->run(image, options, r, nullptr, &view);
    return mask;
  }
};

// The mask of `second` after `first` started the model; `chroma_present`: the frames carry chroma.
std::vector<std::uint8_t> mask_after(const Frame& first, const Frame& second, bool chroma_option, bool chroma_present) {
  MaskRunner runner(chroma_option);
  runner.run(first.view(chroma_present));
  return runner.run(second.view(chroma_present));
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
// The rectangle's rim, kShadowRadius pixels wide: its window straddles lit and shadowed ground, which is not one
// ratio, so the texture test keeps it (the opening of foreground=adaptive removes such a rim).
constexpr int kR = ccl::kShadowRadius;
constexpr int kRim = kArea - (kX1 - kX0 - 2 * kR) * (kY1 - kY0 - 2 * kR);

TEST(ShadowForeground, DarkenedGroundWithItsChromaAndTextureIsBackground) {
  EXPECT_EQ(count_inside(mask_after(ground(), shadowed(), false, true)), kArea);  // without the test: all of it
  const std::vector<std::uint8_t> m = mask_after(ground(), shadowed(), true, true);
  EXPECT_EQ(count_inside(m), kRim);
  for (int y = kY0 + kR; y < kY1 - kR; ++y)
    for (int x = kX0 + kR; x < kX1 - kR; ++x) EXPECT_EQ(m[y * kW + x], ccl::kMaskBackground) << x << "," << y;
  EXPECT_EQ(count_outside(m), 0);
}

TEST(ShadowForeground, ChangedChromaStaysForeground) {
  Frame f = shadowed();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.u[cy * kCw + cx] += 7;  // one level past T_c = 6
  EXPECT_EQ(count_inside(mask_after(ground(), f, true, true)), kArea);
}

TEST(ShadowForeground, ChromaWithinToleranceIsStillShadow) {
  Frame f = shadowed();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.v[cy * kCw + cx] -= 6;  // T_c = 6 itself
  EXPECT_EQ(count_inside(mask_after(ground(), f, true, true)), kRim);
}

// A flat dark object (72) on the textured ground: in the ratio band (72 / 144 = 0.5, 72 / 100 =
// 0.72) with the ground's chroma, but not the ground's texture: a residual of ~8 levels > tau 3.
TEST(ShadowForeground, FlatObjectOnTextureStaysForeground) {
  Frame f = ground();
  for (int y = kY0; y < kY1; ++y)
    for (int x = kX0; x < kX1; ++x) f.y[y * kW + x] = 72;
  const int kept = count_inside(mask_after(ground(), f, true, true));
  // Where the whole window is the object: (kX1 - kX0 - 2 kR) x (kY1 - kY0 - 2 kR) pixels at least.
  EXPECT_GE(kept, (kX1 - kX0 - 2 * kR) * (kY1 - kY0 - 2 * kR));
}

// A grey picture (an IR camera at night): no colour to tell a shadow from a dark object by.
TEST(ShadowForeground, NoShadowTestOnAGreyPicture) {
  Frame lit = ground(), dark = shadowed();
  for (Frame* f : {&lit, &dark}) f->u.assign(f->u.size(), 128), f->v.assign(f->v.size(), 128);
  EXPECT_EQ(count_inside(mask_after(lit, dark, true, true)), kArea);
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

// V_c learns on every block, so without a ceiling a standing object's colour would stop counting
// once V_c passed 3 x its distance; kChromaMaxDeviation (36) keeps a colour 60 off in the mask.
TEST(ChromaForeground, AStandingObjectsColourKeepsJoiningItsParts) {
  static_assert(ccl::kChromaMaxDeviation < 60, "the object's colour is 60 off its background");
  Frame standing = striped_object(6);
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = 1; cx < 15; ++cx) standing.u[cy * kCw + cx] = std::uint8_t(ground().u[cy * kCw + cx] + 60);
  MaskRunner runner(true);
  runner.run(ground().view(true));
  for (int t = 1; t <= 90; ++t)  // 3 x 60 = 180 > 7 + 90: uncapped, V_c would pass 60 at t = 53
    ASSERT_EQ(components(runner.run(standing.view(true))), 1) << "frame " << t;
}

// A chroma view whose rows cannot hold the frame's samples is refused, naming what is wrong.
TEST(ChromaForeground, ABadChromaViewIsRefused) {
  const Frame f = ground();
  ccl::Options o;
  o.foreground = ccl::Foreground::Adaptive;
  o.chroma = true;
  for (const auto& [step, stride] : {std::pair<int, std::ptrdiff_t>{0, kCw}, {1, kCw - 1}, {2, 2 * kCw - 2}}) {
    ccl::ImageView image = f.view(true);
    image.chroma.step = step;
    image.chroma.stride = stride;
    auto analyzer = ccl::make_cpu_analyzer();
    ccl::Result r;
    try {
      analyzer->run(image, o, r);
      ADD_FAILURE() << "step " << step << " stride " << stride << " was accepted";
    } catch (const ccl::Error& e) {
      EXPECT_EQ(e.kind(), ccl::Error::Kind::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("chroma sample step"), std::string::npos) << e.what();
    }
    o.chroma = false;  // the option off: the view is not read, nor checked
    EXPECT_NO_THROW(analyzer->run(image, o, r));
    o.chroma = true;
  }
}

TEST(ChromaForeground, ColourAloneIsNoObject) {
  Frame f = ground();
  for (int cy = kY0 / 2; cy < kY1 / 2; ++cy)
    for (int cx = kX0 / 2; cx < kX1 / 2; ++cx) f.u[cy * kCw + cx] = 160, f.v[cy * kCw + cx] = 90;
  EXPECT_EQ(components(mask_after(ground(), f, true, true)), 0);
}

// Sequences through the CPU backend and oracle::AdaptiveChroma, frame by frame.

using colour_frames::colour_options;
using colour_frames::ColourFrame;
using colour_frames::ChromaBuffer;
using colour_frames::lay_out;
using colour_frames::random_colour;
using colour_frames::street;

struct ChromaCounts {
  std::uint64_t joined = 0, shadowed = 0;  // oracle pixels colour added to, and shadow took from, the luma mask
};

// Runs `seq` through a fresh CPU analyzer and the oracle; every frame's mask must match.
ChromaCounts check_against_oracle(const std::vector<ColourFrame>& seq, const ccl::Options& o, bool nv12, int pad,
                                  const std::string& name) {
  auto analyzer = ccl::make_cpu_analyzer();
  oracle::AdaptiveChroma colour;
  oracle::Adaptive luma_only;
  ChromaCounts counts;
  for (const ColourFrame& f : seq) {
    const ChromaBuffer chroma = lay_out(f.chroma, nv12, pad);
    ccl::ImageView image{f.luma.pixels.data(), f.luma.width, f.luma.height, f.luma.stride, chroma.view};
    std::vector<std::uint8_t> got(std::size_t(f.luma.width) * f.luma.height);
    ccl::MaskView mask{got.data(), f.luma.width};
    ccl::Result r;
    analyzer->run(image, o, r, nullptr, &mask);
    const oracle::Mask raw = colour.next(f.luma, f.chroma, o.motion_factor, o.absorb_frames);
    const oracle::Mask plain = luma_only.next(f.luma, o.motion_factor, o.absorb_frames);
    for (std::size_t p = 0; p < raw.size(); ++p) {
      counts.joined += raw[p] && !plain[p];
      counts.shadowed += plain[p] && !raw[p];
    }
    const oracle::Mask want =
        oracle::clean_up(raw, f.luma.width, f.luma.height, o.open_radius, o.close_radius, o.shrink_radius);
    const int wrong = colour_frames::mismatches(got, want);
    EXPECT_EQ(wrong, 0) << name << (nv12 ? " NV12 " : " I420 ") << f.luma.name;
    if (wrong) break;
  }
  return counts;
}


TEST(ChromaForeground, StreetMatchesTheOracle) {
  for (const bool nv12 : {false, true})
    for (const bool recipe : {false, true})
      for (const auto& size : {std::pair<int, int>{96, 64}, std::pair<int, int>{67, 45}}) {
        const int pad = nv12 ? 3 : 0;
        const ChromaCounts c = check_against_oracle(street(size.first, size.second, 70, 7u + unsigned(size.first), pad),
                                                    colour_options(8, recipe), nv12, pad, "street");
        EXPECT_GT(c.joined, 0u) << "colour never joined a band: the sequence tests nothing";
        EXPECT_GT(c.shadowed, 0u) << "no shadow was taken out: the sequence tests nothing";
      }
}

TEST(ChromaForeground, RandomColourMatchesTheOracle) {
  for (const bool nv12 : {false, true})
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      const ChromaCounts c =
          check_against_oracle(random_colour(41 + int(seed), 29 + 2 * int(seed), 30, seed, 1), colour_options(3, seed == 2),
                               nv12, 1, "random");
      EXPECT_GT(c.joined, 0u);
    }
}

}  // namespace
