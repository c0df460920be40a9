// GstCclTrackLifeMeta: what ccltracker tells downstream (cclanalytics) about the tracks that started
// or ended in a buffer, as a custom meta (gst_meta_register_custom, public since GStreamer 1.20).
// Its structure "ccl-track-life" holds
//   started: GstValueArray of "track" structures: id (uint), times (GstValueArray of guint64: buffer
//            PTS of the track's matches before this buffer, oldest first, while it was tentative),
//            boxes (GstValueArray, one [x, y, width, height] GstValueArray of doubles per time);
//   ended:   GstValueArray of uint track ids that ended in this buffer (they never come back).
// A buffer gets the meta only when a track started or ended in it.
#pragma once

#include <cstdint>
#include <vector>

#include <gst/gst.h>

#include "tracker/tracker.hpp"

#define GST_CCL_TRACK_LIFE_META_NAME "GstCclTrackLifeMeta"

// Registers the meta (once; the plugin does it at load).
void gst_ccl_track_life_meta_register();

// Adds the meta for the tracker's last update (its Started and Ended events), if any.
void gst_ccl_track_life_meta_add(GstBuffer* buffer, const ccl::track::Tracker& tracker);

// What a GstCclTrackLifeMeta holds, read back.
struct CclTrackLife {
  struct Sighting {
    std::int64_t time;  // buffer PTS
    double x, y, width, height;
  };
  struct Start {
    std::uint32_t id;
    std::vector<Sighting> history;
  };
  std::vector<Start> started;
  std::vector<std::uint32_t> ended;
};

// False when the buffer has no (readable) GstCclTrackLifeMeta; *out is cleared first.
bool gst_ccl_track_life_meta_read(GstBuffer* buffer, CclTrackLife* out);
