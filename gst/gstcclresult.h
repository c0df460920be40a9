// Turns a ccl::Result into what downstream sees: GstCclMeta, ROI metas, the "ccl" message.
#pragma once

#include <gst/gst.h>

#include "ccl/types.hpp"

// Removes the GstCclMeta and "connected-component" ROI metas an earlier cudaccl attached, so a
// buffer carries one answer: the one of the element it last went through.
void gst_ccl_result_remove_metas(GstBuffer* buffer);

// Attaches one GstCclMeta with every reported component.
void gst_ccl_result_add_meta(GstBuffer* buffer, const ccl::Result& result);

namespace ccl_gst {
class RoiParamStock;
}

// Attaches one GstVideoRegionOfInterestMeta of type "connected-component" per reported component;
// their param structures come from `stock` when given (prepared while the frame was labelled).
void gst_ccl_result_add_roi_metas(GstBuffer* buffer, const ccl::Result& result,
                                  ccl_gst::RoiParamStock* stock = nullptr);

// Times of the frame the message describes; GST_CLOCK_TIME_NONE where unknown.
struct GstCclFrameTimes {
  GstClockTime timestamp, stream_time, running_time, duration;
};

// The element message structure "ccl" (schema in DESIGN.md).
GstStructure* gst_ccl_result_to_structure(const ccl::Result& result, const GstCclFrameTimes& times);
