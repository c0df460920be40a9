// cclanalytics: scene rules (lines, zones) on the tracks ccltracker gave the components of GstCclMeta.
#pragma once

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_ANALYTICS (gst_ccl_analytics_get_type())
G_DECLARE_FINAL_TYPE(GstCclAnalytics, gst_ccl_analytics, GST, CCL_ANALYTICS, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE(cclanalytics);

G_END_DECLS
