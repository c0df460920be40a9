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

#include <new>
#include <string>
#include <utility>

#include "ccl_debug.h"
#include "gstcclanalytics-private.h"

#define GST_CAT_DEFAULT gst_ccl_analytics_debug

enum { PROP_0, PROP_RULES, PROP_RULES_FILE, PROP_FORGET_AFTER, PROP_POST_MESSAGES, PROP_POST_FRAME_MESSAGES };

G_DEFINE_TYPE_WITH_PRIVATE(GstCclAnalytics, gst_ccl_analytics, GST_TYPE_BASE_TRANSFORM);
static_assert(alignof(GstCclAnalyticsPrivate) <= 2 * sizeof(gsize), "GObject aligns private data to 2 gsize");
GST_ELEMENT_REGISTER_DEFINE(cclanalytics, "cclanalytics", GST_RANK_NONE, GST_TYPE_CCL_ANALYTICS);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static gboolean gst_ccl_analytics_start(GstBaseTransform* trans) {
  return gst_ccl_analytics_stream_start(GST_CCL_ANALYTICS(trans));
}

static gboolean gst_ccl_analytics_stop(GstBaseTransform* trans) {
  gst_ccl_analytics_stream_stop(GST_CCL_ANALYTICS(trans));
  return TRUE;
}

static gboolean gst_ccl_analytics_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps*) {
  gst_ccl_analytics_stream_caps(GST_CCL_ANALYTICS(trans), incaps);
  return TRUE;
}

static gboolean gst_ccl_analytics_sink_event(GstBaseTransform* trans, GstEvent* event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_EOS)
    gst_ccl_analytics_stream_end_tracks(GST_CCL_ANALYTICS(trans));
  return GST_BASE_TRANSFORM_CLASS(gst_ccl_analytics_parent_class)->sink_event(trans, event);
}

static GstFlowReturn gst_ccl_analytics_transform_ip(GstBaseTransform* trans, GstBuffer* buffer) {
  return gst_ccl_analytics_stream_buffer(GST_CCL_ANALYTICS(trans), buffer);
}

// Rules given while running are parsed at once: valid ones wait for the next buffer, invalid ones
// are refused (a warning message; the property keeps the rules that apply).
static void set_rules_property(GstCclAnalytics* self, CclRulesSource source, const gchar* value) {
  GstCclAnalyticsPrivate& st = *self->priv;
  const std::string text = value ? value : "";
  GST_OBJECT_LOCK(self);
  const bool running = st.running;
  if (!running) {
    (source == CclRulesSource::File ? st.rules_file : st.rules_json) = text;
    st.source = source;
  }
  GST_OBJECT_UNLOCK(self);
  if (!running) return;
  CclParsedRules parsed;
  const std::string error = ccl_rules_from_source(source, text, text, &parsed);
  if (!error.empty()) {
    GST_ELEMENT_WARNING(self, LIBRARY, SETTINGS, ("Rules refused, the old rules stay: %s", error.c_str()),
                        ("%s", error.c_str()));
    return;
  }
  GST_OBJECT_LOCK(self);
  (source == CclRulesSource::File ? st.rules_file : st.rules_json) = text;
  st.source = source;
  st.pending = std::move(parsed);
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_analytics_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCclAnalytics* self = GST_CCL_ANALYTICS(object);
  GstCclAnalyticsPrivate& st = *self->priv;
  switch (prop_id) {
    case PROP_RULES: set_rules_property(self, CclRulesSource::String, g_value_get_string(value)); return;
    case PROP_RULES_FILE: set_rules_property(self, CclRulesSource::File, g_value_get_string(value)); return;
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
  GstCclAnalyticsPrivate& st = *self->priv;
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
  GST_CCL_ANALYTICS(object)->priv->~GstCclAnalyticsPrivate();
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
  self->priv = new (gst_ccl_analytics_get_instance_private(self)) GstCclAnalyticsPrivate();
  // Metadata needs a writable buffer: in place, never passthrough.
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}
