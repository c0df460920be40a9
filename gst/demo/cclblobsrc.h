// cclblobsrc: a generated surveillance-like GRAY8 scene for demos and tests: bright moving blobs on a dim
// background (scene=blobs), or textured objects no threshold separates (scene=daylight, with ground truth).
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_BLOB_SRC (gst_ccl_blob_src_get_type())
G_DECLARE_FINAL_TYPE(GstCclBlobSrc, gst_ccl_blob_src, GST, CCL_BLOB_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE(cclblobsrc);

// The scene property: blobs (the default, unchanged) or daylight (see ccl_truth_meta.h for its truth).
typedef enum {
  GST_CCL_BLOB_SRC_SCENE_BLOBS,
  GST_CCL_BLOB_SRC_SCENE_DAYLIGHT,
} GstCclBlobSrcScene;

#define GST_TYPE_CCL_BLOB_SRC_SCENE (gst_ccl_blob_src_scene_get_type())
GType gst_ccl_blob_src_scene_get_type(void);

G_END_DECLS
