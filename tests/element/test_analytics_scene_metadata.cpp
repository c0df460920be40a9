// cclanalytics' analytics metadata (GStreamer >= 1.24): one ClsMtd per event and per zone
// membership, class quarks as documented (docs/elements/cclanalytics.md), related to the track's
// TrackingMtd (ClsMtd RELATE_TO TrackingMtd) and from the track's ODMtd (ODMtd RELATE_TO ClsMtd).
#include <gtest/gtest.h>

#include <gst/analytics/analytics.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>

#include <set>
#include <string>
#include <vector>

#include "element_check.hpp"

namespace {

// The buffer's ClsMtd classes "quark" or "quark>track-id" (when related to a TrackingMtd, with its
// ODMtd related to the ClsMtd too).
std::multiset<std::string> classes(GstBuffer* buffer) {
  std::multiset<std::string> out;
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (!rmeta) return out;
  gpointer state = nullptr;
  GstAnalyticsClsMtd cls;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_cls_mtd_get_mtd_type(), &cls)) {
    std::string c = g_quark_to_string(gst_analytics_cls_mtd_get_quark(&cls, 0));
    gpointer tstate = nullptr;
    GstAnalyticsTrackingMtd trk;
    while (gst_analytics_relation_meta_iterate(rmeta, &tstate, gst_analytics_tracking_mtd_get_mtd_type(), &trk)) {
      if (gst_analytics_relation_meta_get_relation(rmeta, cls.id, trk.id) != GST_ANALYTICS_REL_TYPE_RELATE_TO) continue;
      guint64 id = 0;
      GstClockTime first = 0, last = 0;
      gboolean lost = FALSE;
      gst_analytics_tracking_mtd_get_info(&trk, &id, &first, &last, &lost);
      bool from_od = false;
      gpointer ostate = nullptr;
      GstAnalyticsODMtd od;
      while (gst_analytics_relation_meta_iterate(rmeta, &ostate, gst_analytics_od_mtd_get_mtd_type(), &od))
        from_od |= gst_analytics_relation_meta_get_relation(rmeta, od.id, cls.id) == GST_ANALYTICS_REL_TYPE_RELATE_TO;
      c += std::string(">") + std::to_string(id) + (from_od ? "" : " (no ODMtd)");
    }
    out.insert(c);
  }
  return out;
}

// A 10 x 10 square walking right 6 px a frame through a door at x = 50 (bottom-centre anchor at
// 35, 41, 47, 53, 59: it crosses backward, from the door's right to its left, at frame 3) inside
// a zone covering the frame.
TEST(AnalyticsSceneMetadata, EventsAndZoneMembershipRelatedToTheTrack) {
  elcheck::init();
  GstElement* bin = gst_parse_bin_from_description(
      "cudaccl backend=cpu ! ccltracker min-hits=1 ! cclanalytics name=a", TRUE, nullptr);
  ASSERT_TRUE(bin);
  GstElement* a = gst_bin_get_by_name(GST_BIN(bin), "a");
  g_object_set(a, "rules",
               R"({"hysteresis": 2, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}],)"
               R"( "zones": [{"name": "all", "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]]}]})",
               nullptr);
  gst_object_unref(a);
  GstHarness* h = gst_harness_new_with_element(bin, "sink", "src");
  gst_object_unref(bin);
  gst_harness_set_src_caps_str(h, "video/x-raw,format=GRAY8,width=100,height=100,framerate=1/1");
  std::vector<std::multiset<std::string>> seen;
  for (int t = 0; t < 5; ++t) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
    gst_buffer_memset(b, 0, 0, 100 * 100);
    const int x = 30 + 6 * t;
    for (int y = 40; y < 50; ++y) gst_buffer_memset(b, gsize(y * 100 + x), 255, 10);
    GST_BUFFER_PTS(b) = GstClockTime(t) * GST_SECOND;
    ASSERT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(h);
    seen.push_back(classes(out));
    gst_buffer_unref(out);
  }
  using S = std::multiset<std::string>;
  EXPECT_EQ(seen[0], (S{"zone:all>1", "zone-enter:all>1"}));
  EXPECT_EQ(seen[1], (S{"zone:all>1"}));
  EXPECT_EQ(seen[2], (S{"zone:all>1"}));
  EXPECT_EQ(seen[3], (S{"zone:all>1", "line-cross:door:backward>1"}));
  EXPECT_EQ(seen[4], (S{"zone:all>1"}));
  gst_harness_teardown(h);
}

}  // namespace
