// The cclanalytics instance: one private state struct, shared by the element's two files
// (gstcclanalytics.cpp: the type, its properties and virtual methods; ccl_analytics_stream.cpp: what
// start, stop, caps, events and buffers do, called from those methods and calling nothing back).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "analytics/scene.hpp"
#include "ccl_analytics_frame.h"
#include "ccl_outputs.h"
#include "ccl_rules_json.h"
#include "ccl_zone_members.h"
#include "gstcclanalytics.h"

#define DEFAULT_FORGET_AFTER 30  // ccltracker's max-misses default
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_POST_FRAME_MESSAGES TRUE

// The element's state: constructed in the GObject private area by instance_init, destroyed in finalize.
struct GstCclAnalyticsPrivate {
  // Guarded by the object lock.
  std::string rules_json, rules_file;
  CclRulesSource source = CclRulesSource::String;
  bool running = false;                   // between start and stop: new rules are parsed at once
  std::optional<CclParsedRules> pending;  // parsed, to apply at the next buffer
  unsigned forget_after = DEFAULT_FORGET_AFTER;
  bool post_messages = DEFAULT_POST_MESSAGES, post_frame_messages = DEFAULT_POST_FRAME_MESSAGES;

  // Streaming thread only.
  std::unique_ptr<ccl::scene::SceneAnalytics> scene;
  ccl::scene::Options options;
  unsigned caps_width = 0, caps_height = 0;
  GstCclFrameTimes last_times{GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE};
  std::int64_t last_time = 0;
  bool warned_no_meta = false;
  CclFrameBuilder frames;
  CclZoneMembers members;
};

struct _GstCclAnalytics {
  GstBaseTransform parent;
  GstCclAnalyticsPrivate* priv;  // in the GObject private area: GObject frees it, finalize destroys it
};

// The streaming side (ccl_analytics_stream.cpp), one function per virtual method of GstBaseTransform.
// Start parses the rules (FALSE and an error message if they are invalid); stop ends every track.
gboolean gst_ccl_analytics_stream_start(GstCclAnalytics* self);
void gst_ccl_analytics_stream_stop(GstCclAnalytics* self);
// Caps with another frame size end every track.
void gst_ccl_analytics_stream_caps(GstCclAnalytics* self, GstCaps* incaps);
// Every track ends (zone exits, overcrowd ends), posted before the EOS or flush goes on.
void gst_ccl_analytics_stream_end_tracks(GstCclAnalytics* self);
GstFlowReturn gst_ccl_analytics_stream_buffer(GstCclAnalytics* self, GstBuffer* buffer);
