// Helpers of the cclanalytics tests: hand-made tracked frames pushed through one cclanalytics in a
// GstHarness, its ccl-event and ccl-analytics messages read back as strings.
#pragma once

#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "ccl/gstcclmeta.h"
#include "element_check.hpp"

namespace analytics_check {

constexpr GstClockTime kSecond = GST_SECOND;

// A tracked object in a hand-made frame, by its bottom-centre anchor: its box is 4 x 4 above it.
struct Obj {
  guint32 id;
  int ax, ay;
};

// "type rule track direction" of a ccl-event message ("" for other messages); time = its PTS in s.
inline std::string event_of(const GstStructure* s, int* seconds = nullptr) {
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
inline std::map<std::string, std::string> counts_of(const GstStructure* s) {
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
inline const char* kRules =
    R"({"hysteresis": 3, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}],)"
    R"( "zones": [{"name": "lot", "polygon": [[0, 0], [40, 0], [40, 40], [0, 40]], "dwell": 2.5,)"
    R"( "max-objects": 2, "overcrowd-time": 1.5}]})";

}  // namespace analytics_check
