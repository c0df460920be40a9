#include "ccl_analytics_meta.h"

#if CCL_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>

#include <map>
#include <string>

#include "ccl_analytics_messages.h"

namespace {

using ccl::scene::Event;

// The entries of one track on the buffer: its TrackingMtd and the ODMtd related to it (ids; -1: none).
struct TrackEntries {
  gint64 tracking = -1, od = -1;
};

std::map<std::uint32_t, TrackEntries> track_entries(GstAnalyticsRelationMeta* rmeta) {
  std::map<std::uint32_t, TrackEntries> out;
  gpointer state = nullptr;
  GstAnalyticsTrackingMtd trk;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_tracking_mtd_get_mtd_type(), &trk)) {
    guint64 id = 0;
    GstClockTime first = 0, last = 0;
    gboolean lost = FALSE;
    if (!gst_analytics_tracking_mtd_get_info(&trk, &id, &first, &last, &lost) || lost) continue;
    out[std::uint32_t(id)].tracking = trk.id;
  }
  if (out.empty()) return out;
  state = nullptr;
  GstAnalyticsODMtd od;
  while (gst_analytics_relation_meta_iterate(rmeta, &state, gst_analytics_od_mtd_get_mtd_type(), &od))
    for (auto& [id, e] : out)
      if (e.od < 0 && gst_analytics_relation_meta_get_relation(rmeta, od.id, guint(e.tracking)) ==
                          GST_ANALYTICS_REL_TYPE_RELATE_TO)
        e.od = od.id;
  return out;
}

void add_class(GstAnalyticsRelationMeta* rmeta, const std::string& name, const TrackEntries* track) {
  GstAnalyticsClsMtd cls;
  if (!gst_analytics_relation_meta_add_one_cls_mtd(rmeta, 1.0f, g_quark_from_string(name.c_str()), &cls)) return;
  if (!track) return;
  if (track->tracking >= 0)
    gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, cls.id, guint(track->tracking));
  if (track->od >= 0)
    gst_analytics_relation_meta_set_relation(rmeta, GST_ANALYTICS_REL_TYPE_RELATE_TO, guint(track->od), cls.id);
}

}  // namespace

void gst_ccl_analytics_add_meta(GstBuffer* buffer, const ccl::scene::SceneAnalytics& scene,
                                const CclZoneMembers& members) {
  const ccl::scene::Rules& rules = scene.rules();
  bool any = !scene.events().empty();
  for (std::size_t z = 0; z < rules.zones.size(); ++z) any |= !members.members(z).empty();
  if (!any) return;
  GstAnalyticsRelationMeta* rmeta = gst_buffer_get_analytics_relation_meta(buffer);
  if (!rmeta) rmeta = gst_buffer_add_analytics_relation_meta(buffer);
  if (!rmeta) return;
  const std::map<std::uint32_t, TrackEntries> tracks = track_entries(rmeta);
  auto entries_of = [&](std::uint32_t id) -> const TrackEntries* {
    auto it = tracks.find(id);
    return id != 0 && it != tracks.end() ? &it->second : nullptr;
  };
  for (std::size_t z = 0; z < rules.zones.size(); ++z)
    for (std::uint32_t id : members.members(z)) add_class(rmeta, "zone:" + rules.zones[z].name, entries_of(id));
  for (const Event& e : scene.events()) {
    const bool line = e.type == Event::Type::LineCross;
    std::string name = std::string(gst_ccl_analytics_event_type_name(e.type)) + ":" +
                       (line ? rules.lines.at(e.rule).name : rules.zones.at(e.rule).name);
    if (line) name += e.direction == ccl::scene::Direction::Backward ? ":backward" : ":forward";
    add_class(rmeta, name, entries_of(e.track_id));
  }
}
#endif
