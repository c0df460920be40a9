// ROI metas are a compatibility output: plain public API on the caller's thread, their cost is
// GStreamer's (about 0.1 us of allocation and GValue bookkeeping per meta, see README.md).
#include <gst/video/video.h>

#include "ccl_outputs.h"
#include "ccl_quarks.h"

void gst_ccl_outputs_add_roi_metas(GstBuffer* buffer, const std::vector<ccl::Component>& components) {
  const ccl_outputs::ComponentQuarks& q = ccl_outputs::quarks();
  for (const ccl::Component& c : components) {
    GstVideoRegionOfInterestMeta* roi = gst_buffer_add_video_region_of_interest_meta_id(
        buffer, q.roi_type, guint(c.x), guint(c.y), guint(c.width), guint(c.height));
    if (!roi) return;  // not writable: GStreamer said so
    roi->id = gint(c.label);
    gst_video_region_of_interest_meta_add_param(
        roi, gst_structure_new_id(q.roi_type, q.label, G_TYPE_UINT, c.label, q.area, G_TYPE_UINT, c.area,
                                  q.centroid_x, G_TYPE_DOUBLE, c.centroid_x, q.centroid_y, G_TYPE_DOUBLE,
                                  c.centroid_y, nullptr));
  }
}
