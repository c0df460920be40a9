// The CPU backend against the flood-fill oracle: result (bit-exact centroids) and label map, on
// random frames of every density and granularity, every small size, primes, thin frames,
// adversarial shapes, padded strides, both connectivities, thresholds, filters and order=area.
#include <gtest/gtest.h>

#include "core_check.hpp"

namespace {

using corecheck::opts;
using corecheck::Tally;

std::unique_ptr<ccl::Analyzer> cpu() { return ccl::make_cpu_analyzer(); }

TEST(CpuVsOracle, DensityByGranularity) {
  auto a = cpu();
  Tally t("DensityByGranularity");
  for (int d = 0; d <= 100; d += 5)
    for (int g = 1; g <= 16; ++g)
      for (int conn : {4, 8})
        t.check(*a, frames::random(67, 53, d, g, 1000u + 31u * d + g), opts(conn));
}

TEST(CpuVsOracle, DensityFineSteps) {
  auto a = cpu();
  Tally t("DensityFineSteps");
  for (int d = 0; d <= 100; ++d)
    for (int conn : {4, 8}) t.check(*a, frames::random(128, 96, d, 1, 7000u + d), opts(conn));
}

TEST(CpuVsOracle, EverySizeUpTo40) {
  auto a = cpu();
  Tally t("EverySizeUpTo40");
  for (int h = 1; h <= 40; ++h)
    for (int w = 1; w <= 40; ++w)
      for (int d : {30, 55, 80}) {
        const frames::Frame f = frames::random(w, h, d, 1, std::uint32_t(w * 7919 + h * 104729 + d));
        for (int conn : {4, 8}) t.check(*a, f, opts(conn));
      }
}

TEST(CpuVsOracle, PrimeSizes) {
  auto a = cpu();
  Tally t("PrimeSizes");
  const int sizes[][2] = {{97, 89}, {1, 127}, {127, 1}, {251, 241}, {2, 131}, {131, 2}, {3, 509}, {509, 3},
                          {61, 67}, {1021, 7}, {7, 1021}, {13, 17}};
  for (const auto& s : sizes)
    for (int d : {10, 35, 50, 65, 90})
      for (int g : {1, 3})
        for (int conn : {4, 8}) t.check(*a, frames::random(s[0], s[1], d, g, std::uint32_t(s[0] * 31 + s[1] + d + g)), opts(conn));
}

TEST(CpuVsOracle, ThinFrames) {
  auto a = cpu();
  Tally t("ThinFrames");
  for (int n = 1; n <= 300; ++n)
    for (int d : {25, 50, 75})
      for (int conn : {4, 8}) {
        t.check(*a, frames::random(1, n, d, 1, std::uint32_t(n * 3 + d)), opts(conn));
        t.check(*a, frames::random(n, 1, d, 1, std::uint32_t(n * 5 + d)), opts(conn));
      }
  for (int n : {1000, 4096, 4099, 65535})
    for (int conn : {4, 8}) {
      t.check(*a, frames::random(1, n, 50, 1, std::uint32_t(n)), opts(conn));
      t.check(*a, frames::random(n, 1, 50, 1, std::uint32_t(n + 1)), opts(conn));
      t.check(*a, frames::random(2, n, 50, 1, std::uint32_t(n + 2)), opts(conn));
      t.check(*a, frames::random(n, 2, 50, 1, std::uint32_t(n + 3)), opts(conn));
    }
}

TEST(CpuVsOracle, Adversarial) {
  auto a = cpu();
  Tally t("Adversarial");
  const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127};
  for (int h : sizes)
    for (int w : sizes)
      for (const auto& f : corecheck::adversarial(w, h))
        for (int conn : {4, 8}) t.check(*a, f, opts(conn));
  for (const auto& f : corecheck::adversarial(509, 383))
    for (int conn : {4, 8}) t.check(*a, f, opts(conn));
}

TEST(CpuVsOracle, PaddedStridesWithGarbage) {
  auto a = cpu();
  Tally t("PaddedStridesWithGarbage");
  std::uint32_t seed = 1;
  for (int pad : {1, 2, 3, 7, 13, 64, 61})
    for (const auto& s : {std::pair{1, 1}, std::pair{1, 37}, std::pair{37, 1}, std::pair{33, 29},
                          std::pair{64, 64}, std::pair{97, 89}})
      for (int d : {20, 50, 80, 100})
        for (int g : {1, 4})
          for (int conn : {4, 8})
            for (std::uint8_t thr : {0, 127}) {
              const frames::Frame base = frames::random(s.first, s.second, d, g, seed++, 0, thr != 0);
              t.check(*a, corecheck::repad(base, pad, seed++), opts(conn, thr));
            }
  // the shared generators' own padding (0xA5) and the adversarial shapes with padding
  for (int pad : {1, 5, 64})
    for (int w : {1, 3, 16, 31})
      for (int h : {1, 2, 17})
        for (const auto& f : corecheck::adversarial(w, h, pad))
          for (int conn : {4, 8}) {
            t.check(*a, f, opts(conn));
            t.check(*a, corecheck::repad(f, pad, seed++), opts(conn));
          }
}

TEST(CpuVsOracle, Thresholds) {
  auto a = cpu();
  Tally t("Thresholds");
  std::uint32_t seed = 500;
  for (std::uint8_t thr : {0, 1, 127, 254, 255})
    for (int conn : {4, 8}) {
      for (int d : {10, 50, 90, 100})
        for (int g : {1, 2, 5}) t.check(*a, frames::random(71, 43, d, g, seed++, 0, true), opts(conn, thr));
      for (int s = 0; s < 6; ++s) t.check(*a, corecheck::gray_noise(59 + s, 41, seed++), opts(conn, thr));
      t.check(*a, corecheck::gray_noise(1, 200, seed++), opts(conn, thr));
      t.check(*a, corecheck::gray_noise(200, 1, seed++), opts(conn, thr));
      t.check(*a, corecheck::gray_noise(64, 64, seed++, 11), opts(conn, thr));
    }
  // every threshold on one gray frame
  const frames::Frame f = corecheck::gray_noise(48, 37, 99, 3);
  for (int thr = 0; thr <= 255; ++thr) t.check(*a, f, opts(8, std::uint8_t(thr)));
}

TEST(CpuVsOracle, ThresholdHandDrawn) {
  // value 10*digit: with threshold 45 only digits >= 5 (and '#') are foreground
  const frames::Frame f = corecheck::drawn("digits", {"9.4#",
                                                      "5.5.",
                                                      "4..6"});
  auto a = cpu();
  ccl::Result r;
  a->run(corecheck::view(f), opts(4, 45), r);
  // 4-connectivity, foreground: (0,0) (0,1) | (3,0) | (2,1) | (3,2) -> 4 components
  ASSERT_EQ(r.n_components_total, 4u);
  ASSERT_EQ(r.components.size(), 4u);
  EXPECT_EQ(r.components[0].area, 2u);
  EXPECT_EQ(r.components[0].x, 0); EXPECT_EQ(r.components[0].y, 0);
  EXPECT_EQ(r.components[0].height, 2);
  EXPECT_EQ(r.components[1].x, 3); EXPECT_EQ(r.components[1].y, 0);
  EXPECT_EQ(r.components[2].x, 2); EXPECT_EQ(r.components[2].y, 1);
  EXPECT_EQ(r.components[3].x, 3); EXPECT_EQ(r.components[3].y, 2);
  // 8-connectivity: (3,0)-(2,1)-(3,2) join -> 2 components
  a->run(corecheck::view(f), opts(8, 45), r);
  ASSERT_EQ(r.n_components_total, 2u);
  EXPECT_EQ(r.components[1].area, 3u);
  EXPECT_EQ(r.components[1].centroid_x, 8.0 / 3.0);
  EXPECT_EQ(r.components[1].centroid_y, 1.0);
  // threshold 255: nothing is foreground
  a->run(corecheck::view(f), opts(8, 255), r);
  EXPECT_EQ(r.n_components_total, 0u);
  EXPECT_TRUE(r.components.empty());
}

TEST(CpuVsOracle, Filters) {
  auto a = cpu();
  Tally t("Filters");
  std::uint32_t seed = 900;
  for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area})
    for (int conn : {4, 8})
      for (int d : {15, 45, 70})
        for (int g : {1, 3}) {
          const frames::Frame f = frames::random(83, 61, d, g, seed++);
          struct F { std::uint32_t min, max, objects; };
          const F filters[] = {{0, ccl::kUnlimited, ccl::kUnlimited}, {2, ccl::kUnlimited, ccl::kUnlimited},
                               {5, ccl::kUnlimited, ccl::kUnlimited}, {0, 1, ccl::kUnlimited},
                               {0, 4, ccl::kUnlimited}, {3, 9, ccl::kUnlimited}, {4, 4, ccl::kUnlimited},
                               {10, 2, ccl::kUnlimited},  // empty range
                               {0, ccl::kUnlimited, 0}, {0, ccl::kUnlimited, 1}, {0, ccl::kUnlimited, 7},
                               {2, 20, 0}, {2, 20, 1}, {2, 20, 5}, {1000000, ccl::kUnlimited, 0},
                               {0, ccl::kUnlimited, 100000}};
          for (const F& flt : filters) {
            ccl::Options o = opts(conn);
            o.order = order;
            o.min_area = flt.min; o.max_area = flt.max; o.max_objects = flt.objects;
            t.check(*a, f, o);
          }
        }
}

TEST(CpuVsOracle, FiltersHandDrawn) {
  // 4-connectivity components in raster order of first pixel:
  //  1: (0,0) area 3 (L shape)   2: (3,0) area 1   3: (5,0) area 4 (column)   4: (2,2) area 2
  const frames::Frame f = corecheck::drawn("filters", {"##.#.#",
                                                       "#....#",
                                                       "..##.#",
                                                       ".....#"});
  auto a = cpu();
  ccl::Options o = opts(4);
  ccl::Result r;

  o.min_area = 2; o.max_area = 3;
  a->run(corecheck::view(f), o, r);
  EXPECT_EQ(r.n_components_total, 4u);
  EXPECT_FALSE(r.truncated);
  ASSERT_EQ(r.components.size(), 2u);
  EXPECT_EQ(r.components[0].label, 1u); EXPECT_EQ(r.components[0].area, 3u);
  EXPECT_EQ(r.components[1].label, 4u); EXPECT_EQ(r.components[1].area, 2u);

  o.min_area = 2; o.max_area = ccl::kUnlimited; o.max_objects = 1;
  a->run(corecheck::view(f), o, r);
  EXPECT_TRUE(r.truncated);
  ASSERT_EQ(r.components.size(), 1u);
  EXPECT_EQ(r.components[0].label, 1u);

  o.order = ccl::Order::Area; o.min_area = 0; o.max_objects = 2;
  a->run(corecheck::view(f), o, r);  // area order: 4 (lbl1), 3 (lbl2), 2 (lbl3), 1 (lbl4)
  EXPECT_TRUE(r.truncated);
  ASSERT_EQ(r.components.size(), 2u);
  EXPECT_EQ(r.components[0].label, 1u); EXPECT_EQ(r.components[0].x, 5); EXPECT_EQ(r.components[0].area, 4u);
  EXPECT_EQ(r.components[1].label, 2u); EXPECT_EQ(r.components[1].x, 0); EXPECT_EQ(r.components[1].area, 3u);

  o.max_objects = 4;  // exactly all: not truncated
  a->run(corecheck::view(f), o, r);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.components.size(), 4u);

  o.max_objects = 0;
  a->run(corecheck::view(f), o, r);
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(r.components.empty());
  EXPECT_EQ(r.n_components_total, 4u);

  o.max_objects = 0; o.min_area = 100;  // nothing passes the filter: nothing was cut
  a->run(corecheck::view(f), o, r);
  EXPECT_FALSE(r.truncated);
  EXPECT_TRUE(r.components.empty());
}

TEST(CpuVsOracle, OrderAreaTies) {
  auto a = cpu();
  Tally t("OrderAreaTies");
  // many equal areas: single pixels, dominoes, 2x2 blocks on a sparse grid
  std::uint32_t seed = 4242;
  for (int conn : {4, 8})
    for (int g : {1, 2, 3})
      for (int d : {5, 20, 40}) {
        ccl::Options o = opts(conn);
        o.order = ccl::Order::Area;
        t.check(*a, frames::random(90, 70, d, g, seed++), o);
        o.max_objects = 3;
        t.check(*a, frames::random(90, 70, d, g, seed++), o);
      }
  for (const auto& f : corecheck::adversarial(23, 19))
    for (int conn : {4, 8}) {
      ccl::Options o = opts(conn);
      o.order = ccl::Order::Area;
      t.check(*a, f, o);
    }

  // by hand: areas 1, 2, 1, 2 in raster order -> area order = 2 (first 2), 4, 1, 3
  const frames::Frame f = corecheck::drawn("ties", {"#.##.#.##"});
  ccl::Options o = opts(8);
  o.order = ccl::Order::Area;
  std::vector<std::uint32_t> labels(9, 0);
  ccl::LabelView lv{labels.data(), 9};
  ccl::Result r;
  a->run(corecheck::view(f), o, r, &lv);
  ASSERT_EQ(r.components.size(), 4u);
  const int want_x[] = {2, 7, 0, 5};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r.components[i].label, std::uint32_t(i + 1));
    EXPECT_EQ(r.components[i].x, want_x[i]) << i;
  }
  EXPECT_EQ(labels, (std::vector<std::uint32_t>{3, 0, 1, 1, 0, 4, 0, 2, 2}));
}

TEST(CpuVsOracle, LargerFrames) {
  auto a = cpu();
  Tally t("LargerFrames");
  for (int conn : {4, 8}) {
    t.check(*a, frames::random(1024, 768, 50, 1, 1), opts(conn));
    t.check(*a, frames::random(1023, 769, 60, 4, 2, 5), opts(conn));
    t.check(*a, frames::random(777, 1025, 45, 16, 3), opts(conn));
    t.check(*a, frames::spiral(1001, 999), opts(conn));
    t.check(*a, frames::checkerboard(1024, 1024), opts(conn));  // 4-conn: 524288 components
    t.check(*a, frames::random(16384, 5, 50, 1, 4), opts(conn));  // the contract's largest side
    t.check(*a, frames::random(5, 16384, 50, 1, 5), opts(conn));
  }
  t.check(*a, frames::random(4096, 4096, 50, 1, 6), opts(8));
  t.check(*a, frames::random(4096, 4096, 60, 1, 7), opts(4));
}

// Random sizes, paddings, thresholds and every option at once; a wide net for what the
// structured tests above do not combine.
TEST(CpuVsOracle, RandomizedOptions) {
  auto a = cpu();
  Tally t("RandomizedOptions");
  std::mt19937 rng(20261121);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 4000; ++i) {
    const int w = pick(0, 3) ? pick(1, 80) : pick(1, 300), h = pick(0, 3) ? pick(1, 80) : pick(1, 300);
    const int pad = pick(0, 2) ? 0 : pick(1, 9);
    const bool gray = pick(0, 1);
    // one draw per statement: argument evaluation order is unspecified, the case list must not be
    const bool noise = pick(0, 5) == 0;
    const int density = pick(0, 100);
    const int g = pick(1, 6);
    const std::uint32_t seed = rng(), pad_seed = rng();
    frames::Frame f = noise ? corecheck::gray_noise(w, h, seed) : frames::random(w, h, density, g, seed, 0, gray);
    if (pad) f = corecheck::repad(f, pad, pad_seed);
    const int conn = pick(0, 1) ? 8 : 4;
    const int thr = pick(0, 255);
    ccl::Options o = opts(conn, gray || noise ? std::uint8_t(thr) : 0);
    o.order = pick(0, 1) ? ccl::Order::Area : ccl::Order::Raster;
    if (pick(0, 2) == 0) o.min_area = std::uint32_t(pick(0, 12));
    if (pick(0, 2) == 0) o.max_area = std::uint32_t(pick(0, 40));
    if (pick(0, 2) == 0) o.max_objects = std::uint32_t(pick(0, 20));
    t.check(*a, f, o);
  }
}

}  // namespace
