#include "ccl_tracks_meta.h"

#include <cstring>

#include "ccl_custom_meta.h"

void gst_ccl_tracks_meta_register() {
  static gsize once = 0;
  ccl_custom_meta_register_once(&once, GST_CCL_TRACKS_META_NAME);
}

void gst_ccl_tracks_meta_add(GstBuffer* buffer, const ccl::track::Tracker& tracker) {
  gst_ccl_tracks_meta_register();
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, GST_CCL_TRACKS_META_NAME);
  if (!meta) return;
  std::size_t n = 0;
  for (const ccl::track::Track& t : tracker.tracks()) n += t.located();
  // One allocation for all records: this meta rides on every buffer.
  auto* records = static_cast<GstCclTrackRecord*>(g_malloc(n * sizeof(GstCclTrackRecord) + 1));
  std::size_t k = 0;
  for (const ccl::track::Track& t : tracker.tracks()) {
    if (!t.located()) continue;
    const guint32 flags = (t.grouped ? GST_CCL_TRACK_MERGED : 0u) | (t.hidden ? GST_CCL_TRACK_HIDDEN : 0u);
    records[k++] = {t.id, t.detection, t.shown.x, t.shown.y, t.shown.width, t.shown.height, flags};
  }
  GBytes* bytes = g_bytes_new_take(records, n * sizeof(GstCclTrackRecord));
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set_name(s, "ccl-tracks");
  gst_structure_set(s, "tracks", G_TYPE_BYTES, bytes, nullptr);
  g_bytes_unref(bytes);
}

bool gst_ccl_tracks_meta_read(GstBuffer* buffer, std::vector<GstCclTrackRecord>* out) {
  out->clear();
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, GST_CCL_TRACKS_META_NAME);
  if (!meta) return false;
  const GValue* v = gst_structure_get_value(gst_custom_meta_get_structure(meta), "tracks");
  if (!v || !G_VALUE_HOLDS(v, G_TYPE_BYTES)) return false;
  gsize size = 0;
  const void* data = g_bytes_get_data(static_cast<GBytes*>(g_value_get_boxed(v)), &size);
  if (size % sizeof(GstCclTrackRecord)) return false;
  out->resize(size / sizeof(GstCclTrackRecord));
  if (size) std::memcpy(out->data(), data, size);
  return true;
}

void gst_ccl_track_records_scale(std::vector<GstCclTrackRecord>* records, guint from_width, guint from_height,
                                 guint to_width, guint to_height) {
  const double sx = from_width ? double(to_width) / from_width : 1, sy = from_height ? double(to_height) / from_height : 1;
  if (sx == 1 && sy == 1) return;
  for (GstCclTrackRecord& r : *records) {
    r.x = float(r.x * sx), r.width = float(r.width * sx);
    r.y = float(r.y * sy), r.height = float(r.height * sy);
  }
}
