#include "ccl_engine.h"

#include <cstring>

#include "ccl_frame_errors.h"
#include "gstcclformats.h"

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

// U and V of a YUV 4:2:0 frame of 8-bit samples (NV12, NV21, I420, YV12) whose U and V rows are
// laid out alike; none for any other format.
ccl::ChromaView GstCclPlane0Map::chroma_view() const {
  ccl::ChromaView chroma;
  if (!mapped_ || !gst_ccl_format_has_420_chroma(frame_.info.finfo)) return chroma;
  if (GST_VIDEO_FRAME_COMP_PSTRIDE(&frame_, 2) != GST_VIDEO_FRAME_COMP_PSTRIDE(&frame_, 1) ||
      GST_VIDEO_FRAME_COMP_STRIDE(&frame_, 2) != GST_VIDEO_FRAME_COMP_STRIDE(&frame_, 1))
    return chroma;
  chroma.u = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame_, 1));
  chroma.v = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame_, 2));
  chroma.stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame_, 1);
  chroma.step = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame_, 1);
  return chroma;
}

ccl::MaskView GstCclPlane0Map::mask_view() const {
  ccl::MaskView mask;
  mask.data = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame_, 0));
  mask.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame_, 0);
  return mask;
}

// A plane's size in bytes from its first component: NV12's interleaved UV is width/2 pixels of 2 bytes.
GstCclPlane0Map::OtherPlanes GstCclPlane0Map::other_planes() const {
  OtherPlanes out{};
  for (guint p = 1; p < GST_VIDEO_FRAME_N_PLANES(&frame_); ++p) {
    gint components[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(frame_.info.finfo, p, components);
    const gint c = components[0];
    if (c < 0) continue;
    out.planes[out.n++] = Plane{static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame_, p)),
                                GST_VIDEO_FRAME_PLANE_STRIDE(&frame_, p),
                                GST_VIDEO_FRAME_COMP_WIDTH(&frame_, c) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame_, c),
                                GST_VIDEO_FRAME_COMP_HEIGHT(&frame_, c)};
  }
  return out;
}

void GstCclPlane0Map::fill_other_planes(std::uint8_t value) const {
  const OtherPlanes other = other_planes();
  for (int i = 0; i < other.n; ++i) {
    const Plane& plane = other.planes[i];
    for (int y = 0; y < plane.height; ++y)
      std::memset(plane.data + std::ptrdiff_t(y) * plane.stride, value, std::size_t(plane.width_bytes));
  }
}
