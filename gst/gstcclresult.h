// Turns a ccl::Result into what downstream sees: GstCclMeta and the "ccl" message (the ROI metas:
// ccl_roi_metas.h).
#pragma once

#include <gst/gst.h>

#include "ccl/types.hpp"

// Removes the GstCclMeta and "connected-component" ROI metas an earlier cudaccl attached, so a
// buffer carries one answer: the one of the element it last went through.
void gst_ccl_result_remove_metas(GstBuffer* buffer);

// Attaches one GstCclMeta with every reported component.
void gst_ccl_result_add_meta(GstBuffer* buffer, const ccl::Result& result);

// Times of the frame the message describes; GST_CLOCK_TIME_NONE where unknown.
struct GstCclFrameTimes {
  GstClockTime timestamp, stream_time, running_time, duration;
};

// The element message structure "ccl" (schema in DESIGN.md).
GstStructure* gst_ccl_result_to_structure(const ccl::Result& result, const GstCclFrameTimes& times);
