// cudaccl join-parts=true on drawn GRAY8 sequences whose truth is known by construction: an object
// drawn whole, then cut into stripes, comes out as one component (its box, its pixels' area and
// centroid, summed here from the drawn rectangles); two objects that meet and part come out as two;
// DISCONT forgets the objects; max-objects counts joined objects. Both backends, 1 and 3 frames in
// flight.
#include <algorithm>
#include <sstream>

#include "element_check.hpp"

#if CCL_HAVE_CUDA
#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

constexpr int kW = 160, kH = 80;

struct Rect {
  int x, y, w, h;
};

// One object as drawn: its rectangles (stripes of it, or all of it).
using Object = std::vector<Rect>;

frames::Frame draw(const std::vector<Object>& objects) {
  frames::Frame f = frames::blank("join", kW, kH);
  for (const Object& o : objects)
    for (const Rect& r : o)
      for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x) f.at(x, y) = 255;
  return f;
}

// The component an object should come out as: its rectangles' union box, pixel count and mean.
ccl::Component whole(const Object& o) {
  int x0 = kW, y0 = kH, x1 = 0, y1 = 0;
  std::uint64_t n = 0, sx = 0, sy = 0;
  for (const Rect& r : o) {
    x0 = std::min(x0, r.x), y0 = std::min(y0, r.y), x1 = std::max(x1, r.x + r.w), y1 = std::max(y1, r.y + r.h);
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) ++n, sx += std::uint64_t(x), sy += std::uint64_t(y);
  }
  return {0, std::uint32_t(n), x0, y0, x1 - x0, y1 - y0, double(sx) / double(n), double(sy) / double(n)};
}

// A 30 x 20 object at x, cut into three stripes (8, 8 and 10 columns, 2-column gaps) when `cut`.
Object striped(int x, int y, bool cut) {
  if (!cut) return {{x, y, 30, 20}};
  return {{x, y, 8, 20}, {x + 10, y, 8, 20}, {x + 20, y, 10, 20}};
}

// Pushes the frames through "cudaccl backend=<backend> <props>" (`discont`: frames flagged DISCONT).
std::vector<ccl::Result> run(const std::string& props, const char* backend, const std::vector<frames::Frame>& fs,
                             const std::vector<std::size_t>& discont = {}) {
  const std::string line = std::string("cudaccl backend=") + backend + " " + props;
  GstHarness* h = gst_harness_new_parse(line.c_str());
  gst_harness_set_src_caps_str(h, elcheck::gray_caps(kW, kH).c_str());
  for (std::size_t i = 0; i < fs.size(); ++i) {
    GstBuffer* b = elcheck::pack_default(fs[i], GST_VIDEO_FORMAT_GRAY8);
    GST_BUFFER_PTS(b) = GstClockTime(i) * GST_MSECOND;
    if (std::find(discont.begin(), discont.end(), i) != discont.end()) GST_BUFFER_FLAG_SET(b, GST_BUFFER_FLAG_DISCONT);
    EXPECT_EQ(gst_harness_push(h, b), GST_FLOW_OK) << line;
  }
  elcheck::drain(h);
  std::vector<ccl::Result> results;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    GstBuffer* out = gst_harness_pull(h);
    if (!out) {
      ADD_FAILURE() << line << ": frame " << i << " did not come out";
      break;
    }
    const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
    results.push_back(m ? elcheck::from_meta(*m) : ccl::Result{});
    gst_buffer_unref(out);
  }
  gst_harness_teardown(h);
  return results;
}

std::string differs(const ccl::Component& got, const ccl::Component& want) {
  std::ostringstream s;
  if (got.area != want.area || got.x != want.x || got.y != want.y || got.width != want.width ||
      got.height != want.height || got.centroid_x != want.centroid_x || got.centroid_y != want.centroid_y)
    s << "got " << got.x << "," << got.y << " " << got.width << "x" << got.height << " area " << got.area << " ("
      << got.centroid_x << ", " << got.centroid_y << "), want " << want.x << "," << want.y << " " << want.width << "x"
      << want.height << " area " << want.area << " (" << want.centroid_x << ", " << want.centroid_y << ")";
  return s.str();
}

// The striped object moves right 2 px a frame and is cut on odd frames; a second one stands still.
std::vector<std::vector<Object>> striped_scene(int n) {
  std::vector<std::vector<Object>> scene;
  for (int i = 0; i < n; ++i) scene.push_back({striped(10 + 2 * i, 20, i % 2 == 1), {{110, 50, 20, 10}}});
  return scene;
}

std::vector<frames::Frame> frames_of(const std::vector<std::vector<Object>>& scene) {
  std::vector<frames::Frame> fs;
  for (const auto& objects : scene) fs.push_back(draw(objects));
  return fs;
}

bool cuda_usable(std::string* why) {
#if CCL_HAVE_CUDA
  return ccl::cuda_device_usable(why);
#else
  *why = "built without CUDA";
  return false;
#endif
}

class JoinParts : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    elcheck::init();
    std::string why;
    if (std::string(GetParam()) == "cuda" && !cuda_usable(&why)) GTEST_SKIP() << why;
  }
};

TEST_P(JoinParts, StripesOfOneObjectAreOneComponent) {
  const auto scene = striped_scene(12);
  for (const char* flight : {"1", "3"}) {
    const std::vector<ccl::Result> joined =
        run(std::string("join-parts=true frames-in-flight=") + flight, GetParam(), frames_of(scene));
    ASSERT_EQ(joined.size(), scene.size());
    for (std::size_t i = 0; i < scene.size(); ++i) {
      const std::vector<ccl::Component>& got = joined[i].components;
      ASSERT_EQ(got.size(), 2u) << "frame " << i << ", " << flight << " in flight";
      EXPECT_EQ(got[0].label, 1u) << "the first part's label (raster order)";
      EXPECT_EQ(differs(got[0], whole(scene[i][0])), "") << "frame " << i;
      EXPECT_EQ(differs(got[1], whole(scene[i][1])), "") << "frame " << i;
      EXPECT_EQ(joined[i].n_components_total, i % 2 ? 4u : 2u) << "counted before joining";
    }
  }
  // The control: without join-parts the cut frames give the stripes.
  const std::vector<ccl::Result> parts = run("", GetParam(), frames_of(scene));
  ASSERT_EQ(parts.size(), scene.size());
  EXPECT_EQ(parts[1].components.size(), 4u);
}

TEST_P(JoinParts, TwoObjectsThatMeetAndPartStayTwo) {
  // Two 20 x 20 objects approach 4 px a frame, touch for two frames, and go back.
  std::vector<std::vector<Object>> scene;
  const int gaps[] = {24, 16, 8, 0, 0, 4, 8, 12, 16};
  for (int gap : gaps) scene.push_back({{{50 - gap / 2 - 20, 30, 20, 20}}, {{50 + (gap + 1) / 2, 30, 20, 20}}});
  const std::vector<ccl::Result> r = run("join-parts=true", GetParam(), frames_of(scene));
  ASSERT_EQ(r.size(), scene.size());
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const std::vector<ccl::Component>& got = r[i].components;
    if (gaps[i] == 0) {  // touching: one component in the mask
      ASSERT_EQ(got.size(), 1u) << "frame " << i;
      continue;
    }
    ASSERT_EQ(got.size(), 2u) << "frame " << i << ": two objects that met are not joined";
    EXPECT_EQ(differs(got[0], whole(scene[i][0])), "") << "frame " << i;
    EXPECT_EQ(differs(got[1], whole(scene[i][1])), "") << "frame " << i;
  }
}

TEST_P(JoinParts, DiscontForgetsTheObjects) {
  const auto scene = striped_scene(6);
  const std::vector<ccl::Result> r = run("join-parts=true", GetParam(), frames_of(scene), {5});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[3].components.size(), 2u) << "followed: joined";
  EXPECT_EQ(r[5].components.size(), 4u) << "after DISCONT nothing is followed yet";
}

TEST_P(JoinParts, MaxObjectsCountsJoinedObjects) {
  const auto scene = striped_scene(4);
  const std::vector<ccl::Result> r = run("join-parts=true max-objects=1", GetParam(), frames_of(scene));
  ASSERT_EQ(r.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(r[i].components.size(), 1u) << "frame " << i;
    EXPECT_TRUE(r[i].truncated) << "frame " << i;
    EXPECT_EQ(differs(r[i].components[0], whole(scene[i][0])), "") << "frame " << i;
  }
}

TEST_P(JoinParts, AreaOrderSortsJoinedObjects) {
  // order=area: the object is 600 px whole and 520 cut, against a 27 x 20 = 540 px one that
  // stands still, so the two swap places on the cut frames.
  std::vector<std::vector<Object>> scene;
  for (int i = 0; i < 4; ++i) scene.push_back({striped(10 + 2 * i, 20, i % 2 == 1), {{110, 40, 27, 20}}});
  const std::vector<ccl::Result> r = run("join-parts=true order=area", GetParam(), frames_of(scene));
  ASSERT_EQ(r.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(r[i].components.size(), 2u) << "frame " << i;
    const std::size_t striped_first = i % 2 ? 1 : 0;  // 600 > 540 > 520
    EXPECT_EQ(differs(r[i].components[striped_first], whole(scene[i][0])), "") << "frame " << i;
    EXPECT_EQ(differs(r[i].components[1 - striped_first], whole(scene[i][1])), "") << "frame " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, JoinParts, ::testing::Values("cpu", "cuda"));

}  // namespace
