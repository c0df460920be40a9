// cclanalytics on hand-made tracked frames: hand-counted crossings, enters, exits, dwells and
// overcrowding through the element and its messages, their fields, EOS, buffers without meta, and
// rules reloaded while playing.
#include <gtest/gtest.h>

#include <glib/gstdio.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "analytics_harness.hpp"
#include "ccl/cuda_analyzer.hpp"
#include "ccl/gstcclmeta.h"
#include "config.h"
#include "element_check.hpp"

namespace {

using namespace analytics_check;

// Every event, hand-counted: track 1 walks through the door with jitter inside the 3 px band (one
// crossing, when it leaves the band); track 2 steps across it and back beyond the band (three
// crossings); tracks 3 and 4 visit the lot (4 leaves before its dwell), two at once for 3 s
// (overcrowded from 2 s into it, per overcrowd-time 1.5 on 1 s frames).
TEST(CclAnalytics, HandCountedEventsAndCounts) {
  AnalyticsHarness h(kRules);
  const int x1[] = {70, 60, 51, 49, 51, 49, 40, 30, 30, 30};
  const int x2[] = {55, 45, 55, 45, 45, 45, 45, 45, 45, 45};
  for (int t = 0; t < 10; ++t) {
    std::vector<Obj> objects = {{1, x1[t], 80}, {2, x2[t], 80}};
    objects.push_back({3, 20, t >= 1 && t <= 6 ? 20 : 60});
    objects.push_back({4, 30, t >= 2 && t <= 4 ? 20 : 60});
    ASSERT_TRUE(h.push(t, objects)) << t;
    if (t == 4) {
      const auto c = h.counts();
      EXPECT_EQ(c.at("door"), "2/1");
      EXPECT_EQ(c.at("lot"), "2 (2) crowded");
    }
  }
  const std::vector<std::string> want = {
      "1: line-cross door 2 forward", "1: zone-enter lot 3",  "2: line-cross door 2 backward",
      "2: zone-enter lot 4",          "3: line-cross door 2 forward", "4: dwell lot 3",
      "4: overcrowd-start lot 0",     "5: zone-exit lot 4",   "5: overcrowd-end lot 0",
      "6: line-cross door 1 forward", "7: zone-exit lot 3"};
  EXPECT_EQ(h.events(), want);
  EXPECT_EQ(h.counts().at("door"), "3/1");
  EXPECT_EQ(h.counts().at("lot"), "0 (2)");
  EXPECT_EQ(h.frame_messages(), 10);
}

// The message fields: at (when it happened), occupancy on zone events, stream time from the segment.
TEST(CclAnalytics, EventFields) {
  AnalyticsHarness h(kRules);
  ASSERT_TRUE(h.push(0, {{3, 20, 60}}));
  ASSERT_TRUE(h.push(1, {{3, 20, 20}}));
  GstMessage* m = nullptr;
  GstBus* bus = gst_element_get_bus(h.element());
  bool seen = false;
  while ((m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure* s = gst_message_get_structure(m);
    if (gst_structure_has_name(s, "ccl-event")) {
      seen = true;
      guint occupancy = 0;
      guint64 at = 0, stream_time = 0;
      EXPECT_STREQ(gst_structure_get_string(s, "type"), "zone-enter");
      EXPECT_TRUE(gst_structure_get_uint(s, "occupancy", &occupancy));
      EXPECT_EQ(occupancy, 1u);
      EXPECT_TRUE(gst_structure_get_uint64(s, "at", &at));
      EXPECT_EQ(at, kSecond);
      EXPECT_TRUE(gst_structure_get_uint64(s, "stream-time", &stream_time));
      EXPECT_EQ(stream_time, kSecond);
      EXPECT_FALSE(gst_structure_has_field(s, "direction"));
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  EXPECT_TRUE(seen);
}

// At EOS every track ends: the lot's occupants exit before the EOS goes on.
TEST(CclAnalytics, EosEndsTheTracks) {
  AnalyticsHarness h(kRules);
  ASSERT_TRUE(h.push(0, {{3, 20, 60}, {4, 30, 60}}));
  ASSERT_TRUE(h.push(1, {{3, 20, 20}, {4, 30, 20}}));
  EXPECT_EQ(h.events(), (std::vector<std::string>{"1: zone-enter lot 3", "1: zone-enter lot 4"}));
  EXPECT_TRUE(gst_harness_push_event(h.get(), gst_event_new_eos()));
  const std::vector<std::string> at_eos = h.events();
  ASSERT_EQ(at_eos.size(), 2u);
  EXPECT_NE(at_eos[0].find("zone-exit lot 3"), std::string::npos);
  EXPECT_NE(at_eos[1].find("zone-exit lot 4"), std::string::npos);
}

// Buffers without GstCclMeta pass untouched and count nothing.
TEST(CclAnalytics, BuffersWithoutMetaPass) {
  AnalyticsHarness h(kRules);
  GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
  GST_BUFFER_PTS(b) = 0;
  ASSERT_EQ(gst_harness_push(h.get(), b), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(h.get());
  EXPECT_EQ(out, b);
  gst_buffer_unref(out);
  EXPECT_EQ(h.frame_messages(), 0);
}

// Rules set while playing: from the next buffer, no buffer lost; the unchanged door keeps its
// counts, the moved lot starts again at 0; refused rules leave the old ones, with a warning.
TEST(CclAnalytics, RulesReloadedWhilePlaying) {
  AnalyticsHarness h(kRules);
  ASSERT_TRUE(h.push(0, {{1, 70, 80}, {3, 20, 60}}));
  ASSERT_TRUE(h.push(1, {{1, 30, 80}, {3, 20, 20}}));
  EXPECT_EQ(h.counts().at("door"), "1/0");
  EXPECT_EQ(h.counts().at("lot"), "1 (1)");
  const char* moved =
      R"({"hysteresis": 3, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}],
          "zones": [{"name": "lot", "polygon": [[0, 0], [45, 0], [45, 45], [0, 45]]}]})";
  g_object_set(h.element(), "rules", moved, nullptr);
  ASSERT_TRUE(h.push(2, {{1, 70, 80}, {3, 20, 20}}));
  EXPECT_EQ(h.counts().at("door"), "1/1");   // kept, and the crossing back counted
  EXPECT_EQ(h.counts().at("lot"), "1 (1)");  // restarted: the occupant enters the new lot anew

  // Refused: the old rules stay, a warning names the field.
  g_object_set(h.element(), "rules", R"({"lines": [{"name": "door", "from": [50, 0]}]})", nullptr);
  const std::vector<std::string> w = h.warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find(R"(lines[0] "door": "to" must be [x, y])"), std::string::npos) << w[0];
  ASSERT_TRUE(h.push(3, {{1, 30, 80}, {3, 20, 20}}));
  EXPECT_EQ(h.counts().at("door"), "2/1");
  EXPECT_EQ(h.counts().at("lot"), "1 (1)");
  gchar* rules = nullptr;
  g_object_get(h.element(), "rules", &rules, nullptr);
  EXPECT_STREQ(rules, moved);
  g_free(rules);
  EXPECT_EQ(h.frame_messages(), 4);
}
}  // namespace
