// ccloverlay draws cclanalytics' GstCclSceneMeta: on a black RGBA frame the line's pixels turn
// yellow, its arrow points to the forward side only, the counts sit on both sides, the zone's
// outline is cyan (red while overcrowded) and pixels away from them stay black.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/gst.h>

#include <cstring>

#include "ccl_scene_meta.h"
#include "element_check.hpp"

namespace {

constexpr int kSize = 100;

struct Rgb {
  int r, g, b;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};
const Rgb kBlack{0, 0, 0}, kYellow{255, 255, 0}, kCyan{0, 255, 255}, kRed{255, 0, 0};

class Drawn {
 public:
  explicit Drawn(const CclScene& scene) {
    elcheck::init();
    GstHarness* h = gst_harness_new("ccloverlay");
    gst_harness_set_src_caps_str(h, "video/x-raw,format=RGBA,width=100,height=100,framerate=1/1");
    GstBuffer* in = gst_buffer_new_allocate(nullptr, kSize * kSize * 4, nullptr);
    gst_buffer_memset(in, 0, 0, kSize * kSize * 4);
    for (int i = 0; i < kSize * kSize; ++i) gst_buffer_memset(in, gsize(i) * 4 + 3, 255, 1);  // opaque black
    gst_ccl_scene_meta_add(in, scene);
    EXPECT_EQ(gst_harness_push(h, in), GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(h);
    pixels_.resize(kSize * kSize * 4);
    gst_buffer_extract(out, 0, pixels_.data(), pixels_.size());
    gst_buffer_unref(out);
    gst_harness_teardown(h);
  }
  Rgb at(int x, int y) const {
    const guint8* p = &pixels_[std::size_t(y * kSize + x) * 4];
    return {p[0], p[1], p[2]};
  }
  bool any(int x0, int y0, int x1, int y1, const Rgb& c) const {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        if (at(x, y) == c) return true;
    return false;
  }

 private:
  std::vector<guint8> pixels_;
};

// A line from (20, 50) to (80, 50): forward is its right as drawn, y > 50. A zone (10..40, 10..30).
CclScene scene(bool overcrowded) {
  CclScene s;
  s.lines.push_back({"door", 20, 50, 80, 50, 7, 2});
  s.zones.push_back({"lot", {10, 10, 40, 10, 40, 30, 10, 30}, 3, overcrowded});
  return s;
}

TEST(SceneOverlay, DrawsLinesArrowsZonesAndCounts) {
  const Drawn d(scene(false));
  for (int x : {20, 30, 45, 70, 80}) EXPECT_EQ(d.at(x, 50), kYellow) << x;  // the line
  EXPECT_EQ(d.at(19, 50), kBlack);
  EXPECT_EQ(d.at(81, 50), kBlack);
  for (int y : {55, 60, 65}) EXPECT_EQ(d.at(50, y), kYellow) << y;  // the arrow, on the forward side
  for (int y : {35, 40, 45}) EXPECT_EQ(d.at(50, y), kBlack) << y;   // none on the backward side
  EXPECT_TRUE(d.any(52, 68, 75, 90, kYellow));   // the forward count, beyond the arrow
  EXPECT_TRUE(d.any(52, 10, 75, 32, kYellow));   // the backward count, across the line
  for (int x : {12, 25, 38}) EXPECT_EQ(d.at(x, 10), kCyan) << x;  // the zone's top edge
  for (int y : {12, 20, 28}) EXPECT_EQ(d.at(10, y), kCyan) << y;  // its left edge
  EXPECT_EQ(d.at(12, 12), kBlack);                                // inside, off the count
  EXPECT_TRUE(d.any(18, 14, 32, 26, kCyan));                      // its count, in the middle
  EXPECT_EQ(d.at(5, 5), kBlack);
  EXPECT_EQ(d.at(95, 95), kBlack);
}

TEST(SceneOverlay, OvercrowdedZoneIsRed) {
  const Drawn d(scene(true));
  for (int x : {12, 25, 38}) EXPECT_EQ(d.at(x, 10), kRed) << x;
  EXPECT_FALSE(d.any(0, 0, 45, 35, kCyan));
}

// Without the meta nothing is drawn.
TEST(SceneOverlay, NothingWithoutTheMeta) {
  const Drawn d(CclScene{});
  EXPECT_FALSE(d.any(0, 0, kSize - 1, kSize - 1, kYellow));
}

}  // namespace
