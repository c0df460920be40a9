#include "ccl_debug.h"

GST_DEBUG_CATEGORY(gst_ccl_plugin_debug);
GST_DEBUG_CATEGORY(gst_cuda_ccl_debug);
GST_DEBUG_CATEGORY(gst_cuda_ccl_backend_debug);
GST_DEBUG_CATEGORY(gst_ccl_engine_cuda_debug);
GST_DEBUG_CATEGORY(gst_ccl_frame_ring_debug);
GST_DEBUG_CATEGORY(gst_ccl_outputs_debug);
GST_DEBUG_CATEGORY(gst_ccl_tracker_debug);
GST_DEBUG_CATEGORY(gst_ccl_analytics_debug);
GST_DEBUG_CATEGORY(gst_ccl_overlay_debug);
GST_DEBUG_CATEGORY(gst_ccl_blob_src_debug);

void gst_ccl_debug_init() {
  static gsize done = 0;
  if (!g_once_init_enter(&done)) return;
  GST_DEBUG_CATEGORY_INIT(gst_ccl_plugin_debug, "cclplugin", 0, "gst-ccl plugin");
  GST_DEBUG_CATEGORY_INIT(gst_cuda_ccl_debug, "cudaccl", 0, "connected component labeling element");
  GST_DEBUG_CATEGORY_INIT(gst_cuda_ccl_backend_debug, "cudacclbackend", 0, "cudaccl backend choice");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_engine_cuda_debug, "cudacclengine", 0, "cudaccl CUDA engine");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_frame_ring_debug, "cudacclring", 0, "cudaccl frames in flight");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_outputs_debug, "ccloutputs", 0, "cudaccl metas and messages");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_tracker_debug, "ccltracker", 0, "connected component tracker");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_analytics_debug, "cclanalytics", 0, "connected component scene analytics");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_overlay_debug, "ccloverlay", 0, "connected component overlay");
  GST_DEBUG_CATEGORY_INIT(gst_ccl_blob_src_debug, "cclblobsrc", 0, "moving blob test source");
  g_once_init_leave(&done, 1);
}
