/**
 * SECTION:element-ccltracker
 * @title: ccltracker
 *
 * Follows the connected components cudaccl found from frame to frame and gives each a track id:
 * GstCclComponent.track_id of the buffer's #GstCclMeta, "track-id" in the "connected-component"
 * parameter of its ROI metas and, built against GStreamer >= 1.24, one GstAnalyticsTrackingMtd per
 * tracked component related to its ODMtd (and one with `lost` set per lost track). Components are
 * matched to the tracks' Kalman predictions by box overlap and centroid distance, in stages
 * (kernels/tracker/README.md). A track gets its id after min-hits consecutive matches, is lost
 * (coasting on its prediction) while unmatched, is re-acquired with the same id when matched
 * again, and ends after max-misses frames without a match (three times that while hidden in a
 * component another track took: a merge); ids are never given twice while the
 * element runs (they restart at 1 after it stopped). Pixels are untouched and
 * any caps and memory (CUDA memory too) pass. Tracks end at EOS, on flush, on caps with another
 * frame size and at stop, so with post-messages every "start" message is followed by exactly one
 * "end" message, with "lost" and "reacquired" messages between them as the track is lost and found
 * again (keep post-messages unchanged while playing). At stop the "end" messages are posted
 * too, but a pipeline set to NULL flushes its bus: send EOS and wait for it to read them. With
 * post-frame-messages the element posts each frame's "ccl" message, cudaccl's layout with
 * "track-id" in every component entry.
 *
 * On buffers where tracks started (were confirmed) or ended, the element attaches the custom meta
 * "GstCclTrackLifeMeta" (structure "ccl-track-life": "started", an array of "track" structures with
 * the id and the PTS and boxes of the track's tentative matches; "ended", an array of uint ids), so
 * that cclanalytics downstream counts what a track did while tentative and ends tracks at once
 * (gst/tracker/ccl_track_life_meta.h, kernels/tracker/README.md).
 *
 * Every buffer also gets the custom meta "GstCclTracksMeta" (structure "ccl-tracks", field
 * "tracks": packed records of id, component index, box and flags; gst/tracker/ccl_tracks_meta.h):
 * the tracker's output, one box per located track. Objects that touch are one component, and
 * one track takes it; the others in it are hidden there, and each track in such a merged
 * component gets its part of it (its predicted box, moved the least that fits it inside): two
 * people walking together are two tracks with two boxes.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 cclblobsrc scene=daylight ! video/x-raw,format=GRAY8 ! \
 *   cudaccl foreground=motion open=1 min-area=50 ! ccltracker post-messages=true ! fakesink
 * ]| Posts a "ccl-track" message whenever an object's track starts, is lost, is re-acquired or ends.
 */
#include "gstccltracker.h"

#include <config.h>

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccl/gstcclmeta.h"
#include "ccl_debug.h"
#include "ccl_outputs.h"
#include "ccl_track_life_meta.h"
#include "ccl_track_messages.h"
#include "ccl_track_outputs.h"
#include "ccl_tracks_meta.h"
#include "tracker/tracker.hpp"

#define GST_CAT_DEFAULT gst_ccl_tracker_debug

enum { PROP_0, PROP_MIN_HITS, PROP_MAX_MISSES, PROP_MIN_IOU, PROP_GATE, PROP_POST_MESSAGES, PROP_POST_FRAME_MESSAGES };

#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_POST_FRAME_MESSAGES FALSE

// The element's state: constructed in the GObject private area by instance_init, destroyed in finalize.
struct GstCclTrackerPrivate {
  // Properties, guarded by the object lock; read once per frame.
  ccl::track::Options options;
  bool post_messages = DEFAULT_POST_MESSAGES;
  bool post_frame_messages = DEFAULT_POST_FRAME_MESSAGES;

  // Streaming thread only.
  std::optional<ccl::track::Tracker> tracker;  // from start to stop
  std::vector<ccl::track::Detection> detections;
  std::vector<std::uint32_t> ids;
  bool warned_no_meta = false;
  // The frame geometry of the current caps (media type, width, height; -1 where absent); "" before caps.
  std::string geometry;
};

struct _GstCclTracker {
  GstBaseTransform parent;
  GstCclTrackerPrivate* priv;  // in the GObject private area: GObject frees it, finalize destroys it
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCclTracker, gst_ccl_tracker, GST_TYPE_BASE_TRANSFORM);
static_assert(alignof(GstCclTrackerPrivate) <= 2 * sizeof(gsize), "GObject aligns private data to 2 gsize");
GST_ELEMENT_REGISTER_DEFINE(ccltracker, "ccltracker", GST_RANK_NONE, GST_TYPE_CCL_TRACKER);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static void post_events(GstCclTracker* self) {
  for (const ccl::track::Event& e : self->priv->tracker->events())
    gst_element_post_message(GST_ELEMENT(self),
                             gst_message_new_element(GST_OBJECT(self), gst_ccl_track_message_structure(e)));
}

// Ends every track (posting their "end" messages where asked): every "start" gets its "end".
static void gst_ccl_tracker_end_tracks(GstCclTracker* self) {
  GstCclTrackerPrivate* priv = self->priv;
  if (!priv->tracker) return;
  priv->tracker->reset();
  GST_OBJECT_LOCK(self);
  const bool post = priv->post_messages;
  GST_OBJECT_UNLOCK(self);
  if (post) post_events(self);
}

static void gst_ccl_tracker_restart(GstCclTracker* self) {
  GST_OBJECT_LOCK(self);
  const ccl::track::Options options = self->priv->options;
  GST_OBJECT_UNLOCK(self);
  self->priv->tracker.emplace(options);
}

static gboolean gst_ccl_tracker_start(GstBaseTransform* trans) {
  GstCclTracker* self = GST_CCL_TRACKER(trans);
  gst_ccl_tracker_restart(self);  // ids restart at 1 for each run of the element
  self->priv->warned_no_meta = false;
  return TRUE;
}

static gboolean gst_ccl_tracker_stop(GstBaseTransform* trans) {
  GstCclTracker* self = GST_CCL_TRACKER(trans);
  gst_ccl_tracker_end_tracks(self);
  self->priv->geometry.clear();
  self->priv->tracker.reset();
  return TRUE;
}

// The caps' frame geometry as a string ("video/x-raw 640x360"): what track positions depend on.
static std::string geometry_of(GstCaps* caps) {
  const GstStructure* s = caps && gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0) : nullptr;
  gint width = -1, height = -1;
  if (s) gst_structure_get_int(s, "width", &width), gst_structure_get_int(s, "height", &height);
  gchar* text = g_strdup_printf("%s %dx%d", s ? gst_structure_get_name(s) : "", width, height);
  std::string geometry = text;
  g_free(text);
  return geometry;
}

// New frame geometry: positions in the old frames mean nothing in the new ones. Caps that change
// only the rest (framerate, colorimetry: decoders re-send such caps mid-stream) keep the tracks.
static gboolean gst_ccl_tracker_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps*) {
  GstCclTracker* self = GST_CCL_TRACKER(trans);
  std::string geometry = geometry_of(incaps);
  if (!self->priv->geometry.empty() && self->priv->geometry != geometry) gst_ccl_tracker_end_tracks(self);
  self->priv->geometry = std::move(geometry);
  return TRUE;
}

static gboolean gst_ccl_tracker_sink_event(GstBaseTransform* trans, GstEvent* event) {
  // The stream ended, or goes on from elsewhere (a flush): no track continues. At EOS the "end"
  // messages go before the EOS travels on, so the application has them when it sees EOS.
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP || GST_EVENT_TYPE(event) == GST_EVENT_EOS)
    gst_ccl_tracker_end_tracks(GST_CCL_TRACKER(trans));
  return GST_BASE_TRANSFORM_CLASS(gst_ccl_tracker_parent_class)->sink_event(trans, event);
}


static GstFlowReturn gst_ccl_tracker_transform_ip(GstBaseTransform* trans, GstBuffer* buffer) {
  GstCclTracker* self = GST_CCL_TRACKER(trans);
  GstCclTrackerPrivate* priv = self->priv;
  GstCclMeta* meta = gst_buffer_get_ccl_meta(buffer);
  if (!meta) {
    // Not a frame cudaccl labelled (a gap, say): the tracks neither match nor miss.
    if (!priv->warned_no_meta) GST_INFO_OBJECT(self, "buffer without GstCclMeta passed untracked");
    priv->warned_no_meta = true;
    return GST_FLOW_OK;
  }
  GST_OBJECT_LOCK(self);
  const ccl::track::Options options = priv->options;
  const bool post = priv->post_messages, post_frame = priv->post_frame_messages;
  GST_OBJECT_UNLOCK(self);
  priv->tracker->set_options(options);

  std::vector<ccl::track::Detection>& detections = priv->detections;
  detections.resize(meta->n_components);
  for (guint i = 0; i < meta->n_components; ++i) {
    const GstCclComponent& c = meta->components[i];
    detections[i].box = {float(c.x), float(c.y), float(c.width), float(c.height)};
    detections[i].area = c.area;
    detections[i].centroid_x = float(c.centroid_x), detections[i].centroid_y = float(c.centroid_y);
  }
  priv->ids.resize(detections.size());
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  priv->tracker->update(detections.data(), detections.size(), std::int64_t(pts), priv->ids.data());

  gst_ccl_track_write_ids(meta, priv->ids);
  gst_ccl_track_write_roi_params(buffer, meta);
  gst_ccl_track_life_meta_add(buffer, *priv->tracker);  // tracks started or ended here, for cclanalytics
  gst_ccl_tracks_meta_add(buffer, *priv->tracker);       // every located track's box, merged ones too
#if CCL_HAVE_ANALYTICS
  gst_ccl_track_add_analytics(buffer, meta, priv->tracker->first_times(), pts);
  gst_ccl_track_add_lost_analytics(buffer, priv->tracker->tracks());
#endif
  if (post) post_events(self);
  if (post_frame)
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self),
                                                                        gst_ccl_outputs_tracked_message_structure(
                                                                            meta, gst_ccl_outputs_frame_times(trans->segment, buffer))));
  GST_LOG_OBJECT(self, "%u components, %zu live tracks", meta->n_components, priv->tracker->tracks().size());
  return GST_FLOW_OK;
}

static void gst_ccl_tracker_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCclTracker* self = GST_CCL_TRACKER(object);
  GstCclTrackerPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_MIN_HITS: priv->options.min_hits = g_value_get_uint(value); break;
    case PROP_MAX_MISSES: priv->options.max_misses = g_value_get_uint(value); break;
    case PROP_MIN_IOU: priv->options.min_iou = float(g_value_get_double(value)); break;
    case PROP_GATE: priv->options.gate = float(g_value_get_double(value)); break;
    case PROP_POST_MESSAGES: priv->post_messages = g_value_get_boolean(value); break;
    case PROP_POST_FRAME_MESSAGES: priv->post_frame_messages = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_tracker_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCclTracker* self = GST_CCL_TRACKER(object);
  GstCclTrackerPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_MIN_HITS: g_value_set_uint(value, priv->options.min_hits); break;
    case PROP_MAX_MISSES: g_value_set_uint(value, priv->options.max_misses); break;
    case PROP_MIN_IOU: g_value_set_double(value, priv->options.min_iou); break;
    case PROP_GATE: g_value_set_double(value, priv->options.gate); break;
    case PROP_POST_MESSAGES: g_value_set_boolean(value, priv->post_messages); break;
    case PROP_POST_FRAME_MESSAGES: g_value_set_boolean(value, priv->post_frame_messages); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_tracker_finalize(GObject* object) {
  GST_CCL_TRACKER(object)->priv->~GstCclTrackerPrivate();
  G_OBJECT_CLASS(gst_ccl_tracker_parent_class)->finalize(object);
}

static void gst_ccl_tracker_class_init(GstCclTrackerClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  const ccl::track::Options defaults;

  gobject_class->set_property = gst_ccl_tracker_set_property;
  gobject_class->get_property = gst_ccl_tracker_get_property;
  gobject_class->finalize = gst_ccl_tracker_finalize;

  g_object_class_install_property(
      gobject_class, PROP_MIN_HITS,
      g_param_spec_uint("min-hits", "Minimum hits",
                        "Consecutive frames a component must be matched before its track is confirmed and gets an id "
                        "(until then its track_id is 0)",
                        1, 1000, defaults.min_hits, flags));
  g_object_class_install_property(
      gobject_class, PROP_MAX_MISSES,
      g_param_spec_uint("max-misses", "Maximum misses",
                        "Frames a confirmed track is kept lost (coasting on its prediction) without a matching "
                        "component before it ends (missed by the labeller); while its prediction lies inside a "
                        "component another track took (hidden in a merge), up to three times as many",
                        0, 100000, defaults.max_misses, flags));
  g_object_class_install_property(
      gobject_class, PROP_MIN_IOU,
      g_param_spec_double("min-iou", "Minimum IoU",
                          "Box overlap (intersection over union) with a track's predicted box that makes a component "
                          "a candidate for it (or see gate)",
                          0.01, 1.0, defaults.min_iou, flags));
  g_object_class_install_property(
      gobject_class, PROP_GATE,
      g_param_spec_double("gate", "Centroid gate",
                          "Centroid distance, in units of the predicted box's larger side, that makes a component a "
                          "candidate for a track (after the candidates by overlap)",
                          0.0, 100.0, defaults.gate, flags));
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post a \"ccl-track\" element message when a track starts (is confirmed), is lost, is "
                           "re-acquired or ends",
                           DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property(
      gobject_class, PROP_POST_FRAME_MESSAGES,
      g_param_spec_boolean("post-frame-messages", "Post frame messages",
                           "Post one \"ccl\" element message per frame: cudaccl's message (post-messages there) "
                           "with \"track-id\" (0 = none) in every component entry",
                           DEFAULT_POST_FRAME_MESSAGES, flags));

  gst_element_class_set_static_metadata(
      element_class, "Connected component tracker", "Filter/Analyzer/Video",
      "Gives the connected components cudaccl found (GstCclMeta) track ids from frame to frame: "
      "GstCclComponent.track_id, \"track-id\" in the ROI params, GstAnalyticsTrackingMtd on GStreamer >= 1.24. "
      "Pixels and caps pass untouched, CUDA memory too.\n"
      "Example: gst-launch-1.0 cclblobsrc scene=daylight ! video/x-raw,format=GRAY8 ! cudaccl foreground=motion "
      "open=1 min-area=50 ! ccltracker post-messages=true ! fakesink",
      "gst-ccl developers");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR(gst_ccl_tracker_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_ccl_tracker_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR(gst_ccl_tracker_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_ccl_tracker_sink_event);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_ccl_tracker_transform_ip);
}

static void gst_ccl_tracker_init(GstCclTracker* self) {
  self->priv = new (gst_ccl_tracker_get_instance_private(self)) GstCclTrackerPrivate();
  // Metadata needs a writable buffer: in place, never passthrough (allocation queries go upstream
  // untouched, as for any always-in-place transform, so CUDA memory passes).
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}
