#include "ccl_track_outputs.h"

#include <algorithm>
#include <utility>

#include <gst/video/video.h>

#if CCL_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

namespace {

struct Quarks {
  GQuark roi_type = g_quark_from_static_string("connected-component");  // also the ROI param's name
  GQuark track_id = g_quark_from_static_string("track-id");
};

const Quarks& quarks() {
  static const Quarks q;
  return q;
}

}  // namespace

void gst_ccl_track_write_ids(GstCclMeta* meta, const std::vector<std::uint32_t>& ids) {
  for (guint i = 0; i < meta->n_components && i < ids.size(); ++i) meta->components[i].track_id = ids[i];
}

void gst_ccl_track_write_roi_params(GstBuffer* buffer, const GstCclMeta* meta) {
  // label -> track id, sorted by label: ROI metas name their component by label (their id).
  std::vector<std::pair<guint32, guint32>> by_label(meta->n_components);
  for (guint i = 0; i < meta->n_components; ++i) by_label[i] = {meta->components[i].label, meta->components[i].track_id};
  std::sort(by_label.begin(), by_label.end());
  const Quarks& q = quarks();
  gpointer state = nullptr;
  while (GstMeta* m = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(m);
    if (roi->roi_type != q.roi_type || roi->id < 0) continue;
    auto it = std::lower_bound(by_label.begin(), by_label.end(), std::make_pair(guint32(roi->id), guint32(0)));
    if (it == by_label.end() || it->first != guint32(roi->id)) continue;
    GstStructure* param = gst_video_region_of_interest_meta_get_param(roi, "connected-component");
    if (param) gst_structure_id_set(param, q.track_id, G_TYPE_UINT, it->second, nullptr);
  }
}

#if CCL_HAVE_ANALYTICS
void gst_ccl_track_add_analytics(GstBuffer* buffer, const GstCclMeta* meta, const std::vector<GstClockTime>& first_seen,
                                 GstClockTime now) {
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (!rmeta) return;
  // cudaccl adds one "connected-component" ODMtd per component, in the meta's order.
  std::vector<guint> od_ids;
  od_ids.reserve(meta->n_components);
  gpointer state = nullptr;
  GstAnalyticsODMtd od;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_od_mtd_get_mtd_type(), &od))
    if (gst_analytics_od_mtd_get_obj_type(&od) == quarks().roi_type) od_ids.push_back(od.id);
  if (od_ids.size() != meta->n_components) {
    GST_DEBUG("%zu connected-component ODMtds for %u components: no tracking metadata", od_ids.size(),
              meta->n_components);
    return;
  }
  for (guint i = 0; i < meta->n_components; ++i) {
    const guint32 id = meta->components[i].track_id;
    if (id == 0) continue;
    GstAnalyticsTrackingMtd trk;
    if (!gst_analytics_relation_meta_add_tracking_mtd(rmeta, id, first_seen[i], &trk)) return;
    gst_analytics_tracking_mtd_update_last_seen(&trk, now);
    gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, od_ids[i], trk.id);
  }
}
#endif
