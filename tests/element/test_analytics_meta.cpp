// The analytics output (GStreamer >= 1.24): every ODMtd equals the GstCclMeta entry of the same
// component, field by field, through the element on random and adversarial frames, both orders,
// area filters and truncation; an earlier cudaccl's answer is replaced and another producer's
// relation meta joined; after videoscale the boxes are GStreamer's rescale, within GstCclMeta's.
#include <gtest/gtest.h>

#include <gst/analytics/analytics.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "ccl_outputs.h"
#include "element_check.hpp"

namespace {

struct Detection {
  GQuark type;
  gint x, y, w, h;
  gfloat confidence;
};

// The ODMtds of the buffer's first relation meta, in the order they were added.
std::vector<Detection> detections(GstBuffer* buf, int* other_entries = nullptr) {
  std::vector<Detection> v;
  GstAnalyticsRelationMeta* meta = gst_buffer_get_analytics_relation_meta(buf);
  if (!meta) return v;
  gpointer state = nullptr;
  GstAnalyticsMtd mtd;
  int others = 0;
  while (gst_analytics_relation_meta_iterate(meta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &mtd)) {
    if (gst_analytics_mtd_get_mtd_type(&mtd) != gst_analytics_od_mtd_get_mtd_type()) {
      ++others;
      continue;
    }
    auto* od = reinterpret_cast<GstAnalyticsODMtd*>(&mtd);
    Detection d{};
    d.type = gst_analytics_od_mtd_get_obj_type(od);
    EXPECT_TRUE(gst_analytics_od_mtd_get_location(od, &d.x, &d.y, &d.w, &d.h, &d.confidence));
    v.push_back(d);
  }
  if (other_entries) *other_entries = others;
  return v;
}

int relation_metas(GstBuffer* buf) {
  int n = 0;
  gpointer state = nullptr;
  while (GstMeta* m = gst_buffer_iterate_meta(buf, &state)) n += m->info->api == GST_ANALYTICS_RELATION_META_API_TYPE;
  return n;
}

// Empty when the buffer's detections are exactly GstCclMeta's components, in order, field by field.
std::string check_against_ccl_meta(GstBuffer* buf) {
  const GstCclMeta* m = gst_buffer_get_ccl_meta(buf);
  if (!m) return "no GstCclMeta";
  const std::vector<Detection> ds = detections(buf);
  std::ostringstream s;
  if (relation_metas(buf) != 1) s << relation_metas(buf) << " relation metas; ";
  if (ds.size() != m->n_components) return s.str() + std::to_string(ds.size()) + " ODMtds for " +
                                           std::to_string(m->n_components) + " components";
  const GQuark type = g_quark_from_string("connected-component");
  for (guint i = 0; i < m->n_components && s.tellp() < 400; ++i) {
    const GstCclComponent& c = m->components[i];
    const Detection& d = ds[i];
    if (d.type != type) s << "#" << i << " type " << g_quark_to_string(d.type) << "; ";
    if (d.x != c.x || d.y != c.y || d.w != c.width || d.h != c.height)
      s << "#" << i << " box " << d.x << "," << d.y << " " << d.w << "x" << d.h << " != " << c.x << "," << c.y
        << " " << c.width << "x" << c.height << "; ";
    if (d.confidence != 1.0f) s << "#" << i << " confidence " << d.confidence << "; ";
  }
  return s.str();
}

// The element's answers for `fs` under `extra` properties: GstCclMeta matches the oracle (so the
// reference is right) and the ODMtds match GstCclMeta.
void expect_detections_match(const std::vector<frames::Frame>& fs, const ccl::Options& o, const std::string& extra) {
  elcheck::Harness h(elcheck::props(o) + " " + extra);
  for (const frames::Frame& f : fs) {
    h.set_caps(elcheck::gray_caps(f.width, f.height));
    GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
    ASSERT_NE(out, nullptr) << f.name;
    EXPECT_EQ(elcheck::check_meta(out, f, o), "") << f.name << " " << extra;
    EXPECT_EQ(check_against_ccl_meta(out), "") << f.name << " " << extra;
    gst_buffer_unref(out);
  }
}

TEST(AnalyticsMeta, PropertyOnByDefault) {
  elcheck::Harness h;
  gboolean on = FALSE;
  g_object_get(h.element(), "attach-analytics-meta", &on, nullptr);
  EXPECT_TRUE(on);
}

TEST(AnalyticsMeta, EqualsCclMetaOnRandomAndAdversarialFrames) {
  std::vector<frames::Frame> fs = frames::adversarial(40, 30);
  for (const frames::Frame& f : frames::adversarial(7, 5)) fs.push_back(f);
  for (std::uint32_t seed = 1; seed <= 6; ++seed) fs.push_back(frames::random(97, 61, 20 + 10 * int(seed), 1 + seed % 3, seed));
  fs.push_back(frames::random(1, 131, 50, 1, 9));
  fs.push_back(frames::random(131, 1, 50, 1, 10));
  fs.push_back(frames::random(640, 480, 40, 1, 11));  // thousands of components
  for (int c : {4, 8})
    for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
      ccl::Options o = elcheck::opts(c);
      o.order = order;
      expect_detections_match(fs, o, "");
    }
}

TEST(AnalyticsMeta, FollowsFiltersAndTruncation) {
  std::vector<frames::Frame> fs;
  for (std::uint32_t seed = 20; seed < 24; ++seed) fs.push_back(frames::random(120, 80, 45, 2, seed));
  for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
    ccl::Options o = elcheck::opts(8);
    o.order = order;
    o.min_area = 5;
    o.max_area = 200;
    expect_detections_match(fs, o, "");
    o.max_objects = 7;
    expect_detections_match(fs, o, "");
    o.max_objects = 0;
    expect_detections_match(fs, o, "");
  }
}

TEST(AnalyticsMeta, OffMeansNone) {
  elcheck::Harness h("attach-analytics-meta=false");
  const frames::Frame f = frames::random(50, 40, 40, 1, 3);
  h.set_caps(elcheck::gray_caps(f.width, f.height));
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  ASSERT_NE(out, nullptr);
  EXPECT_GT(gst_buffer_get_ccl_meta(out)->n_components, 0u);
  EXPECT_EQ(relation_metas(out), 0);
  gst_buffer_unref(out);
}

// Through cudaccl twice: one relation meta, the second answer's; through a relation meta another
// producer attached first: ours are added to it and its own entry stays.
TEST(AnalyticsMeta, EarlierAnswerReplacedForeignMetaJoined) {
  GstHarness* h = gst_harness_new_parse("cudaccl backend=cpu ! cudaccl backend=cpu threshold=100");
  frames::Frame f = frames::random(64, 48, 50, 1, 5);
  for (auto& p : f.pixels) p = p ? std::uint8_t(50 + p % 150) : 0;  // some components vanish at 100
  gst_harness_set_src_caps_str(h, elcheck::gray_caps(f.width, f.height).c_str());
  GstBuffer* out = gst_harness_push_and_pull(h, elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(check_against_ccl_meta(out), "");
  EXPECT_EQ(gst_buffer_get_ccl_meta(out)->n_components_total,
            oracle::flood_fill(f, elcheck::opts(8, 100)).result.n_components_total);
  gst_buffer_unref(out);
  gst_harness_teardown(h);

  elcheck::Harness one;
  one.set_caps(elcheck::gray_caps(f.width, f.height));
  GstBuffer* in = elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8);
  GstAnalyticsRelationMeta* foreign = gst_buffer_add_analytics_relation_meta(in);
  ASSERT_TRUE(gst_analytics_relation_meta_add_od_mtd(foreign, g_quark_from_string("car"), 1, 2, 3, 4, 0.5f, nullptr));
  out = one.process(in);
  ASSERT_NE(out, nullptr);
  const std::vector<Detection> ds = detections(out);
  ASSERT_EQ(ds.size(), gst_buffer_get_ccl_meta(out)->n_components + 1);
  EXPECT_EQ(ds[0].type, g_quark_from_string("car"));
  EXPECT_EQ(relation_metas(out), 1);
  gst_buffer_unref(out);
}

// After videoscale each ODMtd holds GStreamer's own rescale of the box the element attached (the
// ODMtd's transform belongs to gstreamer-analytics: x, y, w, h each times new/old size, truncated),
// which for integer enlargements is GstCclMeta's box exactly; otherwise it lies within GstCclMeta's
// box (edge-mapped, covering), whose edges it misses by less than two scale steps (of at least a
// pixel) plus the cover's own pixel.
TEST(AnalyticsMeta, RescaledByVideoscale) {
  if (!elcheck::have("videoscale")) GTEST_SKIP() << "videoscale not installed";
  for (auto [w, h, W, H] : {std::array<int, 4>{40, 30, 80, 60}, {33, 20, 99, 80}, {60, 40, 90, 100}, {97, 61, 31, 17}}) {
    GstHarness* harness = gst_harness_new_parse("cudaccl backend=cpu ! videoscale");
    gst_harness_set_sink_caps_str(harness, elcheck::gray_caps(W, H).c_str());
    const frames::Frame f = frames::random(w, h, 30, 3, std::uint32_t(w + H));
    gst_harness_set_src_caps_str(harness, elcheck::gray_caps(w, h).c_str());
    GstBuffer* out = gst_harness_push_and_pull(harness, elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
    ASSERT_NE(out, nullptr);
    const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
    ASSERT_NE(m, nullptr);
    ASSERT_EQ(int(m->width), W);
    const std::vector<ccl::Component> before = oracle::flood_fill(f, elcheck::opts(8)).result.components;
    const std::vector<Detection> ds = detections(out);
    ASSERT_EQ(ds.size(), before.size());
    ASSERT_EQ(m->n_components, before.size());
    ASSERT_GT(before.size(), 2u);
    const bool integer_enlargement = W % w == 0 && H % h == 0;
    const double step_x = std::max(1.0, double(W) / w), step_y = std::max(1.0, double(H) / h);  // >= 1 pixel
    for (std::size_t i = 0; i < ds.size(); ++i) {
      const ccl::Component& b = before[i];
      const GstCclComponent& c = m->components[i];
      const Detection& d = ds[i];
      EXPECT_TRUE(d.x == b.x * W / w && d.y == b.y * H / h && d.w == b.width * W / w && d.h == b.height * H / h)
          << "#" << i << " " << w << "x" << h << " -> " << W << "x" << H;
      if (integer_enlargement) {
        EXPECT_TRUE(d.x == c.x && d.y == c.y && d.w == c.width && d.h == c.height) << "#" << i << " " << W << "x" << H;
      } else {
        EXPECT_TRUE(d.x >= c.x && d.y >= c.y && d.x + d.w <= c.x + c.width && d.y + d.h <= c.y + c.height)
            << "#" << i << " " << W << "x" << H;
        EXPECT_LT(d.x - c.x, 2 * step_x);
        EXPECT_LT(c.x + c.width - (d.x + d.w), 2 * step_x + 1);
        EXPECT_LT(c.y + c.height - (d.y + d.h), 2 * step_y + 1);
      }
    }
    gst_buffer_unref(out);
    gst_harness_teardown(harness);
  }
}

}  // namespace
