#include "ccl_engine.h"

#include "ccl_frame_errors.h"

// gst_video_frame_map checks the size only without a GstVideoMeta, and a meta's offset and stride
// can point past the end: the bytes plane 0 needs.
static gsize plane0_end(GstBuffer* buffer, const GstVideoInfo& info) {
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  if (!meta) return GST_VIDEO_INFO_SIZE(&info);
  const gint64 stride = meta->stride[0];
  // Empty frames and short strides are refused by the core with its own message.
  if (meta->width == 0 || meta->height == 0 || stride < gint64(meta->width)) return 0;
  return meta->offset[0] + gsize(stride) * (meta->height - 1) + meta->width;
}

void GstCclPlane0Map::map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags) {
  unmap();
  const gsize need = plane0_end(buffer, info), have = gst_buffer_get_size(buffer);
  if (have < need) throw GstCclFrameError{GstCclFrameError::Kind::TooShort, need, have};
  // No reference on the buffer: it stays writable, so metas go on while the frame is mapped.
  mapped_ = gst_video_frame_map(&frame_, const_cast<GstVideoInfo*>(&info), buffer,
                                GstMapFlags(flags | GST_VIDEO_FRAME_MAP_FLAG_NO_REF));
  if (!mapped_) throw GstCclFrameError{GstCclFrameError::Kind::Unreadable, need, have};
}

void GstCclPlane0Map::unmap() {
  if (mapped_) gst_video_frame_unmap(&frame_);
  mapped_ = false;
}

ccl::ImageView GstCclPlane0Map::view() const {
  ccl::ImageView view;
  view.data = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame_, 0));
  view.width = GST_VIDEO_FRAME_COMP_WIDTH(&frame_, 0);
  view.height = GST_VIDEO_FRAME_COMP_HEIGHT(&frame_, 0);
  view.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame_, 0);
  return view;
}
