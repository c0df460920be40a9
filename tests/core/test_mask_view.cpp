// The mask the CPU backend hands out through MaskView (Analyzer::submit's `mask`): 255 where the
// frame is labelled as foreground, 0 elsewhere, after the foreground stage and open/close, before
// the area filters. Checked on hand-written bytes and against the foreground oracle, into a padded
// destination and into the frame's own plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core_check.hpp"
#include "foreground_oracle.hpp"

namespace {

constexpr int kPad = 3;                 // the destination's rows are padded
constexpr std::uint8_t kUntouched = 7;  // what the padding holds before and after

struct Shown {
  std::vector<std::uint8_t> mask;  // width*height, unpadded
  ccl::Result result;
  bool padding_kept = true;
};

// Runs `f` through `a` with a padded mask destination.
Shown show(ccl::Analyzer& a, const frames::Frame& f, const ccl::Options& o) {
  const int stride = f.width + kPad;
  std::vector<std::uint8_t> dest(std::size_t(stride) * f.height, kUntouched);
  const ccl::MaskView view{dest.data(), stride};
  Shown s;
  a.run(corecheck::view(f), o, s.result, nullptr, &view);
  for (int y = 0; y < f.height; ++y) {
    for (int x = 0; x < f.width; ++x) s.mask.push_back(dest[std::size_t(y) * stride + x]);
    for (int x = f.width; x < stride; ++x)
      s.padding_kept = s.padding_kept && dest[std::size_t(y) * stride + x] == kUntouched;
  }
  return s;
}

std::vector<std::uint8_t> bytes(const oracle::Mask& m) {
  std::vector<std::uint8_t> v;
  for (std::uint8_t b : m) v.push_back(b ? 255 : 0);
  return v;
}

// Threshold 35 on digits (value 10*d): 4 and 9 are above, 3 is not. Expected by hand.
TEST(MaskView, ThresholdBytesByHand) {
  const frames::Frame f = corecheck::drawn("digits", {"0349.", "#3.4#", "9..30"}, 2);
  ccl::Options o = corecheck::opts(8, 35);
  o.min_area = 100;  // filters the components away, not the mask
  auto a = ccl::make_cpu_analyzer();
  const Shown s = show(*a, f, o);
  const std::vector<std::uint8_t> want = {0,   0, 255, 255, 0,    //
                                          255, 0, 0,   255, 255,  //
                                          255, 0, 0,   0,   0};
  EXPECT_EQ(s.mask, want);
  EXPECT_TRUE(s.padding_kept);
  EXPECT_EQ(s.result.components.size(), 0u) << "min-area drops every component";
  EXPECT_EQ(s.result.n_components_total, 2u) << "{(2,0),(3,0),(3,1),(4,1)} and {(0,1),(0,2)}";
}

// An opening of radius 1 removes a 2x2 block and keeps a 3x3 one (only its centre survives the
// erosion, the dilation grows it back). Expected by hand.
TEST(MaskView, OpeningBytesByHand) {
  const frames::Frame f =
      corecheck::drawn("blocks", {"........", ".##.....", ".##.###.", "....###.", "....###.", "........"});
  ccl::Options o = corecheck::opts(8, 0);
  o.open_radius = 1;
  auto a = ccl::make_cpu_analyzer();
  const Shown s = show(*a, f, o);
  const std::vector<std::uint8_t> want = {0, 0, 0, 0, 0,   0,   0,   0,  //
                                          0, 0, 0, 0, 0,   0,   0,   0,  //
                                          0, 0, 0, 0, 255, 255, 255, 0,  //
                                          0, 0, 0, 0, 255, 255, 255, 0,  //
                                          0, 0, 0, 0, 255, 255, 255, 0,  //
                                          0, 0, 0, 0, 0,   0,   0,   0};
  EXPECT_EQ(s.mask, want);
  ASSERT_EQ(s.result.components.size(), 1u);
  EXPECT_EQ(s.result.components[0].area, 9u);
}

// A drifting noisy background with two bright rectangles moving across it.
std::vector<frames::Frame> scene(int w, int h, int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<frames::Frame> v;
  for (int t = 0; t < n; ++t) {
    frames::Frame f = frames::blank("scene t=" + std::to_string(t), w, h, 5);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(60 + (x + 2 * y) % 40 + int(rng() % 5));
    for (int k = 0; k < 2; ++k)
      for (int y = 4 + 14 * k; y < 12 + 14 * k; ++y)
        for (int x = (3 * t + 9 * k) % w; x < std::min(w, (3 * t + 9 * k) % w + 7); ++x) f.at(x, y) = 220;
    v.push_back(std::move(f));
  }
  return v;
}

TEST(MaskView, MotionMatchesTheForegroundOracle) {
  const auto fs = scene(47, 33, 12, 5);
  for (auto [open, close] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{1, 2}}) {
    ccl::Options o = corecheck::opts(8, 0);
    o.foreground = ccl::Foreground::Motion;
    o.open_radius = open;
    o.close_radius = close;
    auto a = ccl::make_cpu_analyzer();
    oracle::SigmaDelta model;
    std::size_t foreground_frames = 0;
    for (const frames::Frame& f : fs) {
      const oracle::Mask want = oracle::open_close(model.next(f, o.motion_factor), f.width, f.height, open, close);
      const Shown s = show(*a, f, o);
      EXPECT_EQ(s.mask, bytes(want)) << f.name << " open=" << open << " close=" << close;
      EXPECT_TRUE(s.padding_kept);
      foreground_frames += std::count(want.begin(), want.end(), 1) > 0;
    }
    EXPECT_GT(foreground_frames, fs.size() / 2) << "the rectangles move";
  }
}

// The frame's own plane as the destination: the components are those of the frame, the plane
// becomes the mask (threshold with and without a stage, and motion).
TEST(MaskView, IntoTheFramesOwnPlane) {
  const auto fs = scene(40, 30, 6, 9);
  ccl::Options threshold = corecheck::opts(4, 150), opened = threshold, motion = corecheck::opts(8, 0);
  opened.open_radius = 1;
  motion.foreground = ccl::Foreground::Motion;
  for (const ccl::Options& o : {threshold, opened, motion}) {
    auto apart = ccl::make_cpu_analyzer(), inside = ccl::make_cpu_analyzer();
    for (const frames::Frame& f : fs) {
      const Shown want = show(*apart, f, o);
      frames::Frame plane = f;
      const ccl::MaskView own{plane.pixels.data(), plane.stride};
      ccl::Result got;
      inside->run(corecheck::view(plane), o, got, nullptr, &own);
      EXPECT_EQ(compare::diff(got, want.result), "") << f.name << " " << ccl::to_string(o.foreground);
      std::vector<std::uint8_t> mask;
      for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x) mask.push_back(plane.at(x, y));
      EXPECT_EQ(mask, want.mask) << f.name;
      EXPECT_EQ(plane.at(f.width, 0), f.at(f.width, 0)) << "the row padding is not the mask's";
    }
  }
}

TEST(MaskView, BadDestinationsAreRefused) {
  const frames::Frame f = corecheck::drawn("one", {"#.#"});
  auto a = ccl::make_cpu_analyzer();
  std::vector<std::uint8_t> dest(8);
  const ccl::MaskView no_data{nullptr, 3}, short_rows{dest.data(), 2};
  for (const ccl::MaskView* bad : {&no_data, &short_rows}) {
    try {
      a->submit(corecheck::view(f), corecheck::opts(8), nullptr, bad);
      ADD_FAILURE() << "accepted";
      ccl::Result r;
      a->collect(r);
    } catch (const ccl::Error& e) {
      EXPECT_EQ(e.kind(), ccl::Error::Kind::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("mask destination"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
