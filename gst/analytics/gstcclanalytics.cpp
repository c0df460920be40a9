/**
 * SECTION:element-cclanalytics
 * @title: cclanalytics
 *
 * Scene analytics on the tracks ccltracker gave the components of #GstCclMeta: directed lines
 * (tripwires: crossings forward and backward), polygon zones (enter, exit, dwell, occupancy,
 * overcrowding), from rules in JSON (`rules` or `rules-file`). Per frame it posts a "ccl-analytics"
 * element message with the counts of every rule, per event a "ccl-event" message, attaches a
 * GstCclSceneMeta (the rules and counts in frame pixels, which ccloverlay draws) and, on GStreamer
 * >= 1.24, analytics metadata related to the tracks. Pixels are untouched; any caps and memory pass.
 * Rules set while PLAYING apply from the next buffer; invalid ones are refused with a warning
 * message and the old rules stay. Reference: docs/elements/cclanalytics.md; semantics:
 * kernels/analytics/README.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m cclblobsrc scene=daylight num-buffers=300 ! cudaccl foreground=adaptive min-area=50 ! \
 *   ccltracker ! cclanalytics rules='{"lines": [{"name": "door", "from": [320, 0], "to": [320, 360]}]}' ! fakesink
 * ]|
 */
#include "gstcclanalytics.h"

#include <config.h>

#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "analytics/scene.hpp"
#include "ccl/gstcclmeta.h"
#include "ccl_analytics_frame.h"
#include "ccl_analytics_messages.h"
#include "ccl_debug.h"
#include "ccl_outputs.h"
#include "ccl_rules_json.h"
#include "ccl_scene_meta.h"
#include "ccl_zone_members.h"
#if CCL_HAVE_ANALYTICS
#include "ccl_analytics_meta.h"
#endif

#define GST_CAT_DEFAULT gst_ccl_analytics_debug

enum { PROP_0, PROP_RULES, PROP_RULES_FILE, PROP_FORGET_AFTER, PROP_POST_MESSAGES, PROP_POST_FRAME_MESSAGES };

#define DEFAULT_FORGET_AFTER 30  // ccltracker's max-misses default
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_POST_FRAME_MESSAGES TRUE

namespace {

// Which property gave the rules last: that one applies.
enum class RulesSource { String, File };

// The C++ state of one element (placement-constructed in the instance, destroyed in finalize).
struct State {
  // Guarded by the object lock.
  std::string rules_json, rules_file;
  RulesSource source = RulesSource::String;
  bool running = false;                    // between start and stop: new rules are parsed at once
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

// Parses the rules of the given source; "" when usable.
std::string parse_rules(RulesSource source, const std::string& json, const std::string& file, CclParsedRules* out) {
  if (source == RulesSource::File && !file.empty()) return ccl_rules_from_file(file, out);
  return ccl_rules_from_json(json, out);
}

}  // namespace

struct _GstCclAnalytics {
  GstBaseTransform parent;
  State state;
};

G_DEFINE_TYPE(GstCclAnalytics, gst_ccl_analytics, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE(cclanalytics, "cclanalytics", GST_RANK_NONE, GST_TYPE_CCL_ANALYTICS);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static void post_events(GstCclAnalytics* self, const GstCclFrameTimes& times) {
  State& st = self->state;
  for (const ccl::scene::Event& e : st.scene->events())
    gst_element_post_message(GST_ELEMENT(self),
                             gst_message_new_element(GST_OBJECT(self), gst_ccl_analytics_event_structure(
                                                                            st.scene->rules(), e, times)));
}

// Applies parsed rules: options first (hysteresis), then the rules (unchanged ones keep their counts).
static void apply_rules(GstCclAnalytics* self, const CclParsedRules& parsed, unsigned forget_after) {
  State& st = self->state;
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

static gboolean gst_ccl_analytics_start(GstBaseTransform* trans) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(trans);
  State& st = self->state;
  // Running from here on: rules set from now are parsed at once and wait in `pending`, so none is
  // lost between this read and the first buffer.
  GST_OBJECT_LOCK(self);
  st.running = true;
  st.pending.reset();
  const RulesSource source = st.source;
  const std::string json = st.rules_json, file = st.rules_file;
  const unsigned forget_after = st.forget_after;
  GST_OBJECT_UNLOCK(self);
  CclParsedRules parsed;
  const std::string error = parse_rules(source, json, file, &parsed);
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

// Every track ends (zone exits, overcrowd ends): posted before the EOS or flush goes on.
static void end_tracks(GstCclAnalytics* self) {
  State& st = self->state;
  if (!st.scene) return;
  st.scene->end_tracks(st.last_time);
  GST_OBJECT_LOCK(self);
  const bool post = st.post_messages;
  GST_OBJECT_UNLOCK(self);
  if (post) post_events(self, st.last_times);
  st.members.apply(st.scene->events());
}

static gboolean gst_ccl_analytics_stop(GstBaseTransform* trans) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(trans);
  State& st = self->state;
  end_tracks(self);
  GST_OBJECT_LOCK(self);
  st.running = false;
  st.pending.reset();
  GST_OBJECT_UNLOCK(self);
  st.scene.reset();
  st.caps_width = st.caps_height = 0;
  return TRUE;
}

static gboolean gst_ccl_analytics_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps*) {
  State& st = GST_CCL_ANALYTICS(trans)->state;
  const GstStructure* s = incaps && gst_caps_get_size(incaps) > 0 ? gst_caps_get_structure(incaps, 0) : nullptr;
  gint width = 0, height = 0;
  if (s) gst_structure_get_int(s, "width", &width), gst_structure_get_int(s, "height", &height);
  const unsigned w = width > 0 ? unsigned(width) : 0, h = height > 0 ? unsigned(height) : 0;
  // Another frame size: positions in the old frames mean nothing in the new ones.
  if ((st.caps_width || st.caps_height) && (w != st.caps_width || h != st.caps_height)) end_tracks(GST_CCL_ANALYTICS(trans));
  st.caps_width = w, st.caps_height = h;
  return TRUE;
}

static gboolean gst_ccl_analytics_sink_event(GstBaseTransform* trans, GstEvent* event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_EOS)
    end_tracks(GST_CCL_ANALYTICS(trans));
  return GST_BASE_TRANSFORM_CLASS(gst_ccl_analytics_parent_class)->sink_event(trans, event);
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
    for (const ccl::scene::Point& p : rules.zones[i].polygon) z.polygon.push_back(p.x * sx), z.polygon.push_back(p.y * sy);
    out.zones.push_back(std::move(z));
  }
  return out;
}

static GstFlowReturn gst_ccl_analytics_transform_ip(GstBaseTransform* trans, GstBuffer* buffer) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(trans);
  State& st = self->state;
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
  const GstCclFrameTimes times = gst_ccl_outputs_frame_times(trans->segment, buffer);
  const ccl::scene::Frame& frame = st.frames.build(buffer, meta, trans->segment, width, height, st.last_time);
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
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self),
                                                                        gst_ccl_analytics_frame_structure(*st.scene, times)));
  if (post) post_events(self, times);
  return GST_FLOW_OK;
}

// Rules given while running are parsed at once: valid ones wait for the next buffer, invalid ones
// are refused (a warning message; the property keeps the rules that apply).
static void set_rules_property(GstCclAnalytics* self, RulesSource source, const gchar* value) {
  State& st = self->state;
  const std::string text = value ? value : "";
  GST_OBJECT_LOCK(self);
  const bool running = st.running;
  if (!running) {
    (source == RulesSource::File ? st.rules_file : st.rules_json) = text;
    st.source = source;
  }
  GST_OBJECT_UNLOCK(self);
  if (!running) return;
  CclParsedRules parsed;
  const std::string error = parse_rules(source, text, text, &parsed);
  if (!error.empty()) {
    GST_ELEMENT_WARNING(self, LIBRARY, SETTINGS, ("Rules refused, the old rules stay: %s", error.c_str()),
                        ("%s", error.c_str()));
    return;
  }
  GST_OBJECT_LOCK(self);
  (source == RulesSource::File ? st.rules_file : st.rules_json) = text;
  st.source = source;
  st.pending = std::move(parsed);
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_analytics_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(object);
  State& st = self->state;
  switch (prop_id) {
    case PROP_RULES: set_rules_property(self, RulesSource::String, g_value_get_string(value)); return;
    case PROP_RULES_FILE: set_rules_property(self, RulesSource::File, g_value_get_string(value)); return;
    default: break;
  }
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_FORGET_AFTER: st.forget_after = g_value_get_uint(value); break;
    case PROP_POST_MESSAGES: st.post_messages = g_value_get_boolean(value); break;
    case PROP_POST_FRAME_MESSAGES: st.post_frame_messages = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_analytics_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(object);
  State& st = self->state;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_RULES: g_value_set_string(value, st.rules_json.c_str()); break;
    case PROP_RULES_FILE: g_value_set_string(value, st.rules_file.empty() ? nullptr : st.rules_file.c_str()); break;
    case PROP_FORGET_AFTER: g_value_set_uint(value, st.forget_after); break;
    case PROP_POST_MESSAGES: g_value_set_boolean(value, st.post_messages); break;
    case PROP_POST_FRAME_MESSAGES: g_value_set_boolean(value, st.post_frame_messages); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_analytics_finalize(GObject* object) {
  GST_CCL_ANALYTICS(object)->state.~State();
  G_OBJECT_CLASS(gst_ccl_analytics_parent_class)->finalize(object);
}

static void gst_ccl_analytics_class_init(GstCclAnalyticsClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

  gobject_class->set_property = gst_ccl_analytics_set_property;
  gobject_class->get_property = gst_ccl_analytics_get_property;
  gobject_class->finalize = gst_ccl_analytics_finalize;

  g_object_class_install_property(
      gobject_class, PROP_RULES,
      g_param_spec_string("rules", "Rules",
                          "Lines and zones as JSON (docs/elements/cclanalytics.md); set while playing: applies from the "
                          "next buffer, or is refused with a warning (the old rules stay). The one of rules and "
                          "rules-file set last applies",
                          "", flags));
  g_object_class_install_property(
      gobject_class, PROP_RULES_FILE,
      g_param_spec_string("rules-file", "Rules file",
                          "A file holding the rules as JSON, read at start and whenever the property is set", nullptr,
                          flags));
  g_object_class_install_property(
      gobject_class, PROP_FORGET_AFTER,
      g_param_spec_uint("forget-after", "Forget after",
                        "Frames a track may stay unseen before it counts as gone (zone exits), where ccltracker's "
                        "GstCclTrackLifeMeta does not end it first; match ccltracker's max-misses",
                        1, 100000, DEFAULT_FORGET_AFTER, flags));
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post a \"ccl-event\" element message per event (line-cross, zone-enter, zone-exit, dwell, "
                           "overcrowd-start, overcrowd-end)",
                           DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property(
      gobject_class, PROP_POST_FRAME_MESSAGES,
      g_param_spec_boolean("post-frame-messages", "Post frame messages",
                           "Post one \"ccl-analytics\" element message per frame with every rule's counts",
                           DEFAULT_POST_FRAME_MESSAGES, flags));

  gst_element_class_set_static_metadata(
      element_class, "Connected component scene analytics", "Filter/Analyzer/Video",
      "Line crossings, zone enters, exits, dwells, occupancy and overcrowding of the tracks ccltracker gave the "
      "components of GstCclMeta, from rules in JSON: element messages and metadata. Pixels and caps pass untouched.\n"
      "Example: gst-launch-1.0 -m cclblobsrc scene=daylight ! cudaccl foreground=adaptive min-area=50 ! ccltracker ! "
      "cclanalytics rules='{\"lines\": [{\"name\": \"door\", \"from\": [320, 0], \"to\": [320, 360]}]}' ! fakesink",
      "gst-ccl developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR(gst_ccl_analytics_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_ccl_analytics_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR(gst_ccl_analytics_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_ccl_analytics_sink_event);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_ccl_analytics_transform_ip);
}

static void gst_ccl_analytics_init(GstCclAnalytics* self) {
  new (&self->state) State();
  // Metadata needs a writable buffer: in place, never passthrough.
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}
