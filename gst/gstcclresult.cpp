#include "gstcclresult.h"

#include <cstddef>
#include <type_traits>
#include <vector>

#include <gst/video/video.h>

#include "ccl/gstcclmeta.h"
#include "ccl_parallel.h"
#include "ccl_quarks.h"

GST_DEBUG_CATEGORY_STATIC(gst_ccl_result_debug);
#define GST_CAT_DEFAULT gst_ccl_result_debug

// The component list is copied into the meta with one memcpy, so the layouts must agree.
static_assert(sizeof(ccl::Component) == sizeof(GstCclComponent), "component size differs");
static_assert(std::is_trivially_copyable<ccl::Component>::value, "component must be trivially copyable");
static_assert(offsetof(ccl::Component, label) == offsetof(GstCclComponent, label), "label offset differs");
static_assert(offsetof(ccl::Component, area) == offsetof(GstCclComponent, area), "area offset differs");
static_assert(offsetof(ccl::Component, x) == offsetof(GstCclComponent, x), "x offset differs");
static_assert(offsetof(ccl::Component, y) == offsetof(GstCclComponent, y), "y offset differs");
static_assert(offsetof(ccl::Component, width) == offsetof(GstCclComponent, width), "width offset differs");
static_assert(offsetof(ccl::Component, height) == offsetof(GstCclComponent, height), "height offset differs");
static_assert(offsetof(ccl::Component, centroid_x) == offsetof(GstCclComponent, centroid_x), "centroid_x offset differs");
static_assert(offsetof(ccl::Component, centroid_y) == offsetof(GstCclComponent, centroid_y), "centroid_y offset differs");

static void ensure_debug_category() {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    GST_DEBUG_CATEGORY_INIT(gst_ccl_result_debug, "cudacclresult", 0, "cudaccl metas and messages");
    g_once_init_leave(&done, 1);
  }
}

using ccl_gst::ComponentQuarks;
using ccl_gst::quarks;

void gst_ccl_result_remove_metas(GstBuffer* buffer) {
  gst_buffer_foreach_meta(
      buffer,
      [](GstBuffer*, GstMeta** meta, gpointer) -> gboolean {
        const GType api = (*meta)->info->api;
        const bool ours = api == GST_CCL_META_API_TYPE ||
                          (api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE &&
                           reinterpret_cast<GstVideoRegionOfInterestMeta*>(*meta)->roi_type == quarks().roi_type);
        if (ours) *meta = nullptr;  // tells gst_buffer_foreach_meta to remove it
        return TRUE;
      },
      nullptr);
}

void gst_ccl_result_add_meta(GstBuffer* buffer, const ccl::Result& result) {
  ensure_debug_category();
  const auto* components = reinterpret_cast<const GstCclComponent*>(result.components.data());
  gst_buffer_add_ccl_meta(buffer, guint(result.width), guint(result.height), guint(result.connectivity),
                          result.n_components_total, result.truncated, components,
                          guint(result.components.size()));
  GST_LOG("attached %zu of %u components", result.components.size(), result.n_components_total);
}

static GstStructure* message_component(const ccl::Component& c) {
  const ComponentQuarks& q = quarks();
  return gst_structure_new_id(q.component, q.label, G_TYPE_UINT, c.label, q.x, G_TYPE_INT, c.x, q.y, G_TYPE_INT, c.y,
                              q.width, G_TYPE_INT, c.width, q.height, G_TYPE_INT, c.height, q.area, G_TYPE_UINT,
                              c.area, q.centroid_x, G_TYPE_DOUBLE, c.centroid_x, q.centroid_y, G_TYPE_DOUBLE,
                              c.centroid_y, nullptr);
}

// One message entry per component, on the worker threads for long lists: a GstStructure costs
// ~0.1-0.16 us of GValue bookkeeping, so 1,600 of them took longer than labelling a 4K frame.
// Chunks of 128 (~15 us of work): 384 was slower on the H100 host for 250-1,600 components.
static std::vector<GstStructure*> message_components(const ccl::Result& result) {
  const std::vector<ccl::Component>& components = result.components;
  std::vector<GstStructure*> out(components.size());
  ccl_gst::parallel_for(components.size(), 128, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[i] = message_component(components[i]);
  });
  return out;
}

GstStructure* gst_ccl_result_to_structure(const ccl::Result& result, const GstCclFrameTimes& times) {
  GValue list = G_VALUE_INIT;
  g_value_init(&list, GST_TYPE_LIST);
  for (GstStructure* component : message_components(result)) {
    GValue item = G_VALUE_INIT;
    g_value_init(&item, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&item, component);
    gst_value_list_append_and_take_value(&list, &item);
  }
  GstStructure* s = gst_structure_new(
      "ccl", "timestamp", G_TYPE_UINT64, guint64(times.timestamp), "stream-time", G_TYPE_UINT64,
      guint64(times.stream_time), "running-time", G_TYPE_UINT64, guint64(times.running_time), "duration",
      G_TYPE_UINT64, guint64(times.duration), "width", G_TYPE_INT, result.width, "height", G_TYPE_INT,
      result.height, "n-components", G_TYPE_UINT, guint(result.components.size()), "n-components-total",
      G_TYPE_UINT, result.n_components_total, "truncated", G_TYPE_BOOLEAN, gboolean(result.truncated), nullptr);
  gst_structure_take_value(s, "components", &list);
  return s;
}
