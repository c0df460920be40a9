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

void prefetch_for_write(const GstStructure* param) {
  const char* p = reinterpret_cast<const char*>(param);
  for (int line = 0; line < 3; ++line) __builtin_prefetch(p + 64 * line, 1);  // header + 4 fields ~170 B
}

void fill(GstVideoRegionOfInterestMeta* roi, GstStructure* param, const ccl::Component& c) {
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
    blanks_.push_back({roi, nullptr});
  }
  const std::vector<GstStructure*> params = params_.take(blanks_.size());
  for (std::size_t i = 0; i < blanks_.size(); ++i) {
    blanks_[i].param = params[i];
    gst_video_region_of_interest_meta_add_param(blanks_[i].roi, params[i]);
  }
}

void RoiMetaWriter::finish(GstBuffer* buffer, const std::vector<ccl::Component>& components) {
  const std::size_t n = components.size(), filled = std::min(n, blanks_.size());
  for (std::size_t i = 0; i < filled; ++i) {
    if (i + kPrefetchAhead < filled) prefetch_for_write(blanks_[i + kPrefetchAhead].param);
    fill(blanks_[i].roi, blanks_[i].param, components[i]);
  }
  if (n > filled) {
    const std::vector<GstStructure*> params = params_.take(n - filled);
    for (std::size_t i = filled; i < n; ++i) {
      GstVideoRegionOfInterestMeta* roi = add_blank(buffer);
      if (!roi) {
        params_.give_back(params[i - filled]);
        continue;
      }
      gst_video_region_of_interest_meta_add_param(roi, params[i - filled]);
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
      for (GList* l = roi->params; l; l = l->next) params_.give_back(static_cast<GstStructure*>(l->data));
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
