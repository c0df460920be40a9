#include "ccl_scene_meta.h"

#include "ccl_custom_meta.h"

namespace {

void append_double(GValue* array, double x) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, G_TYPE_DOUBLE);
  g_value_set_double(&v, x);
  gst_value_array_append_and_take_value(array, &v);
}

void append_point(GValue* array, double x, double y) {
  GValue p = G_VALUE_INIT;
  gst_value_array_init(&p, 2);
  append_double(&p, x);
  append_double(&p, y);
  gst_value_array_append_and_take_value(array, &p);
}

void append_structure(GValue* array, GstStructure* s) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, GST_TYPE_STRUCTURE);
  g_value_take_boxed(&v, s);
  gst_value_array_append_and_take_value(array, &v);
}

// An [x, y] array's values; false when it is not one.
bool point_of(const GValue* v, double* x, double* y) {
  if (!v || !GST_VALUE_HOLDS_ARRAY(v) || gst_value_array_get_size(v) != 2) return false;
  const GValue* a = gst_value_array_get_value(v, 0);
  const GValue* b = gst_value_array_get_value(v, 1);
  if (!G_VALUE_HOLDS_DOUBLE(a) || !G_VALUE_HOLDS_DOUBLE(b)) return false;
  *x = g_value_get_double(a), *y = g_value_get_double(b);
  return true;
}

const GstStructure* structure_at(const GValue* array, guint i) {
  const GValue* v = gst_value_array_get_value(array, i);
  return GST_VALUE_HOLDS_STRUCTURE(v) ? gst_value_get_structure(v) : nullptr;
}

}  // namespace

void gst_ccl_scene_meta_register() {
  static gsize once = 0;
  ccl_custom_meta_register_once(&once, GST_CCL_SCENE_META_NAME);
}

void gst_ccl_scene_meta_add(GstBuffer* buffer, const CclScene& scene) {
  gst_ccl_scene_meta_register();
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_SCENE_META_NAME);
  if (!meta) return;
  GValue lines = G_VALUE_INIT, zones = G_VALUE_INIT;
  gst_value_array_init(&lines, guint(scene.lines.size()));
  for (const CclScene::Line& l : scene.lines) {
    GstStructure* s = gst_structure_new("line", "name", G_TYPE_STRING, l.name.c_str(), "forward", G_TYPE_UINT64,
                                        guint64(l.forward), "backward", G_TYPE_UINT64, guint64(l.backward), nullptr);
    GValue from = G_VALUE_INIT, to = G_VALUE_INIT;
    gst_value_array_init(&from, 2);
    append_double(&from, l.x0), append_double(&from, l.y0);
    gst_value_array_init(&to, 2);
    append_double(&to, l.x1), append_double(&to, l.y1);
    gst_structure_take_value(s, "from", &from);
    gst_structure_take_value(s, "to", &to);
    append_structure(&lines, s);
  }
  gst_value_array_init(&zones, guint(scene.zones.size()));
  for (const CclScene::Zone& z : scene.zones) {
    GstStructure* s = gst_structure_new("zone", "name", G_TYPE_STRING, z.name.c_str(), "count", G_TYPE_UINT,
                                        guint(z.count), "overcrowded", G_TYPE_BOOLEAN, gboolean(z.overcrowded), nullptr);
    GValue polygon = G_VALUE_INIT;
    gst_value_array_init(&polygon, guint(z.polygon.size() / 2));
    for (std::size_t k = 0; k + 1 < z.polygon.size(); k += 2) append_point(&polygon, z.polygon[k], z.polygon[k + 1]);
    gst_structure_take_value(s, "polygon", &polygon);
    append_structure(&zones, s);
  }
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set_name(s, "ccl-scene");
  gst_structure_take_value(s, "lines", &lines);
  gst_structure_take_value(s, "zones", &zones);
}

bool gst_ccl_scene_meta_read(GstBuffer* buffer, CclScene* out) {
  out->lines.clear();
  out->zones.clear();
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_SCENE_META_NAME);
  if (!meta) return false;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  const GValue* lines = gst_structure_get_value(s, "lines");
  const GValue* zones = gst_structure_get_value(s, "zones");
  if (lines && GST_VALUE_HOLDS_ARRAY(lines))
    for (guint i = 0; i < gst_value_array_get_size(lines); ++i) {
      const GstStructure* l = structure_at(lines, i);
      CclScene::Line line{};
      guint64 forward = 0, backward = 0;
      if (!l || !point_of(gst_structure_get_value(l, "from"), &line.x0, &line.y0) ||
          !point_of(gst_structure_get_value(l, "to"), &line.x1, &line.y1))
        continue;
      gst_structure_get_uint64(l, "forward", &forward);
      gst_structure_get_uint64(l, "backward", &backward);
      line.forward = forward, line.backward = backward;
      if (const char* name = gst_structure_get_string(l, "name")) line.name = name;
      out->lines.push_back(std::move(line));
    }
  if (zones && GST_VALUE_HOLDS_ARRAY(zones))
    for (guint i = 0; i < gst_value_array_get_size(zones); ++i) {
      const GstStructure* z = structure_at(zones, i);
      if (!z) continue;
      CclScene::Zone zone{};
      const GValue* polygon = gst_structure_get_value(z, "polygon");
      if (!polygon || !GST_VALUE_HOLDS_ARRAY(polygon)) continue;
      for (guint k = 0; k < gst_value_array_get_size(polygon); ++k) {
        double x, y;
        if (point_of(gst_value_array_get_value(polygon, k), &x, &y)) zone.polygon.push_back(x), zone.polygon.push_back(y);
      }
      gst_structure_get_uint(z, "count", &zone.count);
      gboolean overcrowded = FALSE;
      gst_structure_get_boolean(z, "overcrowded", &overcrowded);
      zone.overcrowded = overcrowded;
      if (const char* name = gst_structure_get_string(z, "name")) zone.name = name;
      out->zones.push_back(std::move(zone));
    }
  return true;
}
