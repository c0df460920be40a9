#include "ccl_track_life_meta.h"

#include "ccl_custom_meta.h"

namespace {

void append_value(GValue* array, GValue* v) { gst_value_array_append_and_take_value(array, v); }

void append_uint64(GValue* array, guint64 x) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, G_TYPE_UINT64);
  g_value_set_uint64(&v, x);
  append_value(array, &v);
}

void append_double(GValue* array, double x) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, G_TYPE_DOUBLE);
  g_value_set_double(&v, x);
  append_value(array, &v);
}

double double_at(const GValue* array, guint i) {
  const GValue* v = gst_value_array_get_value(array, i);
  return v && G_VALUE_HOLDS_DOUBLE(v) ? g_value_get_double(v) : 0.0;
}

}  // namespace

void gst_ccl_track_life_meta_register() {
  static gsize once = 0;
  ccl_custom_meta_register_once(&once, GST_CCL_TRACK_LIFE_META_NAME);
}

void gst_ccl_track_life_meta_add(GstBuffer* buffer, const ccl::track::Tracker& tracker) {
  bool any = false;
  for (const ccl::track::Event& e : tracker.events())
    any |= e.kind == ccl::track::Event::Kind::Started || e.kind == ccl::track::Event::Kind::Ended;
  if (!any) return;
  gst_ccl_track_life_meta_register();
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_TRACK_LIFE_META_NAME);
  if (!meta) return;
  GValue started = G_VALUE_INIT, ended = G_VALUE_INIT;
  gst_value_array_init(&started, 0);
  gst_value_array_init(&ended, 0);
  std::vector<ccl::track::TrailPoint> trail;
  for (const ccl::track::Event& e : tracker.events()) {
    if (e.kind == ccl::track::Event::Kind::Ended) {
      GValue v = G_VALUE_INIT;
      g_value_init(&v, G_TYPE_UINT);
      g_value_set_uint(&v, e.id);
      append_value(&ended, &v);
      continue;
    }
    if (e.kind != ccl::track::Event::Kind::Started) continue;
    trail.clear();
    for (const ccl::track::Track& t : tracker.tracks())
      if (t.id == e.id) tracker.trail(t, &trail);
    GValue times = G_VALUE_INIT, boxes = G_VALUE_INIT;
    gst_value_array_init(&times, 0);
    gst_value_array_init(&boxes, 0);
    for (const ccl::track::TrailPoint& p : trail) {
      if (p.time >= e.last_time) continue;  // this buffer's own match: the frame itself tells it
      append_uint64(&times, guint64(p.time));
      GValue box = G_VALUE_INIT;
      gst_value_array_init(&box, 4);
      for (float f : {p.box.x, p.box.y, p.box.width, p.box.height}) append_double(&box, f);
      append_value(&boxes, &box);
    }
    GstStructure* track = gst_structure_new("track", "id", G_TYPE_UINT, e.id, nullptr);
    gst_structure_take_value(track, "times", &times);
    gst_structure_take_value(track, "boxes", &boxes);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&v, track);
    append_value(&started, &v);
  }
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set_name(s, "ccl-track-life");
  gst_structure_take_value(s, "started", &started);
  gst_structure_take_value(s, "ended", &ended);
}

bool gst_ccl_track_life_meta_read(GstBuffer* buffer, CclTrackLife* out) {
  out->started.clear();
  out->ended.clear();
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_TRACK_LIFE_META_NAME);
  if (!meta) return false;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  const GValue* started = gst_structure_get_value(s, "started");
  const GValue* ended = gst_structure_get_value(s, "ended");
  if (started && GST_VALUE_HOLDS_ARRAY(started))
    for (guint i = 0; i < gst_value_array_get_size(started); ++i) {
      const GValue* v = gst_value_array_get_value(started, i);
      if (!GST_VALUE_HOLDS_STRUCTURE(v)) continue;
      const GstStructure* track = gst_value_get_structure(v);
      CclTrackLife::Start start{};
      if (!gst_structure_get_uint(track, "id", &start.id)) continue;
      const GValue* times = gst_structure_get_value(track, "times");
      const GValue* boxes = gst_structure_get_value(track, "boxes");
      if (times && boxes && GST_VALUE_HOLDS_ARRAY(times) && GST_VALUE_HOLDS_ARRAY(boxes))
        for (guint k = 0; k < gst_value_array_get_size(times) && k < gst_value_array_get_size(boxes); ++k) {
          const GValue* t = gst_value_array_get_value(times, k);
          const GValue* b = gst_value_array_get_value(boxes, k);
          if (!G_VALUE_HOLDS_UINT64(t) || !GST_VALUE_HOLDS_ARRAY(b) || gst_value_array_get_size(b) != 4) continue;
          start.history.push_back({std::int64_t(g_value_get_uint64(t)), double_at(b, 0), double_at(b, 1),
                                   double_at(b, 2), double_at(b, 3)});
        }
      out->started.push_back(std::move(start));
    }
  if (ended && GST_VALUE_HOLDS_ARRAY(ended))
    for (guint i = 0; i < gst_value_array_get_size(ended); ++i) {
      const GValue* v = gst_value_array_get_value(ended, i);
      if (G_VALUE_HOLDS_UINT(v)) out->ended.push_back(g_value_get_uint(v));
    }
  return true;
}
