// GstCclTracksMeta: where ccltracker places every located track in a buffer (a tracker's output:
// one box per object it follows), as a custom meta (gst_meta_register_custom, GStreamer >= 1.20).
// GstCclMeta stays one entry per connected component; this meta adds the tracks that share one:
// objects that touch are one component, and a track hidden in it is placed at its part of it.
// Its structure "ccl-tracks" holds
//   tracks: GBytes, one 28-byte record per located track, in native byte order:
//           guint32 id; gint32 component (index into the buffer's GstCclMeta components: the one it
//           matched or is hidden in); gfloat x, y, width, height (its box); guint32 flags
//           (GST_CCL_TRACK_MERGED: that component holds other tracks too, the box is this track's
//           estimated part of it; GST_CCL_TRACK_HIDDEN: another track took the component).
// Every buffer ccltracker pushes with a GstCclMeta carries one (no record when no track is located).
#pragma once

#include <gst/gst.h>

#include <vector>

#include "tracker/tracker.hpp"

#define GST_CCL_TRACKS_META_NAME "GstCclTracksMeta"

enum : guint32 { GST_CCL_TRACK_MERGED = 1u << 0, GST_CCL_TRACK_HIDDEN = 1u << 1 };

// One record of the "tracks" bytes (the layout above; 28 bytes, no padding).
struct GstCclTrackRecord {
  guint32 id;
  gint32 component;
  gfloat x, y, width, height;
  guint32 flags;
};
static_assert(sizeof(GstCclTrackRecord) == 28, "GstCclTracksMeta records are 28 bytes");

// Registers the meta (once; the plugin does it at load).
void gst_ccl_tracks_meta_register();

// Adds the meta for the tracker's last update: every Track::located() track, oldest first.
void gst_ccl_tracks_meta_add(GstBuffer* buffer, const ccl::track::Tracker& tracker);

// The records of the buffer's GstCclTracksMeta into *out (cleared first); false when it has none
// (or a malformed one).
bool gst_ccl_tracks_meta_read(GstBuffer* buffer, std::vector<GstCclTrackRecord>* out);

// Rescales the records' boxes from the frame they were made in (the GstCclMeta's width x height;
// a 0 there leaves that axis as it is) to a frame of to_width x to_height, as videoscale maps the
// pixels: what a consumer downstream of a scaler reads.
void gst_ccl_track_records_scale(std::vector<GstCclTrackRecord>* records, guint from_width, guint from_height,
                                 guint to_width, guint to_height);
