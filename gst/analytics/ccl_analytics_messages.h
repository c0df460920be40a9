// The element messages cclanalytics posts: one "ccl-analytics" per frame (the counts of every rule)
// and one "ccl-event" per event. Fields: docs/elements/cclanalytics.md.
#pragma once

#include <gst/gst.h>

#include "analytics/scene.hpp"
#include "ccl_outputs.h"

// "ccl-analytics": timestamp, stream-time, running-time, lines (array of "line" structures: name,
// forward, backward), zones (array of "zone" structures: name, count, entered, overcrowded).
GstStructure* gst_ccl_analytics_frame_structure(const ccl::scene::SceneAnalytics& scene, const GstCclFrameTimes& times);

// "ccl-event": type, rule, track-id, direction (line-cross only), timestamp, stream-time,
// running-time, at, occupancy (zone events only).
GstStructure* gst_ccl_analytics_event_structure(const ccl::scene::Rules& rules, const ccl::scene::Event& event,
                                                const GstCclFrameTimes& times);

// The event type's name: "line-cross", "zone-enter", "zone-exit", "dwell", "overcrowd-start", "overcrowd-end".
const char* gst_ccl_analytics_event_type_name(ccl::scene::Event::Type type);
