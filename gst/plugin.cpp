// Registers the elements (cudaccl, ccltracker, cclanalytics, ccloverlay, cclblobsrc), the GstCclMeta cudaccl
// attaches and the custom metas ccltracker and cclanalytics attach.
#include <config.h>

#include <gst/gst.h>

#include "ccl/gstcclmeta.h"
#include "ccl_debug.h"
#include "ccl_scene_meta.h"
#include "ccl_track_life_meta.h"
#include "ccl_tracks_meta.h"
#include "cclblobsrc.h"
#include "ccloverlay.h"
#include "gstcclanalytics.h"
#include "gstccltracker.h"
#include "gstcudaccl.h"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#define GST_CAT_DEFAULT gst_ccl_plugin_debug

static gboolean plugin_init(GstPlugin* plugin) {
  gst_ccl_debug_init();
#if CCL_HAVE_CUDA
  // Without a driver the element still registers and runs on the CPU backend.
  if (gst_cuda_load_library())
    gst_cuda_memory_init_once();
  else
    GST_INFO("CUDA driver library not loaded; cudaccl will use the CPU backend");
#endif
  gst_ccl_meta_get_info();
  gst_ccl_track_life_meta_register();
  gst_ccl_tracks_meta_register();
  gst_ccl_scene_meta_register();
  gboolean ok = GST_ELEMENT_REGISTER(cudaccl, plugin);
  ok &= GST_ELEMENT_REGISTER(ccltracker, plugin);
  ok &= GST_ELEMENT_REGISTER(cclanalytics, plugin);
  ok &= GST_ELEMENT_REGISTER(ccloverlay, plugin);
  ok &= GST_ELEMENT_REGISTER(cclblobsrc, plugin);
  return ok;
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, ccl,
                  "Connected component labeling of video frames (CUDA and CPU)", plugin_init, PACKAGE_VERSION,
                  GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
