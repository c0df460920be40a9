// What downstream sees of a ccl::Result: GstCclMeta, the "connected-component" ROI metas and the
// "ccl" element message (schemas in docs/contract.md). Used by cudaccl, its tests and its benchmarks.
#pragma once

#include <vector>

#include <gst/gst.h>

#include "ccl/gstcclmeta.h"
#include "ccl/types.hpp"
#include "config.h"

// Removes the GstCclMeta, "connected-component" ROI metas and relation meta of ODMtds an earlier
// cudaccl attached, so a buffer carries one answer: the one of the element it last went through.
void gst_ccl_outputs_remove(GstBuffer* buffer);

// Attaches one GstCclMeta with every reported component.
void gst_ccl_outputs_add_meta(GstBuffer* buffer, const ccl::Result& result);

// Attaches one GstVideoRegionOfInterestMeta per component, in order, each with its one
// "connected-component" param (label, area, centroid-x, centroid-y).
void gst_ccl_outputs_add_roi_metas(GstBuffer* buffer, const std::vector<ccl::Component>& components);

#if CCL_HAVE_ANALYTICS
// Attaches one ODMtd (type "connected-component", the component's box, confidence 1.0) per
// component, in order, to the buffer's relation meta, made presized when it has none.
void gst_ccl_outputs_add_analytics_meta(GstBuffer* buffer, const std::vector<ccl::Component>& components);
// True for a relation meta that holds nothing but an earlier cudaccl's ODMtds.
bool gst_ccl_outputs_is_earlier_analytics_meta(GstMeta* meta);
#endif

// Times of the frame the message describes; GST_CLOCK_TIME_NONE where unknown.
struct GstCclFrameTimes {
  GstClockTime timestamp, stream_time, running_time, duration;
};

GstCclFrameTimes gst_ccl_outputs_frame_times(const GstSegment& segment, GstBuffer* buffer);

// The element message structure "ccl".
GstStructure* gst_ccl_outputs_message_structure(const ccl::Result& result, const GstCclFrameTimes& times);

// The same from a GstCclMeta a tracker updated: every component entry also has "track-id" (uint, 0 =
// none). ccltracker posts it.
GstStructure* gst_ccl_outputs_tracked_message_structure(const GstCclMeta* meta, const GstCclFrameTimes& times);
