#include "ccl_truth_attach.h"

#include "ccl_truth_meta.h"

void gst_ccl_truth_meta_register() {
  static const gchar* tags[] = {nullptr};  // no tags: the boxes are pixel coordinates, kept only with the geometry
  static gsize once = 0;
  if (g_once_init_enter(&once)) {
    gst_meta_register_custom(GST_CCL_TRUTH_META_NAME, tags, nullptr, nullptr, nullptr);
    g_once_init_leave(&once, 1);
  }
}

void gst_ccl_truth_meta_add(GstBuffer* buffer, guint64 frame, const std::vector<ccl_demo::TruthBox>& boxes) {
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  GstStructure* s = gst_custom_meta_get_structure(meta);
  GValue objects = G_VALUE_INIT;
  gst_value_array_init(&objects, guint(boxes.size()));
  for (const ccl_demo::TruthBox& b : boxes) {
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    GstStructure* o = gst_structure_new("object", "id", G_TYPE_UINT, b.id, "x", G_TYPE_INT, b.x, "y", G_TYPE_INT, b.y,
                                        "width", G_TYPE_INT, b.width, "height", G_TYPE_INT, b.height, nullptr);
    g_value_take_boxed(&v, o);
    gst_value_array_append_and_take_value(&objects, &v);
  }
  gst_structure_set(s, "frame", G_TYPE_UINT64, frame, nullptr);
  gst_structure_take_value(s, "objects", &objects);
}
