#include "ccl_roi_metas.h"

#include <algorithm>

#include "ccl_quarks.h"

namespace ccl_gst {
namespace {

// The id of a blank not filled yet: no label comes near it (labels count components, < 2^28).
constexpr gint kUnfilled = G_MININT;

GstVideoRegionOfInterestMeta* add_blank(GstBuffer* buffer) {
  GstVideoRegionOfInterestMeta* roi =
      gst_buffer_add_video_region_of_interest_meta_id(buffer, quarks().roi_type, 0, 0, 0, 0);
  roi->id = kUnfilled;
  return roi;
}

// How far ahead filling prefetches: the params were built on the worker threads, so each one is a
// cache miss on this core (~60 ns per component on the H100 host before prefetching).
constexpr std::size_t kPrefetchAhead = 8;

void prefetch_for_write(const RoiParam& param) {
  __builtin_prefetch(param.label, 1);
  __builtin_prefetch(param.centroid_y, 1);  // the four values span two or three cache lines
}

void fill(GstVideoRegionOfInterestMeta* roi, const RoiParam& param, const ccl::Component& c) {
  roi->id = gint(c.label);
  roi->x = guint(c.x);
  roi->y = guint(c.y);
  roi->w = guint(c.width);
  roi->h = guint(c.height);
  roi_param_fill(param, c);
}

}  // namespace

void RoiMetaWriter::expect(std::size_t n) {
  expected_ = n;
  params_.prepare(n + n / 8);  // a margin for a frame with more components than the last
}

void RoiMetaWriter::attach_blanks(GstBuffer* buffer) {
  const std::size_t n = expected_;
  blanks_.clear();
  blanks_.reserve(n);
  // The metas first: the workers may still be building the params they get next.
  for (std::size_t i = 0; i < n; ++i) {
    GstVideoRegionOfInterestMeta* roi = add_blank(buffer);
    if (!roi) break;  // not writable: GStreamer said so; finish() attaches nothing either
    blanks_.push_back({roi, RoiParam{}});
  }
  const std::vector<RoiParam> params = params_.take(blanks_.size());
  for (std::size_t i = 0; i < blanks_.size(); ++i) {
    blanks_[i].param = params[i];
    gst_video_region_of_interest_meta_add_param(blanks_[i].roi, params[i].structure);
  }
}

void RoiMetaWriter::finish(GstBuffer* buffer, const std::vector<ccl::Component>& components) {
  const std::size_t n = components.size(), filled = std::min(n, blanks_.size());
  for (std::size_t i = 0; i < filled; ++i) {
    if (i + kPrefetchAhead < filled) prefetch_for_write(blanks_[i + kPrefetchAhead].param);
    fill(blanks_[i].roi, blanks_[i].param, components[i]);
  }
  if (n > filled) {
    const std::vector<RoiParam> params = params_.take(n - filled);
    for (std::size_t i = filled; i < n; ++i) {
      GstVideoRegionOfInterestMeta* roi = add_blank(buffer);
      if (!roi) {
        params_.give_back(params[i - filled]);
        continue;
      }
      gst_video_region_of_interest_meta_add_param(roi, params[i - filled].structure);
      fill(roi, params[i - filled], components[i]);
    }
  }
  remove_unfilled(buffer, filled);
  params_.trim(n);
}

void RoiMetaWriter::abandon(GstBuffer* buffer) { remove_unfilled(buffer, 0); }

void RoiMetaWriter::remove_unfilled(GstBuffer* buffer, std::size_t first) {
  if (first < blanks_.size()) {
    // Their params are reused by a later frame; the metas go (a buffer's metas cannot be detached).
    for (std::size_t i = first; i < blanks_.size(); ++i) {
      GstVideoRegionOfInterestMeta* roi = blanks_[i].roi;
      if (roi->params) params_.give_back(blanks_[i].param);  // the meta's only param
      g_list_free(roi->params);
      roi->params = nullptr;
    }
    gst_buffer_foreach_meta(
        buffer,
        [](GstBuffer*, GstMeta** meta, gpointer) -> gboolean {
          if ((*meta)->info->api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE) {
            auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(*meta);
            if (roi->roi_type == quarks().roi_type && roi->id == kUnfilled) *meta = nullptr;  // removes it
          }
          return TRUE;
        },
        nullptr);
  }
  blanks_.clear();
}

}  // namespace ccl_gst
