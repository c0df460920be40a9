#include "ccl_analytics_frame.h"

std::int64_t ccl_analytics_engine_time(const GstSegment& segment, GstClockTime pts, std::int64_t last) {
  if (!GST_CLOCK_TIME_IS_VALID(pts)) return last;
  const GstClockTime t = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts);
  return GST_CLOCK_TIME_IS_VALID(t) ? std::int64_t(t) : std::int64_t(pts);
}

const ccl::scene::Frame& CclFrameBuilder::build(GstBuffer* buffer, const GstCclMeta* meta, const GstSegment& segment,
                                                unsigned width, unsigned height, std::int64_t last_time) {
  const double sx = meta->width ? double(width) / meta->width : 1, sy = meta->height ? double(height) / meta->height : 1;
  objects_.clear();
  if (gst_ccl_tracks_meta_read(buffer, &tracks_)) {
    // Objects that touch are one component: the tracker's own boxes keep each of them apart.
    gst_ccl_track_records_scale(&tracks_, meta->width, meta->height, width, height);
    for (const GstCclTrackRecord& t : tracks_) objects_.push_back({t.id, t.x, t.y, t.width, t.height});
  } else {
    for (guint i = 0; i < meta->n_components; ++i) {
      const GstCclComponent& c = meta->components[i];
      if (c.track_id == 0) continue;  // not (yet) a confirmed track
      objects_.push_back({c.track_id, float(c.x * sx), float(c.y * sy), float(c.width * sx), float(c.height * sy)});
    }
  }
  frame_ = ccl::scene::Frame{};
  frame_.time = ccl_analytics_engine_time(segment, GST_BUFFER_PTS(buffer), last_time);
  frame_.width = width, frame_.height = height;
  frame_.objects = objects_.data(), frame_.n_objects = objects_.size();
  started_.clear();
  if (gst_ccl_track_life_meta_read(buffer, &life_)) {
    histories_.resize(life_.started.size());
    for (std::size_t k = 0; k < life_.started.size(); ++k) {
      std::vector<ccl::scene::Sighting>& h = histories_[k];
      h.clear();
      for (const CclTrackLife::Sighting& s : life_.started[k].history)
        h.push_back({ccl_analytics_engine_time(segment, GstClockTime(s.time), frame_.time), float(s.x * sx),
                     float(s.y * sy), float(s.width * sx), float(s.height * sy)});
      started_.push_back({life_.started[k].id, h.data(), h.size()});
    }
    frame_.started = started_.data(), frame_.n_started = started_.size();
    frame_.ended = life_.ended.data(), frame_.n_ended = life_.ended.size();
  }
  return frame_;
}
