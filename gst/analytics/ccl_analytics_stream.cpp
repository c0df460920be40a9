// cclanalytics' streaming side: start and stop, caps, the events that end tracks, and each buffer.
#include <config.h>

#include <optional>
#include <string>
#include <utility>

#include "ccl/gstcclmeta.h"
#include "ccl_analytics_messages.h"
#include "ccl_debug.h"
#include "ccl_scene_meta.h"
#include "gstcclanalytics-private.h"
#if CCL_HAVE_ANALYTICS
#include "ccl_analytics_meta.h"
#endif

#define GST_CAT_DEFAULT gst_ccl_analytics_debug

static void post_events(GstCclAnalytics* self, const GstCclFrameTimes& times) {
  GstCclAnalyticsPrivate& st = *self->priv;
  for (const ccl::scene::Event& e : st.scene->events())
    gst_element_post_message(
        GST_ELEMENT(self),
        gst_message_new_element(GST_OBJECT(self), gst_ccl_analytics_event_structure(st.scene->rules(), e, times)));
}

// Applies parsed rules: options first (hysteresis), then the rules (unchanged ones keep their counts).
static void apply_rules(GstCclAnalytics* self, const CclParsedRules& parsed, unsigned forget_after) {
  GstCclAnalyticsPrivate& st = *self->priv;
  ccl::scene::Options options;
  options.forget_after = forget_after;
  options.hysteresis = parsed.hysteresis;
  if (!st.scene) {
    st.scene = std::make_unique<ccl::scene::SceneAnalytics>(options);
  } else if (options.forget_after != st.options.forget_after || options.hysteresis != st.options.hysteresis) {
    st.scene->set_options(options);
  }
  st.options = options;
  const ccl::scene::Rules old = st.scene->rules();
  st.scene->set_rules(parsed.rules);
  st.members.rules_changed(old, parsed.rules);
}

gboolean gst_ccl_analytics_stream_start(GstCclAnalytics* self) {
  GstCclAnalyticsPrivate& st = *self->priv;
  // Running from here on: rules set from now are parsed at once and wait in `pending`, so none is
  // lost between this read and the first buffer.
  GST_OBJECT_LOCK(self);
  st.running = true;
  st.pending.reset();
  const CclRulesSource source = st.source;
  const std::string json = st.rules_json, file = st.rules_file;
  const unsigned forget_after = st.forget_after;
  GST_OBJECT_UNLOCK(self);
  CclParsedRules parsed;
  const std::string error = ccl_rules_from_source(source, json, file, &parsed);
  if (!error.empty()) {
    GST_OBJECT_LOCK(self);
    st.running = false;
    GST_OBJECT_UNLOCK(self);
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("Invalid rules: %s", error.c_str()), ("%s", error.c_str()));
    return FALSE;
  }
  st.scene.reset();
  st.members = CclZoneMembers{};
  apply_rules(self, parsed, forget_after);
  st.warned_no_meta = false;
  st.last_time = 0;
  st.last_times = {GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE};
  return TRUE;
}

void gst_ccl_analytics_stream_end_tracks(GstCclAnalytics* self) {
  GstCclAnalyticsPrivate& st = *self->priv;
  if (!st.scene) return;
  st.scene->end_tracks(st.last_time);
  GST_OBJECT_LOCK(self);
  const bool post = st.post_messages;
  GST_OBJECT_UNLOCK(self);
  if (post) post_events(self, st.last_times);
  st.members.apply(st.scene->events());
}

void gst_ccl_analytics_stream_stop(GstCclAnalytics* self) {
  GstCclAnalyticsPrivate& st = *self->priv;
  gst_ccl_analytics_stream_end_tracks(self);
  GST_OBJECT_LOCK(self);
  st.running = false;
  st.pending.reset();
  GST_OBJECT_UNLOCK(self);
  st.scene.reset();
  st.caps_width = st.caps_height = 0;
}

void gst_ccl_analytics_stream_caps(GstCclAnalytics* self, GstCaps* incaps) {
  GstCclAnalyticsPrivate& st = *self->priv;
  const GstStructure* s = incaps && gst_caps_get_size(incaps) > 0 ? gst_caps_get_structure(incaps, 0) : nullptr;
  gint width = 0, height = 0;
  if (s) gst_structure_get_int(s, "width", &width), gst_structure_get_int(s, "height", &height);
  const unsigned w = width > 0 ? unsigned(width) : 0, h = height > 0 ? unsigned(height) : 0;
  // Another frame size: positions in the old frames mean nothing in the new ones.
  if ((st.caps_width || st.caps_height) && (w != st.caps_width || h != st.caps_height))
    gst_ccl_analytics_stream_end_tracks(self);
  st.caps_width = w, st.caps_height = h;
}

static CclScene scene_for_meta(const ccl::scene::SceneAnalytics& scene, unsigned width, unsigned height) {
  const ccl::scene::Rules& rules = scene.rules();
  const double sx = rules.normalized ? width : 1, sy = rules.normalized ? height : 1;
  CclScene out;
  for (std::size_t i = 0; i < rules.lines.size(); ++i) {
    const ccl::scene::LineRule& l = rules.lines[i];
    out.lines.push_back({l.name, l.from.x * sx, l.from.y * sy, l.to.x * sx, l.to.y * sy, scene.line_counts()[i].forward,
                         scene.line_counts()[i].backward});
  }
  for (std::size_t i = 0; i < rules.zones.size(); ++i) {
    CclScene::Zone z{rules.zones[i].name, {}, scene.zone_counts()[i].count, scene.zone_counts()[i].overcrowded};
    for (const ccl::scene::Point& p : rules.zones[i].polygon)
      z.polygon.push_back(p.x * sx), z.polygon.push_back(p.y * sy);
    out.zones.push_back(std::move(z));
  }
  return out;
}

GstFlowReturn gst_ccl_analytics_stream_buffer(GstCclAnalytics* self, GstBuffer* buffer) {
  const GstSegment& segment = GST_BASE_TRANSFORM(self)->segment;
  GstCclAnalyticsPrivate& st = *self->priv;
  GstCclMeta* meta = gst_buffer_get_ccl_meta(buffer);
  if (!meta) {
    if (!st.warned_no_meta) GST_INFO_OBJECT(self, "buffer without GstCclMeta passed untouched");
    st.warned_no_meta = true;
    return GST_FLOW_OK;
  }
  GST_OBJECT_LOCK(self);
  std::optional<CclParsedRules> pending = std::move(st.pending);
  st.pending.reset();
  const unsigned forget_after = st.forget_after;
  const bool post = st.post_messages, post_frame = st.post_frame_messages;
  GST_OBJECT_UNLOCK(self);
  if (pending) {
    apply_rules(self, *pending, forget_after);
  } else if (forget_after != st.options.forget_after) {
    st.options.forget_after = forget_after;
    st.scene->set_options(st.options);
  }

  // Boxes in the frame's pixels: the caps' size where known, else the meta's.
  const unsigned width = st.caps_width ? st.caps_width : meta->width;
  const unsigned height = st.caps_height ? st.caps_height : meta->height;
  const GstCclFrameTimes times = gst_ccl_outputs_frame_times(segment, buffer);
  const ccl::scene::Frame& frame = st.frames.build(buffer, meta, segment, width, height, st.last_time);
  st.scene->update(frame);
  st.last_time = frame.time;
  st.last_times = times;
  st.members.apply(st.scene->events());

  if (!st.scene->rules().lines.empty() || !st.scene->rules().zones.empty())
    gst_ccl_scene_meta_add(buffer, scene_for_meta(*st.scene, width, height));
#if CCL_HAVE_ANALYTICS
  gst_ccl_analytics_add_meta(buffer, *st.scene, st.members);
#endif
  if (post_frame)
    gst_element_post_message(
        GST_ELEMENT(self),
        gst_message_new_element(GST_OBJECT(self), gst_ccl_analytics_frame_structure(*st.scene, times)));
  if (post) post_events(self, times);
  return GST_FLOW_OK;
}
