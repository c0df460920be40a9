// cclanalytics' analytics metadata (GStreamer >= 1.24, public GstAnalytics API only): one
// GstAnalyticsClsMtd per event and per zone membership, related to the track's entries. Mapping
// (docs/elements/cclanalytics.md): class quark "zone:NAME" (a track in zone NAME this frame),
// "line-cross:NAME:forward|backward", "zone-enter:NAME", "zone-exit:NAME", "dwell:NAME",
// "overcrowd-start:NAME", "overcrowd-end:NAME"; confidence 1.0; the ClsMtd RELATE_TO the track's
// GstAnalyticsTrackingMtd (ccltracker's) and that track's ODMtd RELATE_TO the ClsMtd, where the buffer
// has them (overcrowd events and exits of ended tracks have no track: related to nothing).
#pragma once

#include <config.h>

#if CCL_HAVE_ANALYTICS
#include <gst/gst.h>

#include "analytics/scene.hpp"
#include "ccl_zone_members.h"

void gst_ccl_analytics_add_meta(GstBuffer* buffer, const ccl::scene::SceneAnalytics& scene,
                                const CclZoneMembers& members);
#endif
