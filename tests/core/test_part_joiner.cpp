// ccl::PartJoiner on hand-made frames of solid rectangles: each rectangle's statistics written out
// by the formulas of a rectangle (not by the code under test), each expected list by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ccl/part_joiner.hpp"
#include "component_check.hpp"

namespace {

// The component of a solid w x h rectangle at (x, y): its centroid is its centre.
ccl::Component rect(std::uint32_t label, int x, int y, int w, int h) {
  return {label, std::uint32_t(w * h), x, y, w, h, x + (w - 1) / 2.0, y + (h - 1) / 2.0};
}

ccl::Result frame(std::vector<ccl::Component> parts, int width = 200, int height = 100) {
  ccl::Result r;
  r.width = width, r.height = height;
  r.n_components_total = std::uint32_t(parts.size() + 3);  // pretend three were filtered out
  r.components = std::move(parts);
  return r;
}

std::vector<ccl::Component> join(ccl::PartJoiner& joiner, std::vector<ccl::Component> parts,
                                 ccl::Order order = ccl::Order::Raster, std::uint32_t max_objects = ccl::kUnlimited,
                                 bool* truncated = nullptr) {
  ccl::Result r = frame(std::move(parts));
  const std::uint32_t total = r.n_components_total;
  joiner.join(r, order, max_objects);
  EXPECT_EQ(r.n_components_total, total) << "counted before filtering: joining leaves it";
  if (truncated) *truncated = r.truncated;
  return r.components;
}

TEST(PartJoiner, FirstFrameComesOutAsItCame) {
  ccl::PartJoiner joiner;
  const std::vector<ccl::Component> parts{rect(1, 10, 10, 9, 10), rect(2, 21, 10, 9, 10)};
  const std::vector<ccl::Component> out = join(joiner, parts);
  ASSERT_EQ(out.size(), 2u) << "nothing followed yet: nothing joined";
  EXPECT_EQ(std::memcmp(out.data(), parts.data(), sizeof(ccl::Component) * 2), 0);
}

TEST(PartJoiner, HalvesOfTheObjectBeforeAreOne) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 10, 10, 20, 10)});
  // Moved 2 px right, cut by a 2 px gap: columns 12..20 and 23..31, rows 10..19.
  const std::vector<ccl::Component> out = join(joiner, {rect(4, 12, 10, 9, 10), rect(6, 23, 10, 9, 10)});
  ASSERT_EQ(out.size(), 1u);
  // x sums 10 * (12 + ... + 20) = 1440 and 10 * (23 + ... + 31) = 2430: 3870 / 180.
  expect_component(out[0], 4, 180, 12, 10, 20, 10, 21.5, 14.5);
}

TEST(PartJoiner, EachObjectJoinsOnlyItsOwnParts) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 10, 10, 20, 10), rect(2, 60, 12, 20, 10)});
  const std::vector<ccl::Component> out =
      join(joiner, {rect(1, 10, 10, 9, 10), rect(2, 21, 10, 9, 10), rect(3, 60, 12, 9, 10), rect(4, 71, 12, 9, 10)});
  ASSERT_EQ(out.size(), 2u);
  // x sums 10 * (10..18) = 1260 and 10 * (21..29) = 2250; 10 * (60..68) = 5760 and 10 * (71..79) = 6750.
  expect_component(out[0], 1, 180, 10, 10, 20, 10, 19.5, 14.5);
  expect_component(out[1], 3, 180, 60, 12, 20, 10, 69.5, 16.5);
}

TEST(PartJoiner, PartsThatFillLittleOfTheirBoxStayApart) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 0, 0, 20, 20)});
  // Two 9 x 9 diagonal corners: 162 of the joined 400 px box (under 70 %), each spanning 9 of its
  // 20 rows and columns (under 60 %).
  const std::vector<ccl::Component> out = join(joiner, {rect(1, 0, 0, 9, 9), rect(2, 11, 11, 9, 9)});
  ASSERT_EQ(out.size(), 2u);
  expect_component(out[0], 1, 81, 0, 0, 9, 9, 4, 4);
  expect_component(out[1], 2, 81, 11, 11, 9, 9, 15, 15);
}

TEST(PartJoiner, ThinStripesSideBySideAreOne) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 10, 10, 40, 20)});
  // Three 4 px stripes, full height: 240 of the joined 800 px box, but side by side.
  std::vector<ccl::Component> out =
      join(joiner, {rect(1, 10, 10, 4, 20), rect(2, 28, 10, 4, 20), rect(3, 46, 10, 4, 20)});
  ASSERT_EQ(out.size(), 1u);
  // x sums 20 * (10..13) = 920, 20 * (28..31) = 2360, 20 * (46..49) = 3800: 7080 / 240.
  expect_component(out[0], 1, 240, 10, 10, 40, 20, 29.5, 19.5);
  // Stacked bands, full width: joined too.
  out = join(joiner, {rect(1, 10, 10, 40, 4), rect(2, 10, 26, 40, 4)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].height, 20);
  // Half as tall as their joined box and offset: neither side by side nor stacked, 25 % filled.
  out = join(joiner, {rect(1, 10, 10, 10, 10), rect(2, 40, 20, 10, 10)});
  EXPECT_EQ(out.size(), 2u);
}

TEST(PartJoiner, TwoObjectsThatMetPartAsTwo) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 0, 0, 20, 20), rect(2, 30, 0, 20, 20)});
  ASSERT_EQ(join(joiner, {rect(1, 5, 0, 40, 20)}).size(), 1u) << "touching: one component, as labelled";
  // They part, side by side: 800 of the joined 880 px box, but the box they come from was two.
  const std::vector<ccl::Component> out = join(joiner, {rect(1, 3, 0, 20, 20), rect(2, 27, 0, 20, 20)});
  ASSERT_EQ(out.size(), 2u);
  expect_component(out[0], 1, 400, 3, 0, 20, 20, 12.5, 9.5);
  expect_component(out[1], 2, 400, 27, 0, 20, 20, 36.5, 9.5);
  // And the object the larger part carries on is one object again: its halves join.
  const std::vector<ccl::Component> later = join(joiner, {rect(1, 1, 0, 9, 20), rect(2, 12, 0, 9, 20)});
  ASSERT_EQ(later.size(), 1u) << "a part of two that met is one object again once they parted";
}

TEST(PartJoiner, FollowsTheObjectsStep) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 0, 40, 20, 10)});
  join(joiner, {rect(1, 6, 40, 20, 10)});  // 6 px a frame
  // At 12 px: halves 12..21 and 23..32. Unmoved, the box (2..29 with its margin) would hold only
  // 7 of the right half's 10 columns; moved by the step it holds both.
  const std::vector<ccl::Component> out = join(joiner, {rect(1, 12, 40, 10, 10), rect(2, 23, 40, 10, 10)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].x, 12);
  EXPECT_EQ(out[0].width, 21);
}

TEST(PartJoiner, ResetForgetsTheObjects) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 10, 10, 20, 10)});
  joiner.reset();
  EXPECT_EQ(join(joiner, {rect(4, 12, 10, 9, 10), rect(6, 23, 10, 9, 10)}).size(), 2u);
}

TEST(PartJoiner, APartAcrossTwoObjectsIsItsOwn) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 0, 0, 20, 20), rect(2, 40, 0, 20, 20)});
  // A part half in each object's box, and the first object's own part.
  const std::vector<ccl::Component> out = join(joiner, {rect(1, 0, 0, 9, 20), rect(2, 14, 0, 30, 20)});
  ASSERT_EQ(out.size(), 2u);
  expect_component(out[0], 1, 180, 0, 0, 9, 20, 4, 9.5);
  expect_component(out[1], 2, 600, 14, 0, 30, 20, 28.5, 9.5);
}

TEST(PartJoiner, AreaOrderAndMaxObjectsCountJoinedObjects) {
  ccl::PartJoiner joiner;
  join(joiner, {rect(1, 0, 0, 20, 10), rect(2, 50, 0, 15, 10), rect(3, 100, 0, 5, 5)}, ccl::Order::Area);
  // In area order the parts come 1 (the 150 px one), 2 and 3 (halves of the first, 90 each), 4.
  const std::vector<ccl::Component> parts{rect(1, 50, 0, 15, 10), rect(2, 0, 0, 9, 10), rect(3, 11, 0, 9, 10),
                                          rect(4, 100, 0, 5, 5)};
  bool truncated = true;
  std::vector<ccl::Component> out = join(joiner, parts, ccl::Order::Area, ccl::kUnlimited, &truncated);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(truncated);
  expect_component(out[0], 2, 180, 0, 0, 20, 10, 9.5, 4.5);  // x sums 10 * (0..8) = 360, 10 * (11..19) = 1350
  expect_component(out[1], 1, 150, 50, 0, 15, 10, 57, 4.5);
  expect_component(out[2], 4, 25, 100, 0, 5, 5, 102, 2);

  ccl::PartJoiner cut;
  join(cut, {rect(1, 0, 0, 20, 10), rect(2, 50, 0, 15, 10), rect(3, 100, 0, 5, 5)});
  out = join(cut, {rect(1, 0, 0, 9, 10), rect(2, 11, 0, 9, 10), rect(3, 50, 0, 15, 10), rect(4, 100, 0, 5, 5)},
             ccl::Order::Raster, 2, &truncated);
  ASSERT_EQ(out.size(), 2u) << "max-objects counts the joined objects";
  EXPECT_TRUE(truncated);
  EXPECT_EQ(out[0].label, 1u);
  EXPECT_EQ(out[0].area, 180u);
  EXPECT_EQ(out[1].label, 3u);
  out = join(cut, {rect(1, 0, 0, 9, 10), rect(2, 11, 0, 9, 10), rect(3, 50, 0, 15, 10)}, ccl::Order::Raster, 2,
             &truncated);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_FALSE(truncated) << "two objects fit in two";
}

// Many objects over a 1280 x 720 frame, each cut in two every other frame and moving: every one
// comes out whole, wherever it lies on the joiner's grid.
TEST(PartJoiner, ManyMovingObjectsOverTheFrame) {
  ccl::PartJoiner joiner;
  for (int f = 0; f < 12; ++f) {
    std::vector<ccl::Component> parts, whole;
    std::uint32_t label = 1;
    for (int row = 0; row < 10; ++row)
      for (int col = 0; col < 20; ++col) {
        const int x = col * 64 + 3 * f, y = row * 70 + (f % 3);
        whole.push_back(rect(std::uint32_t(whole.size() + 1), x, y, 30, 24));
        if (f % 2 == 0) {
          parts.push_back(rect(label++, x, y, 30, 24));
        } else {  // rows y..y+10 and y+13..y+23: stacked halves
          parts.push_back(rect(label++, x, y, 30, 11));
          parts.push_back(rect(label++, x, y + 13, 30, 11));
        }
      }
    ccl::Result r = frame(parts, 1280, 720);
    joiner.join(r, ccl::Order::Raster, ccl::kUnlimited);
    ASSERT_EQ(r.components.size(), whole.size()) << "frame " << f;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      const ccl::Component& c = r.components[i];
      EXPECT_EQ(c.x, whole[i].x) << "frame " << f << " object " << i;
      EXPECT_EQ(c.y, whole[i].y) << "frame " << f << " object " << i;
      EXPECT_EQ(c.width, 30);
      EXPECT_EQ(c.height, 24);
      EXPECT_EQ(c.area, f % 2 ? 660u : 720u);
    }
  }
}

}  // namespace
