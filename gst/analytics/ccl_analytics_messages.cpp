#include "ccl_analytics_messages.h"

namespace {

using ccl::scene::Event;

void append_structure(GValue* array, GstStructure* s) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, GST_TYPE_STRUCTURE);
  g_value_take_boxed(&v, s);
  gst_value_array_append_and_take_value(array, &v);
}

void set_times(GstStructure* s, const GstCclFrameTimes& times) {
  gst_structure_set(s, "timestamp", G_TYPE_UINT64, guint64(times.timestamp), "stream-time", G_TYPE_UINT64,
                    guint64(times.stream_time), "running-time", G_TYPE_UINT64, guint64(times.running_time), nullptr);
}

}  // namespace

const char* gst_ccl_analytics_event_type_name(Event::Type type) {
  switch (type) {
    case Event::Type::LineCross: return "line-cross";
    case Event::Type::ZoneEnter: return "zone-enter";
    case Event::Type::ZoneExit: return "zone-exit";
    case Event::Type::Dwell: return "dwell";
    case Event::Type::OvercrowdStart: return "overcrowd-start";
    case Event::Type::OvercrowdEnd: break;
  }
  return "overcrowd-end";
}

GstStructure* gst_ccl_analytics_frame_structure(const ccl::scene::SceneAnalytics& scene, const GstCclFrameTimes& times) {
  GstStructure* s = gst_structure_new_empty("ccl-analytics");
  set_times(s, times);
  const ccl::scene::Rules& rules = scene.rules();
  GValue lines = G_VALUE_INIT, zones = G_VALUE_INIT;
  gst_value_array_init(&lines, guint(rules.lines.size()));
  for (std::size_t i = 0; i < rules.lines.size(); ++i) {
    const ccl::scene::LineCounts& c = scene.line_counts()[i];
    append_structure(&lines, gst_structure_new("line", "name", G_TYPE_STRING, rules.lines[i].name.c_str(), "forward",
                                               G_TYPE_UINT64, guint64(c.forward), "backward", G_TYPE_UINT64,
                                               guint64(c.backward), nullptr));
  }
  gst_value_array_init(&zones, guint(rules.zones.size()));
  for (std::size_t i = 0; i < rules.zones.size(); ++i) {
    const ccl::scene::ZoneCounts& c = scene.zone_counts()[i];
    append_structure(&zones, gst_structure_new("zone", "name", G_TYPE_STRING, rules.zones[i].name.c_str(), "count",
                                               G_TYPE_UINT, guint(c.count), "entered", G_TYPE_UINT64,
                                               guint64(c.entered), "overcrowded", G_TYPE_BOOLEAN,
                                               gboolean(c.overcrowded), nullptr));
  }
  gst_structure_take_value(s, "lines", &lines);
  gst_structure_take_value(s, "zones", &zones);
  return s;
}

GstStructure* gst_ccl_analytics_event_structure(const ccl::scene::Rules& rules, const Event& e,
                                                const GstCclFrameTimes& times) {
  const bool line = e.type == Event::Type::LineCross;
  const std::string& rule = line ? rules.lines.at(e.rule).name : rules.zones.at(e.rule).name;
  GstStructure* s = gst_structure_new("ccl-event", "type", G_TYPE_STRING, gst_ccl_analytics_event_type_name(e.type),
                                      "rule", G_TYPE_STRING, rule.c_str(), "track-id", G_TYPE_UINT, guint(e.track_id),
                                      nullptr);
  if (line)
    gst_structure_set(s, "direction", G_TYPE_STRING, e.direction == ccl::scene::Direction::Backward ? "backward" : "forward",
                      nullptr);
  set_times(s, times);
  gst_structure_set(s, "at", G_TYPE_UINT64, guint64(e.at), nullptr);
  if (!line) gst_structure_set(s, "occupancy", G_TYPE_UINT, guint(e.occupancy), nullptr);
  return s;
}
