// cclanalytics' rules: bad rules refused naming the rule and the field (an error at start, a
// warning while playing), rules-file, the global and per-rule anchors, normalized rules.
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
}  // namespace
