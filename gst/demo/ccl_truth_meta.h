// GstCclTruthMeta: the ground truth cclblobsrc's daylight and hard scenes put on every buffer, as a GStreamer
// custom meta (public API since 1.20), so tests and applications read it without linking to us:
//
//   GstCustomMeta* m = gst_buffer_get_custom_meta(buffer, "GstCclTruthMeta");
//   GstStructure* s = gst_custom_meta_get_structure(m);   // named "GstCclTruthMeta"
//     frame   (guint64)  the frame number that drives the scene (0 = first frame)
//     objects (GstValueArray of GstStructure "object"), one per object in view, each with
//       id (guint: stable while the object crosses the frame), x, y, width, height (gint: the box
//       of the object's drawn pixels, clipped to the frame; the object may be hidden by another)
//       still (guint, hard scenes only): frames the object has stood at its current place, 0 while
//       it moves. A stopped object stays an object (it is there); tests choose what to ask of it
//   The hard scenes (gain-step, ir-switch, shadows, sway, stopped-object, noise) add:
//     luma-gain, luma-offset (gdouble)  this frame's light: luma = gain x luma + offset, then noise
//     grey (gboolean)                    chroma flat at 128 (ir-switch at night)
//     shadows, clutter, ghosts (GstValueArray of GstStructure "region", each with id, x, y, width,
//       height (gint) and age (guint)): regions that are not objects, so a component on them can be
//       told from a false object. shadows: each object's cast shadow (id: the object), the box of
//       its darkened pixels no object hides. clutter: everywhere the swaying patch can reach.
//       ghosts: where a stopped object stood (id: the object), from the frame it moves on (age 0:
//       frames since then) until 150 frames after it has left the frame
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
  guint still = 0;  // 0 where the meta has none (daylight)
};

// A region that is not an object (a shadow, clutter or a ghost) read back from the meta.
struct GstCclTruthRegion {
  guint id;
  gint x, y, width, height;
  guint age;
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
    gst_structure_get_uint(o, "still", &b.still);  // optional
    if (!gst_structure_get_uint(o, "id", &b.id) || !gst_structure_get_int(o, "x", &b.x) ||
        !gst_structure_get_int(o, "y", &b.y) || !gst_structure_get_int(o, "width", &b.width) ||
        !gst_structure_get_int(o, "height", &b.height))
      return FALSE;
    boxes->push_back(b);
  }
  return TRUE;
}

// The regions of the list `field` ("shadows", "clutter" or "ghosts") on `buffer`: FALSE when it has
// no truth meta or a malformed list; an absent list (daylight) reads as empty.
static inline gboolean gst_ccl_truth_regions(GstBuffer* buffer, const char* field,
                                             std::vector<GstCclTruthRegion>* regions) {
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  if (!meta) return FALSE;
  regions->clear();
  const GValue* list = gst_structure_get_value(gst_custom_meta_get_structure(meta), field);
  if (!list) return TRUE;
  if (!GST_VALUE_HOLDS_ARRAY(list)) return FALSE;
  for (guint i = 0; i < gst_value_array_get_size(list); ++i) {
    const GValue* v = gst_value_array_get_value(list, i);
    if (!GST_VALUE_HOLDS_STRUCTURE(v)) return FALSE;
    const GstStructure* o = gst_value_get_structure(v);
    GstCclTruthRegion r;
    if (!gst_structure_get_uint(o, "id", &r.id) || !gst_structure_get_int(o, "x", &r.x) ||
        !gst_structure_get_int(o, "y", &r.y) || !gst_structure_get_int(o, "width", &r.width) ||
        !gst_structure_get_int(o, "height", &r.height) || !gst_structure_get_uint(o, "age", &r.age))
      return FALSE;
    regions->push_back(r);
  }
  return TRUE;
}

// The light of a hard scene's frame; FALSE when the meta has none (daylight) or there is no meta.
static inline gboolean gst_ccl_truth_lighting(GstBuffer* buffer, gdouble* gain, gdouble* offset, gboolean* grey) {
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_TRUTH_META_NAME);
  if (!meta) return FALSE;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  return gst_structure_get_double(s, "luma-gain", gain) && gst_structure_get_double(s, "luma-offset", offset) &&
         gst_structure_get_boolean(s, "grey", grey);
}
