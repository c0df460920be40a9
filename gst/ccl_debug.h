// Every GStreamer debug category of the plugin, declared and registered in one place.
#pragma once

#include <gst/gst.h>

GST_DEBUG_CATEGORY_EXTERN(gst_ccl_plugin_debug);        // "cclplugin": loading, the CUDA driver
GST_DEBUG_CATEGORY_EXTERN(gst_cuda_ccl_debug);          // "cudaccl": the element
GST_DEBUG_CATEGORY_EXTERN(gst_cuda_ccl_backend_debug);  // "cudacclbackend": CPU or CUDA, which device
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_engine_cuda_debug);   // "cudacclengine": the CUDA engine
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_frame_ring_debug);    // "cudacclring": frames in flight
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_outputs_debug);       // "ccloutputs": cudaccl's metas and messages
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_tracker_debug);       // "ccltracker"
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_analytics_debug);     // "cclanalytics"
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_overlay_debug);       // "ccloverlay"
GST_DEBUG_CATEGORY_EXTERN(gst_ccl_blob_src_debug);      // "cclblobsrc"

// Registers them all, once, from any thread: plugin_init calls it, and the output library's entry
// points too, since tests and benchmarks link that library without loading the plugin.
void gst_ccl_debug_init();
