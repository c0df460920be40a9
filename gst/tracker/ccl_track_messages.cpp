#include "ccl_track_messages.h"

namespace {

const char* event_name(ccl::track::Event::Kind kind) {
  switch (kind) {
    case ccl::track::Event::Kind::Started: return "start";
    case ccl::track::Event::Kind::Lost: return "lost";
    case ccl::track::Event::Kind::Reacquired: return "reacquired";
    case ccl::track::Event::Kind::Ended: break;
  }
  return "end";
}

}  // namespace

GstStructure* gst_ccl_track_message_structure(const ccl::track::Event& e) {
  return gst_structure_new("ccl-track", "event", G_TYPE_STRING, event_name(e.kind), "id", G_TYPE_UINT, e.id,
                           "first-timestamp", G_TYPE_UINT64, guint64(e.first_time), "last-timestamp", G_TYPE_UINT64,
                           guint64(e.last_time), "x", G_TYPE_INT, gint(e.box.x), "y", G_TYPE_INT, gint(e.box.y),
                           "width", G_TYPE_INT, gint(e.box.width), "height", G_TYPE_INT, gint(e.box.height), nullptr);
}
