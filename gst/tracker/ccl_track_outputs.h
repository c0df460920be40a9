// What ccltracker writes on a buffer once the tracker ran: track_id into the GstCclMeta entries,
// "track-id" into the "connected-component" ROI params, and (GStreamer >= 1.24) one
// GstAnalyticsTrackingMtd per tracked component, related to its ODMtd, and one per lost track.
#pragma once

#include <cstdint>
#include <vector>

#include <gst/gst.h>

#include "ccl/gstcclmeta.h"
#include "config.h"
#include "tracker/tracker.hpp"

// ids[i] is the track id of meta->components[i] (0 = none).
void gst_ccl_track_write_ids(GstCclMeta* meta, const std::vector<std::uint32_t>& ids);

// Sets "track-id" (uint) on the "connected-component" param of each ROI meta whose id is the label
// of one of meta's components (0 for components without a track).
void gst_ccl_track_write_roi_params(GstBuffer* buffer, const GstCclMeta* meta);

#if CCL_HAVE_ANALYTICS
// One GstAnalyticsTrackingMtd (id = track id, first seen = first_seen[i], last seen = now) per
// component with a track id, related (RELATE_TO) to the component's ODMtd; nothing when the
// buffer's ODMtds of type "connected-component" are not one per component.
void gst_ccl_track_add_analytics(GstBuffer* buffer, const GstCclMeta* meta, const std::vector<std::int64_t>& first_seen,
                                 GstClockTime now);

// One GstAnalyticsTrackingMtd with `lost` set per lost (coasting) track: id, first seen, last seen
// = the PTS of its last matched detection; related to nothing (the track has no component this
// frame). Nothing when the buffer has no analytics relation meta.
void gst_ccl_track_add_lost_analytics(GstBuffer* buffer, const std::vector<ccl::track::Track>& tracks);
#endif
