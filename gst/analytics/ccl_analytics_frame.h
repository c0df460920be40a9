// One buffer as the engine's ccl::scene::Frame: ccltracker's located tracks (its GstCclTracksMeta:
// tracks in a merged component at their part of it), else the tracked components of its GstCclMeta
// (boxes in the frame's pixels), its stream time, and ccltracker's GstCclTrackLifeMeta (tracks
// started with their tentative sightings, tracks ended) where the buffer has one.
#pragma once

#include <cstdint>
#include <vector>

#include <gst/gst.h>

#include "analytics/scene.hpp"
#include "ccl/gstcclmeta.h"
#include "ccl_track_life_meta.h"
#include "ccl_tracks_meta.h"

// A buffer's time for the engine: the stream time of `pts`, else `pts`, else `last` (no PTS).
std::int64_t ccl_analytics_engine_time(const GstSegment& segment, GstClockTime pts, std::int64_t last);

// Owns what a Frame points to, reused from buffer to buffer.
class CclFrameBuilder {
 public:
  // The frame of `buffer`, whose GstCclMeta is `meta`, for a frame of width x height (the meta's
  // boxes are rescaled from its own size); valid until the next build().
  const ccl::scene::Frame& build(GstBuffer* buffer, const GstCclMeta* meta, const GstSegment& segment, unsigned width,
                                 unsigned height, std::int64_t last_time);

 private:
  ccl::scene::Frame frame_;
  std::vector<ccl::scene::TrackedBox> objects_;
  std::vector<ccl::scene::TrackStart> started_;
  std::vector<std::vector<ccl::scene::Sighting>> histories_;
  CclTrackLife life_;
  std::vector<GstCclTrackRecord> tracks_;
};
