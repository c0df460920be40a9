// GstCclTruthMeta: the ground truth cclblobsrc scene=daylight puts on every buffer, as a GStreamer
// custom meta (public API since 1.20), so tests and applications read it without linking to us:
//
//   GstCustomMeta* m = gst_buffer_get_custom_meta(buffer, "GstCclTruthMeta");
//   GstStructure* s = gst_custom_meta_get_structure(m);   // named "GstCclTruthMeta"
//     frame   (guint64)  the frame number that drives the scene (0 = first frame)
//     objects (GstValueArray of GstStructure "object"), one per object in view, each with
//       id (guint: stable while the object crosses the frame), x, y, width, height (gint: the box
//       of the object's drawn pixels, clipped to the frame; the object may be hidden by another)
//
// The meta has no tags, so it is copied with the buffer and dropped by transforms that change
// the picture's geometry. ccl_truth_boxes() below is the reader the tests use.
#pragma once

#include <gst/gst.h>

#include <vector>

#define GST_CCL_TRUTH_META_NAME "GstCclTruthMeta"

// A true box read back from the meta.
struct GstCclTruthBox {
  guint id;
  gint x, y, width, height;
};

// The boxes on `buffer`, in the meta's order; FALSE when it has no truth meta or a malformed one.
static inline gboolean gst_ccl_truth_boxes(GstBuffer* buffer, std::vector<GstCclTruthBox>* boxes,
                                           guint64* frame = nullptr) {
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  if (!meta) return FALSE;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  const GValue* objects = gst_structure_get_value(s, "objects");
  if (!objects || !GST_VALUE_HOLDS_ARRAY(objects)) return FALSE;
  if (frame && !gst_structure_get_uint64(s, "frame", frame)) return FALSE;
  boxes->clear();
  for (guint i = 0; i < gst_value_array_get_size(objects); ++i) {
    const GValue* v = gst_value_array_get_value(objects, i);
    if (!GST_VALUE_HOLDS_STRUCTURE(v)) return FALSE;
    const GstStructure* o = gst_value_get_structure(v);
    GstCclTruthBox b;
    if (!gst_structure_get_uint(o, "id", &b.id) || !gst_structure_get_int(o, "x", &b.x) ||
        !gst_structure_get_int(o, "y", &b.y) || !gst_structure_get_int(o, "width", &b.width) ||
        !gst_structure_get_int(o, "height", &b.height))
      return FALSE;
    boxes->push_back(b);
  }
  return TRUE;
}
