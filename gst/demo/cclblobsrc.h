// cclblobsrc: a generated surveillance-like GRAY8 scene (bright moving blobs on a dim background) for demos and tests.
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_CCL_BLOB_SRC (gst_ccl_blob_src_get_type())
G_DECLARE_FINAL_TYPE(GstCclBlobSrc, gst_ccl_blob_src, GST, CCL_BLOB_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE(cclblobsrc);

G_END_DECLS
