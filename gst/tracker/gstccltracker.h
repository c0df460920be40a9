// ccltracker: gives the connected components of each frame (GstCclMeta from cudaccl) track ids.
#pragma once

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_TRACKER (gst_ccl_tracker_get_type())
G_DECLARE_FINAL_TYPE(GstCclTracker, gst_ccl_tracker, GST, CCL_TRACKER, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE(ccltracker);

G_END_DECLS
