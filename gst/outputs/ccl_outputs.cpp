#include "ccl_outputs.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

#include <gst/video/video.h>

#include "ccl/gstcclmeta.h"
#include "ccl_debug.h"
#include "ccl_quarks.h"

#define GST_CAT_DEFAULT gst_ccl_outputs_debug

// GstCclComponent is ccl::Component followed by track_id (which the core never sets): each entry
// is copied as its first sizeof(ccl::Component) bytes, so those layouts must agree.
static_assert(offsetof(GstCclComponent, track_id) >= sizeof(ccl::Component), "track_id overlaps the core's fields");
static_assert(std::is_trivially_copyable<ccl::Component>::value, "component must be trivially copyable");
static_assert(offsetof(ccl::Component, label) == offsetof(GstCclComponent, label), "label offset differs");
static_assert(offsetof(ccl::Component, area) == offsetof(GstCclComponent, area), "area offset differs");
static_assert(offsetof(ccl::Component, x) == offsetof(GstCclComponent, x), "x offset differs");
static_assert(offsetof(ccl::Component, y) == offsetof(GstCclComponent, y), "y offset differs");
static_assert(offsetof(ccl::Component, width) == offsetof(GstCclComponent, width), "width offset differs");
static_assert(offsetof(ccl::Component, height) == offsetof(GstCclComponent, height), "height offset differs");
static_assert(offsetof(ccl::Component, centroid_x) == offsetof(GstCclComponent, centroid_x), "centroid_x offset differs");
static_assert(offsetof(ccl::Component, centroid_y) == offsetof(GstCclComponent, centroid_y), "centroid_y offset differs");

using ccl_outputs::ComponentQuarks;
using ccl_outputs::quarks;

void gst_ccl_outputs_remove(GstBuffer* buffer) {
  gst_buffer_foreach_meta(
      buffer,
      [](GstBuffer*, GstMeta** meta, gpointer) -> gboolean {
        const GType api = (*meta)->info->api;
        bool ours = api == GST_CCL_META_API_TYPE ||
                          (api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE &&
                           reinterpret_cast<GstVideoRegionOfInterestMeta*>(*meta)->roi_type == quarks().roi_type);
#if CCL_HAVE_ANALYTICS
        ours = ours || gst_ccl_outputs_is_earlier_analytics_meta(*meta);
#endif
        if (ours) *meta = nullptr;  // tells gst_buffer_foreach_meta to remove it
        return TRUE;
      },
      nullptr);
}

void gst_ccl_outputs_add_meta(GstBuffer* buffer, const ccl::Result& result) {
  gst_ccl_debug_init();  // tests and benchmarks call this without the plugin
  GstCclMeta* meta = gst_buffer_add_ccl_meta(buffer, guint(result.width), guint(result.height),
                                             guint(result.connectivity), result.n_components_total,
                                             result.truncated, nullptr, 0);
  if (!meta) return;  // not writable: GStreamer said so
  const std::size_t n = result.components.size();
  // Zeroed: track_id = 0 (no tracker yet) and padding bytes equal in every meta (they are compared).
  meta->components = n ? g_new0(GstCclComponent, n) : nullptr;
  meta->n_components = guint(n);
  for (std::size_t i = 0; i < n; ++i) std::memcpy(&meta->components[i], &result.components[i], sizeof(ccl::Component));
  GST_LOG("attached %zu of %u components", result.components.size(), result.n_components_total);
}

namespace {

// One "component" entry of the message; `track_id` is added where a tracker ran (>= 0).
GstStructure* message_component(guint32 label, gint x, gint y, gint width, gint height, guint32 area, gdouble centroid_x,
                                gdouble centroid_y, gint64 track_id) {
  const ComponentQuarks& q = quarks();
  GstStructure* s = gst_structure_new_id(q.component, q.label, G_TYPE_UINT, label, q.x, G_TYPE_INT, x, q.y, G_TYPE_INT,
                                         y, q.width, G_TYPE_INT, width, q.height, G_TYPE_INT, height, q.area,
                                         G_TYPE_UINT, area, q.centroid_x, G_TYPE_DOUBLE, centroid_x, q.centroid_y,
                                         G_TYPE_DOUBLE, centroid_y, nullptr);
  if (track_id >= 0) gst_structure_id_set(s, q.track_id, G_TYPE_UINT, guint(track_id), nullptr);
  return s;
}

// The "ccl" structure around the components `entry(i)` makes, i in [0, n).
template <typename Entry>
GstStructure* message_structure(std::size_t n, Entry entry, gint width, gint height, guint n_total, bool truncated,
                                const GstCclFrameTimes& times) {
  GValue list = G_VALUE_INIT;
  g_value_init(&list, GST_TYPE_LIST);
  for (std::size_t i = 0; i < n; ++i) {
    GValue item = G_VALUE_INIT;
    g_value_init(&item, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&item, entry(i));
    gst_value_list_append_and_take_value(&list, &item);
  }
  GstStructure* s = gst_structure_new(
      "ccl", "timestamp", G_TYPE_UINT64, guint64(times.timestamp), "stream-time", G_TYPE_UINT64,
      guint64(times.stream_time), "running-time", G_TYPE_UINT64, guint64(times.running_time), "duration",
      G_TYPE_UINT64, guint64(times.duration), "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "n-components", G_TYPE_UINT, guint(n), "n-components-total", G_TYPE_UINT, n_total, "truncated", G_TYPE_BOOLEAN,
      gboolean(truncated), nullptr);
  gst_structure_take_value(s, "components", &list);
  return s;
}

}  // namespace

GstStructure* gst_ccl_outputs_message_structure(const ccl::Result& result, const GstCclFrameTimes& times) {
  const auto entry = [&](std::size_t i) {
    const ccl::Component& c = result.components[i];
    return message_component(c.label, c.x, c.y, c.width, c.height, c.area, c.centroid_x, c.centroid_y, -1);
  };
  return message_structure(result.components.size(), entry, result.width, result.height, result.n_components_total,
                           result.truncated, times);
}

GstStructure* gst_ccl_outputs_tracked_message_structure(const GstCclMeta* meta, const GstCclFrameTimes& times) {
  const auto entry = [&](std::size_t i) {
    const GstCclComponent& c = meta->components[i];
    return message_component(c.label, c.x, c.y, c.width, c.height, c.area, c.centroid_x, c.centroid_y, c.track_id);
  };
  return message_structure(meta->n_components, entry, gint(meta->width), gint(meta->height), meta->n_components_total,
                           meta->truncated, times);
}

GstCclFrameTimes gst_ccl_outputs_frame_times(const GstSegment& segment, GstBuffer* buffer) {
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  return GstCclFrameTimes{pts, gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts),
                          gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts), GST_BUFFER_DURATION(buffer)};
}
