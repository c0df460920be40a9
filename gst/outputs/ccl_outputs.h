// What downstream sees of a ccl::Result: GstCclMeta, the "connected-component" ROI metas and the
// "ccl" element message (schemas in DESIGN.md). Used by cudaccl, its tests and its benchmarks.
#pragma once

#include <vector>

#include <gst/gst.h>

#include "ccl/types.hpp"

// Removes the GstCclMeta and "connected-component" ROI metas an earlier cudaccl attached, so a
// buffer carries one answer: the one of the element it last went through.
void gst_ccl_outputs_remove(GstBuffer* buffer);

// Attaches one GstCclMeta with every reported component.
void gst_ccl_outputs_add_meta(GstBuffer* buffer, const ccl::Result& result);

// Attaches one GstVideoRegionOfInterestMeta per component, in order, each with its one
// "connected-component" param (label, area, centroid-x, centroid-y).
void gst_ccl_outputs_add_roi_metas(GstBuffer* buffer, const std::vector<ccl::Component>& components);

// Times of the frame the message describes; GST_CLOCK_TIME_NONE where unknown.
struct GstCclFrameTimes {
  GstClockTime timestamp, stream_time, running_time, duration;
};

// The element message structure "ccl".
GstStructure* gst_ccl_outputs_message_structure(const ccl::Result& result, const GstCclFrameTimes& times);
