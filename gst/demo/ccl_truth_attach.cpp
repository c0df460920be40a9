#include "ccl_truth_attach.h"

#include "ccl_custom_meta.h"
#include "ccl_truth_meta.h"

void gst_ccl_truth_meta_register() {
  static gsize once = 0;
  ccl_custom_meta_register_once(&once, GST_CCL_TRUTH_META_NAME);
}

namespace {

// An array of structures named `name` from `items`, each made by `make`.
template <typename T, typename Make>
void set_array(GstStructure* s, const char* field, const std::vector<T>& items, Make make) {
  GValue array = G_VALUE_INIT;
  gst_value_array_init(&array, guint(items.size()));
  for (const T& item : items) {
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&v, make(item));
    gst_value_array_append_and_take_value(&array, &v);
  }
  gst_structure_take_value(s, field, &array);
}

GstStructure* object_structure(const ccl_demo::TruthBox& b) {
  return gst_structure_new("object", "id", G_TYPE_UINT, b.id, "x", G_TYPE_INT, b.x, "y", G_TYPE_INT, b.y, "width",
                           G_TYPE_INT, b.width, "height", G_TYPE_INT, b.height, nullptr);
}

}  // namespace

void gst_ccl_truth_meta_add(GstBuffer* buffer, guint64 frame, const std::vector<ccl_demo::TruthBox>& boxes) {
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set(s, "frame", G_TYPE_UINT64, frame, nullptr);
  set_array(s, "objects", boxes, object_structure);
}

void gst_ccl_truth_meta_add_hard(GstBuffer* buffer, guint64 frame, const ccl_demo::HardTruth& truth) {
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set(s, "frame", G_TYPE_UINT64, frame, "luma-gain", G_TYPE_DOUBLE, truth.luma_gain, "luma-offset",
                    G_TYPE_DOUBLE, truth.luma_offset, "grey", G_TYPE_BOOLEAN, gboolean(truth.grey), nullptr);
  set_array(s, "objects", truth.objects, [](const ccl_demo::TruthBox& b) {
    GstStructure* o = object_structure(b);
    gst_structure_set(o, "still", G_TYPE_UINT, b.still, nullptr);
    return o;
  });
  auto region = [](const ccl_demo::TruthRegion& r) {
    return gst_structure_new("region", "id", G_TYPE_UINT, r.id, "x", G_TYPE_INT, r.x, "y", G_TYPE_INT, r.y, "width",
                             G_TYPE_INT, r.width, "height", G_TYPE_INT, r.height, "age", G_TYPE_UINT, r.age, nullptr);
  };
  set_array(s, "shadows", truth.shadows, region);
  set_array(s, "clutter", truth.clutter, region);
  set_array(s, "ghosts", truth.ghosts, region);
}
