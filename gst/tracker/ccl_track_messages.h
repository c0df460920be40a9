// The "ccl-track" element message ccltracker posts (post-messages=true) at each lifecycle change of
// a confirmed track: event "start" (confirmed: a new id), "lost" (missed a frame, coasting),
// "reacquired" (matched again while lost, same id), "end" (lost for more than max-misses frames, or
// the stream ended); id (uint), first-timestamp, last-timestamp (guint64, buffer PTS of its first
// and last matched detection; GST_CLOCK_TIME_NONE where unknown), x, y, width, height (int: the
// track's last matched box).
#pragma once

#include <gst/gst.h>

#include "tracker/tracker.hpp"

GstStructure* gst_ccl_track_message_structure(const ccl::track::Event& event);
