// ccloverlay: draws the connected components found upstream (GstCclMeta, else ROI metas) onto the frame.
#pragma once

#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_OVERLAY (gst_ccl_overlay_get_type())
G_DECLARE_FINAL_TYPE(GstCclOverlay, gst_ccl_overlay, GST, CCL_OVERLAY, GstVideoFilter)

GST_ELEMENT_REGISTER_DECLARE(ccloverlay);

G_END_DECLS
