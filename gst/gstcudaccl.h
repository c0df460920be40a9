// cudaccl: labels the connected components of plane 0 of every frame and attaches them as metadata.
#pragma once

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_CCL (gst_cuda_ccl_get_type())
G_DECLARE_FINAL_TYPE(GstCudaCcl, gst_cuda_ccl, GST, CUDA_CCL, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE(cudaccl);

G_END_DECLS
