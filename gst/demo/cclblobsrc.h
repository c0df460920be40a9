// cclblobsrc: a generated surveillance-like scene (GRAY8, NV12 or I420) for demos and tests: bright moving
// blobs on a dim background (scene=blobs), textured objects no threshold separates (scene=daylight, with
// ground truth), or the hard cases of a motion foreground (gain-step ... noise, with ground truth).
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_BLOB_SRC (gst_ccl_blob_src_get_type())
G_DECLARE_FINAL_TYPE(GstCclBlobSrc, gst_ccl_blob_src, GST, CCL_BLOB_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE(cclblobsrc);

// The scene property: blobs (the default, unchanged), daylight, or one of the hard cases of a
// motion foreground (see ccl_hard_scene.h; ccl_truth_meta.h for their truth).
typedef enum {
  GST_CCL_BLOB_SRC_SCENE_BLOBS,
  GST_CCL_BLOB_SRC_SCENE_DAYLIGHT,
  GST_CCL_BLOB_SRC_SCENE_GAIN_STEP,
  GST_CCL_BLOB_SRC_SCENE_IR_SWITCH,
  GST_CCL_BLOB_SRC_SCENE_SHADOWS,
  GST_CCL_BLOB_SRC_SCENE_SWAY,
  GST_CCL_BLOB_SRC_SCENE_STOPPED_OBJECT,
  GST_CCL_BLOB_SRC_SCENE_NOISE,
} GstCclBlobSrcScene;

#define GST_TYPE_CCL_BLOB_SRC_SCENE (gst_ccl_blob_src_scene_get_type())
GType gst_ccl_blob_src_scene_get_type(void);

G_END_DECLS
