// The analytics output (GStreamer >= 1.24): one GstAnalyticsRelationMeta per frame holding one
// GstAnalyticsODMtd per component, in order, read by objectdetectionoverlay, trackers and the ONVIF
// elements. The meta is created presized: left at its default size, its N x N relation matrix
// grows by a few entries at a time and is copied each time (milliseconds at 1,600 components).
#include <gst/analytics/analytics.h>

#include "ccl_outputs.h"
#include "ccl_quarks.h"

namespace {

// Bytes one ODMtd takes in the relation meta's buffer: its data plus the per-entry header, rounded
// up generously (a buffer that is too small is grown by GStreamer, at the cost of one copy).
constexpr gsize kBytesPerDetection = 96;

// True when every entry of `meta` is a "connected-component" ODMtd or a tracking mtd (a ccltracker
// added those; vacuously true when empty): then it is an earlier cudaccl's answer, not another producer's.
bool holds_only_components(GstAnalyticsRelationMeta* meta) {
  const GQuark ours = ccl_outputs::quarks().roi_type;
  const GstAnalyticsMtdType od = gst_analytics_od_mtd_get_mtd_type();
  const GstAnalyticsMtdType tracking = gst_analytics_tracking_mtd_get_mtd_type();
  gpointer state = nullptr;
  GstAnalyticsMtd mtd;
  while (gst_analytics_relation_meta_iterate(meta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &mtd)) {
    if (gst_analytics_mtd_get_mtd_type(&mtd) == tracking) continue;
    if (gst_analytics_mtd_get_mtd_type(&mtd) != od) return false;
    if (gst_analytics_od_mtd_get_obj_type(reinterpret_cast<GstAnalyticsODMtd*>(&mtd)) != ours) return false;
  }
  return true;
}

}  // namespace

bool gst_ccl_outputs_is_earlier_analytics_meta(GstMeta* meta) {
  return meta->info->api == GST_ANALYTICS_RELATION_META_API_TYPE &&
         holds_only_components(reinterpret_cast<GstAnalyticsRelationMeta*>(meta));
}

void gst_ccl_outputs_add_analytics_meta(GstBuffer* buffer, const std::vector<ccl::Component>& components) {
  const GQuark type = ccl_outputs::quarks().roi_type;
  // Another producer's meta (a detector upstream) is joined, not duplicated: consumers read the
  // buffer's first relation meta only.
  GstAnalyticsRelationMeta* meta = gst_buffer_get_analytics_relation_meta(buffer);
  if (!meta) {
    GstAnalyticsRelationMetaInitParams params = {components.size() + 1,
                                                 (components.size() + 1) * kBytesPerDetection};
    meta = gst_buffer_add_analytics_relation_meta_full(buffer, &params);
    if (!meta) return;  // not writable: GStreamer said so
  }
  for (const ccl::Component& c : components)
    if (!gst_analytics_relation_meta_add_od_mtd(meta, type, c.x, c.y, c.width, c.height, 1.0f, nullptr)) return;
}
