// One component's every field against values written out by hand, for tests of the host steps
// that make component lists (finalize, the part joiner).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "ccl/types.hpp"

inline void expect_component(const ccl::Component& c, std::uint32_t label, std::uint32_t area, int x, int y, int w,
                             int h, double cx, double cy) {
  EXPECT_EQ(c.label, label);
  EXPECT_EQ(c.area, area) << "label " << label;
  EXPECT_EQ(c.x, x) << "label " << label;
  EXPECT_EQ(c.y, y) << "label " << label;
  EXPECT_EQ(c.width, w) << "label " << label;
  EXPECT_EQ(c.height, h) << "label " << label;
  EXPECT_EQ(c.centroid_x, cx) << "label " << label;
  EXPECT_EQ(c.centroid_y, cy) << "label " << label;
}
