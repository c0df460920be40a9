// cclanalytics: hand-made tracked frames with hand-counted crossings, enters, exits, dwells and
// overcrowding through the element and its messages; the real chain cclblobsrc ! cudaccl ! ccltracker
// ! cclanalytics; rules reloaded while playing; bad rules refused naming the rule and the field;
// rules-file; normalized rules; a crossing made while tentative; and ccloverlay drawing the scene.
#include <gtest/gtest.h>

#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/gstcclmeta.h"
#include "config.h"
#include "element_check.hpp"

namespace {

constexpr GstClockTime kSecond = GST_SECOND;

// A tracked object in a hand-made frame, by its bottom-centre anchor: its box is 4 x 4 above it.
struct Obj {
  guint32 id;
  int ax, ay;
};

// "type rule track direction" of a ccl-event message ("" for other messages); time = its PTS in s.
std::string event_of(const GstStructure* s, int* seconds = nullptr) {
  if (!gst_structure_has_name(s, "ccl-event")) return "";
  guint id = 0;
  gst_structure_get_uint(s, "track-id", &id);
  std::string out = std::string(gst_structure_get_string(s, "type")) + " " + gst_structure_get_string(s, "rule") + " " +
                    std::to_string(id);
  if (const char* d = gst_structure_get_string(s, "direction")) out += std::string(" ") + d;
  guint64 ts = 0;
  if (seconds && gst_structure_get_uint64(s, "timestamp", &ts)) *seconds = int(ts / kSecond);
  return out;
}

// Counts of one "ccl-analytics" message: "door 3/1 lot 0 (2) crowded" style strings per rule.
std::map<std::string, std::string> counts_of(const GstStructure* s) {
  std::map<std::string, std::string> out;
  const GValue* lines = gst_structure_get_value(s, "lines");
  const GValue* zones = gst_structure_get_value(s, "zones");
  for (guint i = 0; lines && i < gst_value_array_get_size(lines); ++i) {
    const GstStructure* l = gst_value_get_structure(gst_value_array_get_value(lines, i));
    guint64 f = 0, b = 0;
    gst_structure_get_uint64(l, "forward", &f);
    gst_structure_get_uint64(l, "backward", &b);
    out[gst_structure_get_string(l, "name")] = std::to_string(f) + "/" + std::to_string(b);
  }
  for (guint i = 0; zones && i < gst_value_array_get_size(zones); ++i) {
    const GstStructure* z = gst_value_get_structure(gst_value_array_get_value(zones, i));
    guint count = 0;
    guint64 entered = 0;
    gboolean crowded = FALSE;
    gst_structure_get_uint(z, "count", &count);
    gst_structure_get_uint64(z, "entered", &entered);
    gst_structure_get_boolean(z, "overcrowded", &crowded);
    out[gst_structure_get_string(z, "name")] =
        std::to_string(count) + " (" + std::to_string(entered) + ")" + (crowded ? " crowded" : "");
  }
  return out;
}

// A harness around one cclanalytics with a bus.
class AnalyticsHarness {
 public:
  // `property` ("rules" or "rules-file") set to `value` before the element starts.
  explicit AnalyticsHarness(const std::string& value, int width = 100, int height = 100,
                            const char* property = "rules")
      : width_(width), height_(height) {
    elcheck::init();
    bus_ = gst_bus_new();
    GstElement* e = gst_element_factory_make("cclanalytics", nullptr);
    if (!e) ADD_FAILURE() << "no cclanalytics";
    g_object_set(e, property, value.c_str(), nullptr);
    gst_element_set_bus(e, bus_);
    h_ = gst_harness_new_with_element(e, "sink", "src");
    gst_object_unref(e);
    gst_harness_set_src_caps_str(
        h_, ("video/x-raw,format=GRAY8,width=" + std::to_string(width) + ",height=" + std::to_string(height) +
             ",framerate=1/1")
                .c_str());
  }
  ~AnalyticsHarness() {
    gst_bus_set_flushing(bus_, TRUE);  // its messages ref the element, which refs the bus
    gst_harness_teardown(h_);
    gst_object_unref(bus_);
  }
  AnalyticsHarness(const AnalyticsHarness&) = delete;
  AnalyticsHarness& operator=(const AnalyticsHarness&) = delete;
  GstHarness* get() { return h_; }
  GstElement* element() { return h_->element; }

  // Pushes a frame at `second` with the objects (track ids set, or 0 for a tracker to give them);
  // true when a buffer came out.
  bool push(int second, const std::vector<Obj>& objects, int box = 4) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, gsize(width_ * height_), nullptr);
    GST_BUFFER_PTS(b) = GstClockTime(second) * kSecond;
    GST_BUFFER_DURATION(b) = kSecond;
    std::vector<GstCclComponent> cs;
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const Obj& o = objects[i];
      const int x = o.ax - box / 2, y = o.ay - box;
      cs.push_back({guint32(i + 1), guint32(box * box), x, y, box, box, x + (box - 1) / 2.0, y + (box - 1) / 2.0, o.id});
    }
    gst_buffer_add_ccl_meta(b, guint(width_), guint(height_), 8, guint(cs.size()), FALSE, cs.data(), guint(cs.size()));
    if (gst_harness_push(h_, b) != GST_FLOW_OK) return false;
    GstBuffer* out = gst_harness_try_pull(h_);
    if (!out) return false;
    gst_buffer_unref(out);
    return true;
  }

  // The ccl-event messages since the last call, "T: type rule track [direction]" (T = PTS in s).
  std::vector<std::string> events() {
    drain();
    std::vector<std::string> out;
    out.swap(events_);
    return out;
  }
  // The last ccl-analytics message's counts.
  std::map<std::string, std::string> counts() {
    drain();
    return counts_;
  }
  std::vector<std::string> warnings() {
    drain();
    std::vector<std::string> out;
    out.swap(warnings_);
    return out;
  }
  int frame_messages() {
    drain();
    return frame_messages_;
  }

 private:
  void drain() {
    while (GstMessage* m = gst_bus_pop(bus_)) {
      if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_WARNING) {
        GError* e = nullptr;
        gst_message_parse_warning(m, &e, nullptr);
        warnings_.push_back(e ? e->message : "?");
        g_clear_error(&e);
      }
      if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT) {
        const GstStructure* s = gst_message_get_structure(m);
        int t = -1;
        const std::string e = event_of(s, &t);
        if (!e.empty()) events_.push_back(std::to_string(t) + ": " + e);
        if (gst_structure_has_name(s, "ccl-analytics")) counts_ = counts_of(s), ++frame_messages_;
      }
      gst_message_unref(m);
    }
  }
  GstHarness* h_ = nullptr;
  GstBus* bus_;
  int width_, height_;
  std::vector<std::string> events_, warnings_;
  std::map<std::string, std::string> counts_;
  int frame_messages_ = 0;
};


// A vertical door at x = 50 (forward: towards smaller x, the right of (50,0) -> (50,100) as drawn)
// and a lot in the top-left corner.
const char* kRules =
    R"({"hysteresis": 3, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}],)"
    R"( "zones": [{"name": "lot", "polygon": [[0, 0], [40, 0], [40, 40], [0, 40]], "dwell": 2.5,)"
    R"( "max-objects": 2, "overcrowd-time": 1.5}]})";

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

// Bad rules at start: the element does not start, and the error names the rule and the field.
TEST(CclAnalytics, BadRulesAreAnErrorNamingRuleAndField) {
  elcheck::init();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"zones": [{"name": "a", "polygon": [[0, 0], [1, 1], [2, 0]]}, {"name": "lot", "polygon": [[0, 0], [1, 1]]}]})",
       R"(zones[1] "lot": "polygon" needs at least 3 points)"},
      {R"({"lines": [{"name": "door", "from": [1], "to": [2, 2]}]})", R"(lines[0] "door": "from" must be [x, y])"},
      {R"({"lines": [{"name": "door", "form": [1, 1], "to": [2, 2]}]})", R"(lines[0] "door": unknown key "form")"},
      {R"({"zones": [{"name": "lot", "polygon": [[0, 0], [9, 0], [9, 9]], "dwell": "long"}]})",
       R"(zones[0] "lot": "dwell" must be a number)"},
      {R"({"zones": [{"name": "lot", "polygon": [[0, 0], [9, 0], [9, 9]], "max-objects": -1}]})",
       R"(zones[0] "lot": "max-objects" must be an integer >= 0)"},
      {R"({"lines": [{"name": "door", "from": [0, 0], "to": [1, 1], "anchor": "top"}]})",
       R"(lines[0] "door": "anchor" must be)"},
      {R"({"units": "normalized", "lines": [{"name": "door", "from": [0, 0], "to": [2, 1]}]})",
       R"(lines[0] "door": "to" must be within 0..1)"},
      {R"({"line": []})", R"(unknown key "line")"},
      {R"({"lines": [{"from": [0, 0], "to": [1, 1]}]})", R"(lines[0]: "name" is missing)"},
      {R"({"lines": [{"name": "door", "from": [0, 0], "to": [9, 9]}, {"name": "door", "from": [0, 0], "to": [5, 9]}]})",
       R"("door")"},
      {R"({"lines": [)", "not valid JSON"},
  };
  for (const auto& [rules, want] : cases) {
    GstElement* e = gst_element_factory_make("cclanalytics", nullptr);
    ASSERT_TRUE(e);
    GstBus* bus = gst_bus_new();
    gst_element_set_bus(e, bus);
    g_object_set(e, "rules", rules.c_str(), nullptr);
    EXPECT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE) << rules;
    GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    ASSERT_TRUE(m) << rules;
    GError* error = nullptr;
    gst_message_parse_error(m, &error, nullptr);
    EXPECT_NE(std::string(error->message).find(want), std::string::npos) << error->message << "\nwant: " << want;
    g_clear_error(&error);
    gst_message_unref(m);
    gst_element_set_state(e, GST_STATE_NULL);
    gst_bus_set_flushing(bus, TRUE);  // its messages ref the element, which refs the bus
    gst_object_unref(e);
    gst_object_unref(bus);
  }
}

// rules-file: read at start (a missing file is an error naming it) and whenever set.
TEST(CclAnalytics, RulesFile) {
  elcheck::init();
  gchar* dir = g_dir_make_tmp("cclanalytics-XXXXXX", nullptr);
  ASSERT_TRUE(dir);
  const std::string path = std::string(dir) + "/rules.json", missing = std::string(dir) + "/none.json";
  ASSERT_TRUE(g_file_set_contents(path.c_str(), kRules, -1, nullptr));
  {
    AnalyticsHarness h(path, 100, 100, "rules-file");
    ASSERT_TRUE(h.push(0, {{1, 70, 80}}));
    ASSERT_TRUE(h.push(1, {{1, 30, 80}}));
    EXPECT_EQ(h.events(), std::vector<std::string>{"1: line-cross door 1 forward"});
    // Set again while playing: another file, with the door reversed (a changed rule: counts restart).
    const std::string reversed = std::string(dir) + "/reversed.json";
    ASSERT_TRUE(g_file_set_contents(
        reversed.c_str(), R"({"hysteresis": 3, "lines": [{"name": "door", "from": [50, 100], "to": [50, 0]}]})", -1,
        nullptr));
    g_object_set(h.element(), "rules-file", reversed.c_str(), nullptr);
    // A new track: x > 50 is now the door's right (forward) side, so walking to x = 30 is backward.
    ASSERT_TRUE(h.push(2, {{5, 70, 80}}));
    ASSERT_TRUE(h.push(3, {{5, 30, 80}}));
    EXPECT_EQ(h.events(), std::vector<std::string>{"3: line-cross door 5 backward"});
    EXPECT_EQ(h.counts().at("door"), "0/1");
    g_object_set(h.element(), "rules-file", missing.c_str(), nullptr);
    const std::vector<std::string> w = h.warnings();
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find(missing), std::string::npos) << w[0];
    g_remove(reversed.c_str());
  }
  GstElement* e = gst_element_factory_make("cclanalytics", nullptr);
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(e, bus);
  g_object_set(e, "rules-file", missing.c_str(), nullptr);
  EXPECT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  ASSERT_TRUE(m);
  GError* error = nullptr;
  gst_message_parse_error(m, &error, nullptr);
  EXPECT_NE(std::string(error->message).find(missing), std::string::npos) << error->message;
  g_clear_error(&error);
  gst_message_unref(m);
  gst_element_set_state(e, GST_STATE_NULL);
  gst_bus_set_flushing(bus, TRUE);
  gst_object_unref(e);
  gst_object_unref(bus);
  g_remove(path.c_str());
  g_rmdir(dir);
  g_free(dir);
}

// The global anchor applies to every rule without its own: a 4 x 4 box whose bottom moves from
// y = 51 to 53 has its centre cross y = 50 (49 -> 51, hysteresis 1) but not its bottom.
TEST(CclAnalytics, GlobalAndPerRuleAnchors) {
  AnalyticsHarness h(R"({"anchor": "center", "hysteresis": 1, "lines": [)"
                     R"({"name": "a", "from": [0, 50], "to": [100, 50]},)"
                     R"({"name": "b", "from": [0, 50], "to": [100, 50], "anchor": "bottom-center"}]})");
  ASSERT_TRUE(h.push(0, {{1, 20, 51}}));
  ASSERT_TRUE(h.push(1, {{1, 20, 53}}));
  EXPECT_EQ(h.events(), std::vector<std::string>{"1: line-cross a 1 forward"});
  EXPECT_EQ(h.counts().at("b"), "0/0");
}

// Normalized rules (every coordinate in 0..1) follow the frame size: the door at x = 0.5 is at 50 px
// on 100 px frames and at 100 px on 200 px frames.
TEST(CclAnalytics, NormalizedRulesOnTwoFrameSizes) {
  const std::string rules = R"({"lines": [{"name": "door", "from": [0.5, 0], "to": [0.5, 1]}]})";
  {
    AnalyticsHarness h(rules, 100, 100);
    ASSERT_TRUE(h.push(0, {{1, 70, 80}}));
    ASSERT_TRUE(h.push(1, {{1, 30, 80}}));
    EXPECT_EQ(h.counts().at("door"), "1/0");
  }
  {
    AnalyticsHarness h(rules, 200, 100);
    ASSERT_TRUE(h.push(0, {{1, 70, 80}}));
    ASSERT_TRUE(h.push(1, {{1, 30, 80}}));  // left of x = 100 all along: no crossing
    EXPECT_EQ(h.counts().at("door"), "0/0");
    ASSERT_TRUE(h.push(2, {{1, 140, 80}}));
    ASSERT_TRUE(h.push(3, {{1, 60, 80}}));
    EXPECT_EQ(h.counts().at("door"), "1/1");
  }
  // "units": "pixels" keeps coordinates in 0..1 as pixels: a door at x = 1 px.
  {
    AnalyticsHarness h(R"({"units": "pixels", "lines": [{"name": "door", "from": [0.5, 0], "to": [0.5, 1]}]})");
    ASSERT_TRUE(h.push(0, {{1, 70, 80}}));
    ASSERT_TRUE(h.push(1, {{1, 30, 80}}));
    EXPECT_EQ(h.counts().at("door"), "0/0");
  }
}

// A crossing made while the track was still tentative counts once ccltracker confirms it (its
// GstCclTrackLifeMeta carries the tentative boxes), at the time it happened.
TEST(CclAnalytics, TentativeCrossingCountsOnceConfirmed) {
  elcheck::init();
  GstElement* bin = gst_parse_bin_from_description("ccltracker min-hits=3 ! cclanalytics name=a", TRUE, nullptr);
  ASSERT_TRUE(bin);
  GstElement* analytics = gst_bin_get_by_name(GST_BIN(bin), "a");
  g_object_set(analytics, "rules", R"({"hysteresis": 2, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}]})",
               nullptr);
  gst_object_unref(analytics);
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(bin, bus);
  GstHarness* h = gst_harness_new_with_element(bin, "sink", "src");
  gst_object_unref(bin);
  gst_harness_set_src_caps_str(h, "video/x-raw,format=GRAY8,width=100,height=100,framerate=1/1");
  // A 10 x 10 box moving 6 px a frame: its bottom-centre at x = 47 (right of the door, d = 3), then
  // 53 (left): it crosses between frames 0 and 1, while tentative (confirmed at frame 2).
  std::vector<std::string> events;
  std::vector<guint64> ats;
  for (int t = 0; t < 6; ++t) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
    GST_BUFFER_PTS(b) = GstClockTime(t) * kSecond;
    const int x = 42 + 6 * t;
    GstCclComponent c = {1, 100, x, 60, 10, 10, x + 4.5, 64.5, 0};
    gst_buffer_add_ccl_meta(b, 100, 100, 8, 1, FALSE, &c, 1);
    ASSERT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(h));
    while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
      const GstStructure* s = gst_message_get_structure(m);
      int when = -1;
      const std::string e = event_of(s, &when);
      guint64 at = 0;
      if (!e.empty()) events.push_back(std::to_string(when) + ": " + e), gst_structure_get_uint64(s, "at", &at),
          ats.push_back(at);
      gst_message_unref(m);
    }
  }
  ASSERT_EQ(events, std::vector<std::string>{"2: line-cross door 1 backward"});
  EXPECT_EQ(ats[0], kSecond);  // the sighting that completed the crossing: frame 1
  gst_bus_set_flushing(bus, TRUE);
  gst_harness_teardown(h);
  gst_object_unref(bus);
}

// The real chain on the daylight scene: messages are posted and agree with each other (the counts
// are the events' tallies).
std::vector<std::string> daylight_events(const char* backend, std::map<std::string, std::string>* last_counts,
                                         int* frames) {
  const std::string rules =
      R"({"lines": [{"name": "door", "from": [320, 0], "to": [320, 360]}],)"
      R"( "zones": [{"name": "lot", "polygon": [[100, 200], [300, 200], [300, 350], [100, 350]], "dwell": 1.0}]})";
  GstElement* p = elcheck::parse(std::string("cclblobsrc scene=daylight num-buffers=150 ! cudaccl backend=") + backend +
                                 " foreground=adaptive min-area=50 ! ccltracker ! cclanalytics name=a ! fakesink");
  std::vector<std::string> events;
  *frames = 0;
  if (!p) return events;
  GstElement* analytics = gst_bin_get_by_name(GST_BIN(p), "a");
  g_object_set(analytics, "rules", rules.c_str(), nullptr);
  gst_object_unref(analytics);
  const std::string error = elcheck::play_to_eos(p, 60 * GST_SECOND, [&](GstMessage* m) {
    const GstStructure* s = gst_message_get_structure(m);
    int t = -1;
    const std::string e = event_of(s, &t);
    if (!e.empty()) events.push_back(e);
    if (gst_structure_has_name(s, "ccl-analytics")) *last_counts = counts_of(s), ++*frames;
  });
  EXPECT_EQ(error, "");
  gst_object_unref(p);
  return events;
}

TEST(CclAnalytics, DaylightChainCountsAgreeWithEvents) {
  std::map<std::string, std::string> counts;
  int frames = 0;
  const std::vector<std::string> events = daylight_events("cpu", &counts, &frames);
  EXPECT_EQ(frames, 150);
  int forward = 0, backward = 0, enters = 0, exits = 0;
  for (const std::string& e : events) {
    forward += e.rfind("line-cross door", 0) == 0 && e.find(" forward") != std::string::npos;
    backward += e.rfind("line-cross door", 0) == 0 && e.find(" backward") != std::string::npos;
    enters += e.rfind("zone-enter lot", 0) == 0;
    exits += e.rfind("zone-exit lot", 0) == 0;
  }
  std::printf("daylight, 150 frames: door %d forward, %d backward; lot %d enters, %d exits\n", forward, backward,
              enters, exits);
  EXPECT_GT(forward + backward, 0);
  EXPECT_GT(enters, 0);
  EXPECT_EQ(counts.at("door"), std::to_string(forward) + "/" + std::to_string(backward));
  EXPECT_EQ(enters, exits);  // every visit ends by EOS
}

// The same events whichever cudaccl backend labelled the frames (the GPU host runs this one).
TEST(CclAnalytics, CpuAndCudaBackendsGiveTheSameEvents) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  std::map<std::string, std::string> cpu_counts, cuda_counts;
  int cpu_frames = 0, cuda_frames = 0;
  const std::vector<std::string> cpu = daylight_events("cpu", &cpu_counts, &cpu_frames);
  const std::vector<std::string> cuda = daylight_events("cuda", &cuda_counts, &cuda_frames);
  EXPECT_EQ(cpu, cuda);
  EXPECT_EQ(cpu_counts, cuda_counts);
  EXPECT_FALSE(cpu.empty());
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

}  // namespace

namespace {

// ccltracker's GstCclTrackLifeMeta, read with GStreamer's public API only: the buffer that confirms
// a track lists it with its tentative matches (PTS and boxes), the one where it ends lists its id.
TEST(CclTrackLifeMeta, StartedWithTentativeBoxesAndEnded) {
  elcheck::init();
  GstHarness* h = gst_harness_new_parse("ccltracker min-hits=3 max-misses=1");
  gst_harness_set_src_caps_str(h, "video/x-raw,format=GRAY8,width=100,height=100,framerate=1/1");
  std::vector<std::string> seen;  // per buffer: "started id [t:x,y,w,h ...]; ended ids"
  for (int t = 0; t < 6; ++t) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
    GST_BUFFER_PTS(b) = GstClockTime(t) * kSecond;
    const int x = 20 + 6 * t;
    GstCclComponent c = {1, 100, x, 30, 10, 10, x + 4.5, 34.5, 0};
    gst_buffer_add_ccl_meta(b, 100, 100, 8, t < 4 ? 1 : 0, FALSE, &c, t < 4 ? 1 : 0);  // gone from frame 4
    ASSERT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(h);
    std::string line;
    if (GstCustomMeta* m = gst_buffer_get_custom_meta(out, "GstCclTrackLifeMeta")) {
      const GstStructure* s = gst_custom_meta_get_structure(m);
      EXPECT_TRUE(gst_structure_has_name(s, "ccl-track-life"));
      const GValue* started = gst_structure_get_value(s, "started");
      const GValue* ended = gst_structure_get_value(s, "ended");
      for (guint i = 0; started && i < gst_value_array_get_size(started); ++i) {
        const GstStructure* track = gst_value_get_structure(gst_value_array_get_value(started, i));
        guint id = 0;
        gst_structure_get_uint(track, "id", &id);
        line += "started " + std::to_string(id);
        const GValue* times = gst_structure_get_value(track, "times");
        const GValue* boxes = gst_structure_get_value(track, "boxes");
        for (guint k = 0; k < gst_value_array_get_size(times); ++k) {
          const GValue* box = gst_value_array_get_value(boxes, k);
          line += " " + std::to_string(g_value_get_uint64(gst_value_array_get_value(times, k)) / kSecond) + ":";
          for (guint j = 0; j < 4; ++j)
            line += (j ? "," : "") + std::to_string(int(g_value_get_double(gst_value_array_get_value(box, j))));
        }
      }
      for (guint i = 0; ended && i < gst_value_array_get_size(ended); ++i)
        line += "ended " + std::to_string(g_value_get_uint(gst_value_array_get_value(ended, i)));
    }
    seen.push_back(line);
    gst_buffer_unref(out);
  }
  // Confirmed at frame 2 (min-hits 3) with its boxes of frames 0 and 1; lost at 4, ended at 5
  // (max-misses 1).
  EXPECT_EQ(seen, (std::vector<std::string>{"", "", "started 1 0:20,30,10,10 1:26,30,10,10", "", "", "ended 1"}));
  gst_harness_teardown(h);
}

}  // namespace
