#include "ccl_track_outputs.h"

#include <algorithm>
#include <utility>

#include <gst/video/video.h>

#include "ccl_debug.h"
#include "ccl_quarks.h"

#if CCL_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#define GST_CAT_DEFAULT gst_ccl_tracker_debug

using ccl_outputs::quarks;  // the field names cudaccl's outputs use, "track-id" among them

void gst_ccl_track_write_ids(GstCclMeta* meta, const std::vector<std::uint32_t>& ids) {
  for (guint i = 0; i < meta->n_components && i < ids.size(); ++i) meta->components[i].track_id = ids[i];
}

namespace {

// The component's "connected-component" param. GStreamer >= 1.26 keeps a structure's name as a
// string and makes a quark of it on every gst_structure_get_name_id (a global lookup, ~30 ns): there
// the name is compared as a string; before, the quark is stored and compares for free.
GstStructure* component_param(const GstVideoRegionOfInterestMeta* roi, GQuark name) {
  for (GList* l = roi->params; l; l = l->next) {
    const GstStructure* s = static_cast<GstStructure*>(l->data);
#if GST_CHECK_VERSION(1, 26, 0)
    if (gst_structure_has_name(s, g_quark_to_string(name))) return static_cast<GstStructure*>(l->data);
#else
    if (gst_structure_get_name_id(s) == name) return static_cast<GstStructure*>(l->data);
#endif
  }
  return nullptr;
}

}  // namespace

void gst_ccl_track_write_roi_params(GstBuffer* buffer, const GstCclMeta* meta) {
  if (!gst_buffer_get_meta(buffer, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) return;  // attach-roi-meta=false
  // label -> track id (-1: no such component): ROI metas name their component by label (their id).
  // cudaccl's labels are 1..n-components-total, so a table indexed by label does, without a sort;
  // labels far larger than the list (another labeller) take a sorted list instead.
  guint32 max_label = 0;
  for (guint i = 0; i < meta->n_components; ++i) max_label = std::max(max_label, meta->components[i].label);
  const bool table_fits = max_label <= 4 * meta->n_components + 1024;
  std::vector<gint64> table(table_fits ? max_label + 1 : 0, -1);
  std::vector<std::pair<guint32, guint32>> by_label;
  for (guint i = 0; i < meta->n_components; ++i) {
    const GstCclComponent& c = meta->components[i];
    if (table_fits)
      table[c.label] = c.track_id;
    else
      by_label.emplace_back(c.label, c.track_id);
  }
  std::sort(by_label.begin(), by_label.end());
  auto track_of = [&](guint32 label) -> gint64 {
    if (table_fits) return label < table.size() ? table[label] : -1;
    auto it = std::lower_bound(by_label.begin(), by_label.end(), std::make_pair(label, guint32(0)));
    return it != by_label.end() && it->first == label ? gint64(it->second) : -1;
  };
  const ccl_outputs::ComponentQuarks& q = quarks();
  gpointer state = nullptr;
  while (GstMeta* m = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(m);
    if (roi->roi_type != q.roi_type || roi->id < 0) continue;
    const gint64 track_id = track_of(guint32(roi->id));
    GstStructure* param = track_id >= 0 ? component_param(roi, q.roi_type) : nullptr;
    if (param) gst_structure_id_set(param, q.track_id, G_TYPE_UINT, guint(track_id), nullptr);
  }
}

#if CCL_HAVE_ANALYTICS
void gst_ccl_track_add_analytics(GstBuffer* buffer, const GstCclMeta* meta, const std::vector<std::int64_t>& first_seen,
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
    if (!gst_analytics_relation_meta_add_tracking_mtd(rmeta, id, GstClockTime(first_seen[i]), &trk)) return;
    gst_analytics_tracking_mtd_update_last_seen(&trk, now);
    gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, od_ids[i], trk.id);
  }
}

void gst_ccl_track_add_lost_analytics(GstBuffer* buffer, const std::vector<ccl::track::Track>& tracks) {
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (!rmeta) return;
  for (const ccl::track::Track& t : tracks) {
    if (t.state != ccl::track::TrackState::Lost) continue;
    GstAnalyticsTrackingMtd trk;
    if (!gst_analytics_relation_meta_add_tracking_mtd(rmeta, t.id, GstClockTime(t.first_time), &trk)) return;
    gst_analytics_tracking_mtd_update_last_seen(&trk, GstClockTime(t.last_time));
    gst_analytics_tracking_mtd_set_lost(&trk);
  }
}
#endif
