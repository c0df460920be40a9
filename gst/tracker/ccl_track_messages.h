// The "ccl-track" element message ccltracker posts (post-messages=true) when a track starts (is
// confirmed) or ends (coasted past max-misses): event ("start" | "end"), id (uint), first-timestamp,
// last-timestamp (guint64, buffer PTS; GST_CLOCK_TIME_NONE where unknown), x, y, width, height (int:
// the track's last matched box).
#pragma once

#include <gst/gst.h>

#include "tracker/tracker.hpp"

GstStructure* gst_ccl_track_message_structure(const ccl::track::Event& event);
