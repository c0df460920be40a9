// ccl::finalize on hand-built statistics; every expected value is written out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "ccl/finalize.hpp"
#include "component_check.hpp"

namespace {

ccl::ComponentStats stats(std::uint32_t area, int x0, int y0, int x1, int y1, std::uint64_t sx, std::uint64_t sy) {
  ccl::ComponentStats s;
  s.area = area;
  s.left = std::uint32_t(x0); s.top = std::uint32_t(y0); s.right = std::uint32_t(x1); s.bottom = std::uint32_t(y1);
  s.sum_x = sx; s.sum_y = sy;
  return s;
}

// Raster-ordered components of a made-up frame:
//   0: area 3, box (0,0)-(1,1), sums x 1, y 1
//   1: area 1, box (5,0)-(5,0), sums x 5, y 0
//   2: area 6, box (2,2)-(4,3), sums x 18, y 15
//   3: area 3, box (7,1)-(7,3), sums x 21, y 6
//   4: area 2, box (0,4)-(1,4), sums x 1, y 8
std::vector<ccl::ComponentStats> five() {
  return {stats(3, 0, 0, 1, 1, 1, 1), stats(1, 5, 0, 5, 0, 5, 0), stats(6, 2, 2, 4, 3, 18, 15),
          stats(3, 7, 1, 7, 3, 21, 6), stats(2, 0, 4, 1, 4, 1, 8)};
}

TEST(Finalize, Empty) {
  ccl::Result r;
  r.truncated = true;
  r.n_components_total = 9;
  r.components.resize(4);
  std::vector<std::uint32_t> final_label{5, 5};
  ccl::finalize({}, ccl::Options{}, r, &final_label);
  EXPECT_EQ(r.n_components_total, 0u);
  EXPECT_FALSE(r.truncated);
  EXPECT_TRUE(r.components.empty());
  EXPECT_TRUE(final_label.empty());
}

TEST(Finalize, RasterOrderAllStatistics) {
  ccl::Result r;
  std::vector<std::uint32_t> final_label;
  ccl::finalize(five(), ccl::Options{}, r, &final_label);
  EXPECT_EQ(r.n_components_total, 5u);
  EXPECT_FALSE(r.truncated);
  ASSERT_EQ(r.components.size(), 5u);
  expect_component(r.components[0], 1, 3, 0, 0, 2, 2, 1.0 / 3.0, 1.0 / 3.0);
  expect_component(r.components[1], 2, 1, 5, 0, 1, 1, 5.0, 0.0);
  expect_component(r.components[2], 3, 6, 2, 2, 3, 2, 3.0, 2.5);
  expect_component(r.components[3], 4, 3, 7, 1, 1, 3, 7.0, 2.0);
  expect_component(r.components[4], 5, 2, 0, 4, 2, 1, 0.5, 4.0);
  EXPECT_EQ(final_label, (std::vector<std::uint32_t>{1, 2, 3, 4, 5}));
}

TEST(Finalize, AreaOrderTiesKeepRasterOrder) {
  ccl::Options o;
  o.order = ccl::Order::Area;
  ccl::Result r;
  std::vector<std::uint32_t> final_label;
  ccl::finalize(five(), o, r, &final_label);
  // areas 3,1,6,3,2 -> ranks: #2 (6), #0 (3), #3 (3), #4 (2), #1 (1)
  ASSERT_EQ(r.components.size(), 5u);
  expect_component(r.components[0], 1, 6, 2, 2, 3, 2, 3.0, 2.5);
  expect_component(r.components[1], 2, 3, 0, 0, 2, 2, 1.0 / 3.0, 1.0 / 3.0);
  expect_component(r.components[2], 3, 3, 7, 1, 1, 3, 7.0, 2.0);
  expect_component(r.components[3], 4, 2, 0, 4, 2, 1, 0.5, 4.0);
  expect_component(r.components[4], 5, 1, 5, 0, 1, 1, 5.0, 0.0);
  EXPECT_EQ(final_label, (std::vector<std::uint32_t>{2, 5, 1, 3, 4}));
}

TEST(Finalize, AllEqualAreasInAreaOrderStayRaster) {
  std::vector<ccl::ComponentStats> v;
  for (int i = 0; i < 40; ++i) v.push_back(stats(4, i, 0, i, 3, 4u * i, 6));
  ccl::Options o;
  o.order = ccl::Order::Area;
  ccl::Result r;
  std::vector<std::uint32_t> final_label;
  ccl::finalize(v, o, r, &final_label);
  ASSERT_EQ(r.components.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(r.components[i].label, std::uint32_t(i + 1));
    EXPECT_EQ(r.components[i].x, i);
    EXPECT_EQ(final_label[i], std::uint32_t(i + 1));
  }
}

TEST(Finalize, MinArea) {
  ccl::Options o;
  o.min_area = 3;
  ccl::Result r;
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.n_components_total, 5u);
  EXPECT_FALSE(r.truncated);
  ASSERT_EQ(r.components.size(), 3u);
  EXPECT_EQ(r.components[0].label, 1u);  // labels are counted before filtering
  EXPECT_EQ(r.components[1].label, 3u);
  EXPECT_EQ(r.components[2].label, 4u);
}

TEST(Finalize, MaxArea) {
  ccl::Options o;
  o.max_area = 2;
  ccl::Result r;
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.n_components_total, 5u);
  ASSERT_EQ(r.components.size(), 2u);
  EXPECT_EQ(r.components[0].label, 2u);
  EXPECT_EQ(r.components[0].area, 1u);
  EXPECT_EQ(r.components[1].label, 5u);
  EXPECT_EQ(r.components[1].area, 2u);
}

TEST(Finalize, MinAndMaxAreaInclusive) {
  ccl::Options o;
  o.min_area = 2;
  o.max_area = 3;
  ccl::Result r;
  ccl::finalize(five(), o, r);
  ASSERT_EQ(r.components.size(), 3u);
  EXPECT_EQ(r.components[0].label, 1u);
  EXPECT_EQ(r.components[1].label, 4u);
  EXPECT_EQ(r.components[2].label, 5u);

  o.min_area = 4;  // min > max: nothing
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.n_components_total, 5u);
  EXPECT_TRUE(r.components.empty());
  EXPECT_FALSE(r.truncated);
}

TEST(Finalize, MaxObjects) {
  ccl::Options o;
  ccl::Result r;

  o.max_objects = 0;
  ccl::finalize(five(), o, r);
  EXPECT_TRUE(r.components.empty());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.n_components_total, 5u);

  o.max_objects = 1;
  ccl::finalize(five(), o, r);
  ASSERT_EQ(r.components.size(), 1u);
  EXPECT_EQ(r.components[0].label, 1u);
  EXPECT_TRUE(r.truncated);

  o.max_objects = 4;
  ccl::finalize(five(), o, r);
  ASSERT_EQ(r.components.size(), 4u);
  EXPECT_EQ(r.components[3].label, 4u);
  EXPECT_TRUE(r.truncated);

  o.max_objects = 5;  // exactly all: nothing cut
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.components.size(), 5u);
  EXPECT_FALSE(r.truncated);

  o.max_objects = 6;
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.components.size(), 5u);
  EXPECT_FALSE(r.truncated);
}

TEST(Finalize, MaxObjectsAppliesAfterAreaFilters) {
  ccl::Options o;
  o.min_area = 3;     // keeps raster #0, #2, #3
  o.max_objects = 3;  // all three fit: not truncated although n_components_total is 5
  ccl::Result r;
  ccl::finalize(five(), o, r);
  EXPECT_EQ(r.components.size(), 3u);
  EXPECT_FALSE(r.truncated);

  o.max_objects = 2;
  ccl::finalize(five(), o, r);
  ASSERT_EQ(r.components.size(), 2u);
  EXPECT_EQ(r.components[0].label, 1u);
  EXPECT_EQ(r.components[1].label, 3u);
  EXPECT_TRUE(r.truncated);

  o.min_area = 7;  // nothing passes: max_objects 0 cuts nothing
  o.max_objects = 0;
  ccl::finalize(five(), o, r);
  EXPECT_TRUE(r.components.empty());
  EXPECT_FALSE(r.truncated);
}

TEST(Finalize, MaxObjectsInAreaOrder) {
  ccl::Options o;
  o.order = ccl::Order::Area;
  o.max_area = 3;     // drops the area-6 component (label 1 in area order)
  o.max_objects = 2;  // keeps labels 2 and 3 (areas 3, 3), cuts 4 and 5
  ccl::Result r;
  std::vector<std::uint32_t> final_label;
  ccl::finalize(five(), o, r, &final_label);
  ASSERT_EQ(r.components.size(), 2u);
  expect_component(r.components[0], 2, 3, 0, 0, 2, 2, 1.0 / 3.0, 1.0 / 3.0);
  expect_component(r.components[1], 3, 3, 7, 1, 1, 3, 7.0, 2.0);
  EXPECT_TRUE(r.truncated);
  // the label map numbering ignores filters
  EXPECT_EQ(final_label, (std::vector<std::uint32_t>{2, 5, 1, 3, 4}));
}

TEST(Finalize, SixtyFourBitSums) {
  // A full 65535 x 65535 frame: area 65535^2 = 4294836225 fits in 32 bits, the sums do not:
  // sum_x = sum_y = 65535 * (65534 * 65535 / 2) = 65535 * 2147385345 = 140728898584575.
  ccl::ComponentStats s = stats(4294836225u, 0, 0, 65534, 65534, 140728898584575ull, 140728898584575ull);
  ccl::Result r;
  ccl::finalize({s}, ccl::Options{}, r);
  ASSERT_EQ(r.components.size(), 1u);
  expect_component(r.components[0], 1, 4294836225u, 0, 0, 65535, 65535, 32767.0, 32767.0);

  // One row of 65535 pixels at y = 65534: sum_x = 2147385345, sum_y = 65534 * 65535 = 4294770690.
  s = stats(65535, 0, 65534, 65534, 65534, 2147385345ull, 4294770690ull);
  ccl::finalize({s}, ccl::Options{}, r);
  ASSERT_EQ(r.components.size(), 1u);
  expect_component(r.components[0], 1, 65535, 0, 65534, 65535, 1, 32767.0, 65534.0);
}

TEST(Finalize, ResultIsResetBetweenCalls) {
  ccl::Options o;
  o.max_objects = 1;
  ccl::Result r;
  ccl::finalize(five(), o, r);
  ASSERT_TRUE(r.truncated);
  ccl::finalize({stats(1, 3, 3, 3, 3, 3, 3)}, ccl::Options{}, r);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.n_components_total, 1u);
  ASSERT_EQ(r.components.size(), 1u);
  expect_component(r.components[0], 1, 1, 3, 3, 1, 1, 3.0, 3.0);
}

}  // namespace
