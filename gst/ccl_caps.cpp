#include "ccl_caps.h"

#include <gst/video/video.h>

#include "ccl/types.hpp"
#include "gstcclformats.h"

bool gst_cuda_ccl_is_cuda_memory(const GstCapsFeatures* features) {
  return features && !gst_caps_features_is_any(features) && gst_caps_features_contains(features, "memory:CUDAMemory");
}

GstCaps* gst_cuda_ccl_order_caps(GstCaps* caps, bool cpu_first, GstCaps* filter) {
  GstCaps* ordered;
  if (gst_caps_is_any(caps)) {
    ordered = gst_caps_ref(caps);
  } else {
    GstCaps* cuda = gst_caps_new_empty();
    GstCaps* other = gst_caps_new_empty();
    for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
      GstCapsFeatures* features = gst_caps_get_features(caps, i);
      gst_caps_append_structure_full(gst_cuda_ccl_is_cuda_memory(features) ? cuda : other,
                                     gst_structure_copy(gst_caps_get_structure(caps, i)),
                                     features ? gst_caps_features_copy(features) : nullptr);
    }
    ordered = cpu_first ? gst_caps_merge(other, cuda) : gst_caps_merge(cuda, other);
  }
  if (filter) {
    GstCaps* filtered = gst_caps_intersect_full(ordered, filter, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(ordered);
    ordered = filtered;
  }
  return ordered;
}

std::string gst_cuda_ccl_refusal(GstCaps* caps) {
  const GstStructure* s = gst_caps_get_structure(caps, 0);
  if (!gst_structure_has_name(s, "video/x-raw"))
    return std::string("cudaccl labels raw video (video/x-raw), not ") + gst_structure_get_name(s);
  const bool cuda = gst_cuda_ccl_is_cuda_memory(gst_caps_get_features(caps, 0));
#if !CCL_HAVE_CUDA
  if (cuda) return "this cudaccl was built without CUDA support and takes system memory only (use cudadownload)";
#endif
  const char* formats = cuda ? GST_CUDA_CCL_YUV_FORMATS : GST_CUDA_CCL_SYSTEM_FORMATS;
  const gchar* format = gst_structure_get_string(s, "format");
  GValue supported = G_VALUE_INIT;
  g_value_init(&supported, GST_TYPE_LIST);
  gst_value_deserialize(&supported, formats);
  bool known = false;
  for (guint i = 0; format && i < gst_value_list_get_size(&supported); ++i)
    known |= g_str_equal(g_value_get_string(gst_value_list_get_value(&supported, i)), format);
  g_value_unset(&supported);
  if (!known)
    return std::string("format ") + (format ? format : "(none)") + (cuda ? " in CUDA memory" : "") +
           " has no 8-bit plane 0 to label; supported formats are " + formats +
           " (insert videoconvert before cudaccl)";
  gint width = 0, height = 0;
  if (gst_structure_get_int(s, "width", &width) && gst_structure_get_int(s, "height", &height) &&
      (width < 1 || height < 1 || width > ccl::kMaxSide || height > ccl::kMaxSide))
    return "frame size " + std::to_string(width) + "x" + std::to_string(height) +
           " is outside the supported 1..65535 per side (pixel indices are 32-bit; insert videoscale)";
  return "";
}
