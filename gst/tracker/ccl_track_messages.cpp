#include "ccl_track_messages.h"

GstStructure* gst_ccl_track_message_structure(const ccl::track::Event& e) {
  const bool start = e.kind == ccl::track::Event::Kind::Started;
  return gst_structure_new("ccl-track", "event", G_TYPE_STRING, start ? "start" : "end", "id", G_TYPE_UINT, e.id,
                           "first-timestamp", G_TYPE_UINT64, guint64(e.first_time), "last-timestamp", G_TYPE_UINT64,
                           guint64(e.last_time), "x", G_TYPE_INT, gint(e.box.x), "y", G_TYPE_INT, gint(e.box.y),
                           "width", G_TYPE_INT, gint(e.box.width), "height", G_TYPE_INT, gint(e.box.height), nullptr);
}
