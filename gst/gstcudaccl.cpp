#include "gstcudaccl.h"

#include <config.h>

#include <new>
#include <string>
#include <utility>

#include <gst/video/video.h>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"
#include "ccl_backend.h"
#include "ccl_caps.h"
#include "ccl_debug.h"
#include "ccl_frame_errors.h"
#include "gstcclenums.h"
#include "gstcclformats.h"
#include "gstcudaccl-private.h"

#if CCL_HAVE_CUDA
#include "ccl_cuda_context.h"
#endif

#define GST_CAT_DEFAULT gst_cuda_ccl_debug

enum {
  PROP_0,
  PROP_CONNECTIVITY,
  PROP_THRESHOLD,
  PROP_MIN_AREA,
  PROP_MAX_AREA,
  PROP_MAX_OBJECTS,
  PROP_ALGORITHM,
  PROP_ANALYSIS,
  PROP_ORDER,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_ATTACH_ROI_META,
  PROP_ATTACH_ANALYTICS_META,
  PROP_POST_MESSAGES,
  PROP_FRAMES_IN_FLIGHT,
  PROP_ACTIVE_BACKEND,
  PROP_FOREGROUND,
  PROP_MOTION_FACTOR,
  PROP_OPEN,
  PROP_CLOSE,
  PROP_ABSORB_FRAMES,
  PROP_CHROMA,
  PROP_SHOW_MASK,
  PROP_JOIN_PARTS,
};

#define DEFAULT_BACKEND GST_CUDA_CCL_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_ATTACH_ROI_META TRUE
#define DEFAULT_ATTACH_ANALYTICS_META TRUE
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_SHOW_MASK FALSE
#define DEFAULT_JOIN_PARTS FALSE
#define DEFAULT_FRAMES_IN_FLIGHT 1
#define MAX_FRAMES_IN_FLIGHT 8

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaCcl, gst_cuda_ccl, GST_TYPE_BASE_TRANSFORM);
static_assert(alignof(GstCudaCclPrivate) <= 2 * sizeof(gsize), "GObject aligns private data to 2 gsize");
GST_ELEMENT_REGISTER_DEFINE(cudaccl, "cudaccl", GST_RANK_NONE, GST_TYPE_CUDA_CCL);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_CUDA_CCL_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_CUDA_CCL_CAPS));

static void gst_cuda_ccl_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCudaCcl* self = GST_CUDA_CCL(object);
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_CONNECTIVITY: priv->options.connectivity = g_value_get_enum(value); break;
    case PROP_THRESHOLD: priv->options.threshold = std::uint8_t(g_value_get_uint(value)); break;
    case PROP_MIN_AREA: priv->options.min_area = g_value_get_uint(value); break;
    case PROP_MAX_AREA: priv->options.max_area = g_value_get_uint(value); break;
    case PROP_MAX_OBJECTS: priv->options.max_objects = g_value_get_uint(value); break;
    case PROP_ALGORITHM:
      priv->options.algorithm = ccl::Algorithm(g_value_get_enum(value));
      priv->gpu_only_logged = FALSE;
      break;
    case PROP_ANALYSIS:
      priv->options.analysis = ccl::Analysis(g_value_get_enum(value));
      priv->gpu_only_logged = FALSE;
      break;
    case PROP_ORDER: priv->options.order = ccl::Order(g_value_get_enum(value)); break;
    case PROP_BACKEND: priv->backend = GstCudaCclBackend(g_value_get_enum(value)); break;
    case PROP_CUDA_DEVICE_ID: priv->device_id = g_value_get_int(value); break;
    case PROP_ATTACH_ROI_META: priv->attach_roi_meta = g_value_get_boolean(value); break;
    case PROP_ATTACH_ANALYTICS_META: priv->attach_analytics_meta = g_value_get_boolean(value); break;
    case PROP_POST_MESSAGES: priv->post_messages = g_value_get_boolean(value); break;
    case PROP_FRAMES_IN_FLIGHT: priv->frames_in_flight = g_value_get_uint(value); break;
    case PROP_FOREGROUND: priv->options.foreground = ccl::Foreground(g_value_get_enum(value)); break;
    case PROP_MOTION_FACTOR: priv->options.motion_factor = std::uint8_t(g_value_get_uint(value)); break;
    case PROP_OPEN: priv->options.open_radius = int(g_value_get_uint(value)); break;
    case PROP_CLOSE: priv->options.close_radius = int(g_value_get_uint(value)); break;
    case PROP_ABSORB_FRAMES: priv->options.absorb_frames = int(g_value_get_uint(value)); break;
    case PROP_CHROMA: priv->options.chroma = g_value_get_boolean(value); break;
    case PROP_SHOW_MASK: priv->show_mask = g_value_get_boolean(value); break;
    case PROP_JOIN_PARTS: priv->join_parts = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_ccl_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCudaCcl* self = GST_CUDA_CCL(object);
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_CONNECTIVITY: g_value_set_enum(value, priv->options.connectivity); break;
    case PROP_THRESHOLD: g_value_set_uint(value, priv->options.threshold); break;
    case PROP_MIN_AREA: g_value_set_uint(value, priv->options.min_area); break;
    case PROP_MAX_AREA: g_value_set_uint(value, priv->options.max_area); break;
    case PROP_MAX_OBJECTS: g_value_set_uint(value, priv->options.max_objects); break;
    case PROP_ALGORITHM: g_value_set_enum(value, int(priv->options.algorithm)); break;
    case PROP_ANALYSIS: g_value_set_enum(value, int(priv->options.analysis)); break;
    case PROP_ORDER: g_value_set_enum(value, int(priv->options.order)); break;
    case PROP_BACKEND: g_value_set_enum(value, priv->backend); break;
    case PROP_CUDA_DEVICE_ID: g_value_set_int(value, priv->device_id); break;
    case PROP_ATTACH_ROI_META: g_value_set_boolean(value, priv->attach_roi_meta); break;
    case PROP_ATTACH_ANALYTICS_META: g_value_set_boolean(value, priv->attach_analytics_meta); break;
    case PROP_POST_MESSAGES: g_value_set_boolean(value, priv->post_messages); break;
    case PROP_FRAMES_IN_FLIGHT: g_value_set_uint(value, priv->frames_in_flight); break;
    case PROP_ACTIVE_BACKEND: g_value_set_string(value, gst_cuda_ccl_active_backend_name(priv->active_backend)); break;
    case PROP_FOREGROUND: g_value_set_enum(value, int(priv->options.foreground)); break;
    case PROP_MOTION_FACTOR: g_value_set_uint(value, priv->options.motion_factor); break;
    case PROP_OPEN: g_value_set_uint(value, guint(priv->options.open_radius)); break;
    case PROP_CLOSE: g_value_set_uint(value, guint(priv->options.close_radius)); break;
    case PROP_ABSORB_FRAMES: g_value_set_uint(value, guint(priv->options.absorb_frames)); break;
    case PROP_CHROMA: g_value_set_boolean(value, priv->options.chroma); break;
    case PROP_SHOW_MASK: g_value_set_boolean(value, priv->show_mask); break;
    case PROP_JOIN_PARTS: g_value_set_boolean(value, priv->join_parts); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}


static gboolean gst_cuda_ccl_start(GstBaseTransform* trans) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  priv->frames = 0;
  priv->held_flow = GST_FLOW_OK;
  return gst_cuda_ccl_open_backend(self);
}

static gboolean gst_cuda_ccl_stop(GstBaseTransform* trans) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  priv->ring->drop_all();  // the pads are flushing: frames not pushed yet are dropped
  gst_cuda_ccl_close_backend(self);
  gst_video_info_init(&priv->info);
  return TRUE;
}

// Pushes every frame in flight, in order; a flow that ends the stream is told upstream with the
// next frame (a branch unlinked for a moment is not).
static GstFlowReturn gst_cuda_ccl_drain(GstCudaCcl* self) {
  GstCudaCclPrivate* priv = self->priv;
  const GstFlowReturn flow = priv->ring->drain(priv->info, GST_BASE_TRANSFORM_SRC_PAD(self));
  if (flow != GST_FLOW_OK && flow != GST_FLOW_NOT_LINKED && priv->held_flow == GST_FLOW_OK) priv->held_flow = flow;
  return flow;
}

// chroma=true reads the colour planes of 8-bit 4:2:0 YUV under foreground=adaptive only: where the
// stream cannot use it, say so once per caps rather than let it pass silently.
static void gst_cuda_ccl_warn_unused_chroma(GstCudaCcl* self, const ccl::Options& options, const GstVideoInfo& info) {
  if (!options.chroma) return;
  const char* why = options.foreground != ccl::Foreground::Adaptive ? "it works with foreground=adaptive only"
                    : !gst_ccl_format_has_420_chroma(info.finfo)
                        ? "the frames have no 8-bit 4:2:0 colour planes (use NV12 or I420)"
                        : nullptr;
  if (why)
    GST_ELEMENT_WARNING(self, STREAM, FORMAT, ("chroma=true has no effect here: %s.", why),
                        ("format %s, foreground=%s", GST_VIDEO_INFO_NAME(&info), ccl::to_string(options.foreground)));
}

static gboolean gst_cuda_ccl_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps*) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, incaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  GST_OBJECT_LOCK(self);
  // A variant's arrays too; a later change allocates once.
  const ccl::Options options = ccl::adaptive_recipe(priv->options);
  GST_OBJECT_UNLOCK(self);
  gst_cuda_ccl_drain(self);  // no frame of the old caps is still labelled
  const bool system_memory = !gst_cuda_ccl_is_cuda_memory(gst_caps_get_features(incaps, 0));
  try {
    priv->ring->reserve(GST_VIDEO_INFO_COMP_WIDTH(&info, 0), GST_VIDEO_INFO_COMP_HEIGHT(&info, 0), system_memory,
                        options);
  } catch (...) {
    gst_cuda_ccl_post_error(GST_ELEMENT(self), std::current_exception(), info, 0);
    return FALSE;
  }
  // Only accepted caps replace the frame layout: after a refusal, GstBaseTransform keeps the
  // previous caps and will not call set_caps again when they come back.
  GST_OBJECT_LOCK(self);  // the latency query reads the framerate from another thread
  const bool new_rate = GST_VIDEO_INFO_FPS_N(&priv->info) != GST_VIDEO_INFO_FPS_N(&info) ||
                        GST_VIDEO_INFO_FPS_D(&priv->info) != GST_VIDEO_INFO_FPS_D(&info);
  const bool holds_frames = priv->frames_in_flight > 1;
  priv->info = info;
  GST_OBJECT_UNLOCK(self);
  // The frames held back last as long as the new frame duration: the sink asks again.
  if (new_rate && holds_frames)
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_latency(GST_OBJECT(self)));
  priv->system_memory = system_memory;
  priv->ring->reset_background();  // the model learnt frames of the old caps
  gst_cuda_ccl_warn_unused_chroma(self, options, info);
  GST_DEBUG_OBJECT(self, "labeling %dx%d %s frames", GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                   GST_VIDEO_INFO_NAME(&info));
  return TRUE;
}

// Same caps on both pads, CUDA memory first unless the CPU backend runs: an upstream that can give
// either (cudaupload) then hands over GPU frames instead of passing system memory through.
static GstCaps* gst_cuda_ccl_transform_caps(GstBaseTransform* trans, GstPadDirection, GstCaps* caps,
                                            GstCaps* filter) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GST_OBJECT_LOCK(self);
  const bool cpu = self->priv->active_backend == GST_CUDA_CCL_ACTIVE_CPU;
  GST_OBJECT_UNLOCK(self);
  return gst_cuda_ccl_order_caps(caps, cpu, filter);
}

// Refused caps fail negotiation without a word from GStreamer about why: say it once per caps.
static gboolean gst_cuda_ccl_accept_caps(GstBaseTransform* trans, GstPadDirection direction, GstCaps* caps) {
  if (GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->accept_caps(trans, direction, caps)) return TRUE;
  if (direction != GST_PAD_SINK || !gst_caps_is_fixed(caps)) return FALSE;
  GstCaps* templ = gst_pad_get_pad_template_caps(GST_BASE_TRANSFORM_SINK_PAD(trans));
  const bool ours = !gst_caps_can_intersect(caps, templ);  // else downstream refused
  gst_caps_unref(templ);
  if (!ours) return FALSE;
  const std::string why = gst_cuda_ccl_refusal(caps);
  if (why.empty()) return FALSE;
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  gchar* str = gst_caps_to_string(caps);
  std::string text = str;
  g_free(str);
  GST_OBJECT_LOCK(self);
  const bool first = priv->refused_caps != text;
  if (first) priv->refused_caps = std::move(text);
  GST_OBJECT_UNLOCK(self);
  if (first)
    GST_ELEMENT_WARNING(self, STREAM, FORMAT, ("Cannot label these frames: %s.", why.c_str()),
                        ("refused caps %" GST_PTR_FORMAT, caps));
  return FALSE;
}

// Lets upstream hand us frames with any stride.
static gboolean gst_cuda_ccl_propose_allocation(GstBaseTransform* trans, GstQuery* decide_query, GstQuery* query) {
  if (!GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->propose_allocation(trans, decide_query, query))
    return FALSE;
  if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr))
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  return TRUE;
}

// What the next frame is finished with, and a note when it names GPU kernels the CPU never runs.
static GstCclFrameSettings gst_cuda_ccl_frame_settings(GstCudaCcl* self) {
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const GstCclFrameSettings settings{ccl::adaptive_recipe(priv->options), bool(priv->attach_roi_meta),
                                     bool(priv->attach_analytics_meta), bool(priv->post_messages),
                                     bool(priv->show_mask), bool(priv->join_parts)};
  const ccl::Options defaults;
  const bool log_gpu_only =
      !priv->gpu_only_logged && priv->active_backend == GST_CUDA_CCL_ACTIVE_CPU &&
      (settings.options.algorithm != defaults.algorithm || settings.options.analysis != defaults.analysis);
  if (log_gpu_only) priv->gpu_only_logged = TRUE;
  GST_OBJECT_UNLOCK(self);
  if (log_gpu_only)
    GST_WARNING_OBJECT(self,
                       "algorithm=%s analysis=%s only choose GPU kernels; the CPU backend always uses raster "
                       "segments and computes the same result",
                       ccl::to_string(settings.options.algorithm), ccl::to_string(settings.options.analysis));
  return settings;
}

#if CCL_HAVE_CUDA
// Upstream's CUDA memory lives in another context: label there rather than copy every frame, and
// answer context queries with it, so elements that join later share it too.
static GstFlowReturn gst_cuda_ccl_follow_upstream_context(GstCudaCcl* self, GstBuffer* buffer) {
  GstCudaCclPrivate* priv = self->priv;
  if (priv->active_backend != GST_CUDA_CCL_ACTIVE_CUDA) return GST_FLOW_OK;
  GstCudaContext* upstream = priv->cuda_context.foreign(buffer);
  if (!upstream) return GST_FLOW_OK;
  GstFlowReturn flow = gst_cuda_ccl_drain(self);  // the frames in flight finish on the old engines
  if (flow == GST_FLOW_OK || flow == GST_FLOW_NOT_LINKED) {
    flow = GST_FLOW_OK;
    try {
      gst_cuda_ccl_move_to_context(self, upstream);
    } catch (...) {
      gst_cuda_ccl_post_error(GST_ELEMENT(self), std::current_exception(), priv->info, priv->frames + 1, buffer);
      flow = GST_FLOW_ERROR;
    }
  } else {
    priv->held_flow = GST_FLOW_OK;  // told upstream now
  }
  gst_object_unref(upstream);
  return flow;
}
#endif

// The one way a frame goes through: the queued input is submitted to the ring, and the oldest frame
// comes back for GstBaseTransform to push once every slot holds one.
static GstFlowReturn gst_cuda_ccl_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  *outbuf = nullptr;
  GstBuffer* buffer = std::exchange(trans->queued_buf, nullptr);
  if (buffer && priv->held_flow != GST_FLOW_OK) {
    gst_buffer_unref(buffer);
    return std::exchange(priv->held_flow, GST_FLOW_OK);
  }
  if (buffer) {
#if CCL_HAVE_CUDA
    const GstFlowReturn flow = gst_cuda_ccl_follow_upstream_context(self, buffer);
    if (flow != GST_FLOW_OK) {
      gst_buffer_unref(buffer);
      return flow;
    }
#endif
    const guint64 frame = gst_ccl_is_empty_gap(buffer) ? priv->frames : ++priv->frames;
    // Metadata is attached in place.
    priv->ring->submit(gst_buffer_make_writable(buffer), priv->info, gst_cuda_ccl_frame_settings(self), frame);
  }
  if (!priv->ring->full()) return GST_FLOW_OK;
  return priv->ring->finish_oldest(priv->info, outbuf);
}

// Events after a frame must not overtake it: serialized events wait until every frame before them
// was pushed; a flush drops the frames in flight.
static gboolean gst_cuda_ccl_sink_event(GstBaseTransform* trans, GstEvent* event) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCudaCclPrivate* priv = self->priv;
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
    priv->ring->drop_all();
    priv->ring->reset_background();  // the stream goes on from elsewhere
    priv->held_flow = GST_FLOW_OK;
  } else if (GST_EVENT_IS_SERIALIZED(event)) {
    const GstFlowReturn flow = gst_cuda_ccl_drain(self);
    // A fatal flow of the last frames that no later push will carry upstream: say it before EOS.
    // (ERROR was posted by whoever returned it.)
    if (GST_EVENT_TYPE(event) == GST_EVENT_EOS && flow <= GST_FLOW_NOT_NEGOTIATED && flow != GST_FLOW_ERROR)
      GST_ELEMENT_FLOW_ERROR(self, flow);
    if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) priv->held_flow = GST_FLOW_OK;  // new caps may cure not-negotiated
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->sink_event(trans, event);
}

// With N frames in flight a frame leaves when the (N-1)th after it arrives, on either backend:
// N-1 frame durations at the negotiated framerate, added to upstream's min and max latency. A
// variable or unknown framerate (0/1) gives no duration: nothing is added, and the debug log says so.
static void gst_cuda_ccl_add_latency(GstCudaCcl* self, GstQuery* query) {
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const guint held = priv->frames_in_flight - 1;
  const gint fps_n = GST_VIDEO_INFO_FPS_N(&priv->info), fps_d = GST_VIDEO_INFO_FPS_D(&priv->info);
  GST_OBJECT_UNLOCK(self);
  if (held == 0) return;
  if (fps_n <= 0 || fps_d <= 0) {
    GST_DEBUG_OBJECT(self, "framerate %d/%d: the %u frames held back add no known latency", fps_n, fps_d, held);
    return;
  }
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency(query, &live, &min, &max);
  const GstClockTime added = gst_util_uint64_scale_int_round(GST_SECOND * held, fps_d, fps_n);
  min += added;
  if (GST_CLOCK_TIME_IS_VALID(max)) max += added;
  GST_DEBUG_OBJECT(self, "%u frames held back at %d/%d add %" GST_TIME_FORMAT ": min %" GST_TIME_FORMAT
                   " max %" GST_TIME_FORMAT, held, fps_n, fps_d, GST_TIME_ARGS(added), GST_TIME_ARGS(min),
                   GST_TIME_ARGS(max));
  gst_query_set_latency(query, live, min, max);
}

static gboolean gst_cuda_ccl_query(GstBaseTransform* trans, GstPadDirection direction, GstQuery* query) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
#if CCL_HAVE_CUDA
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT && self->priv->cuda_context.handle_query(GST_ELEMENT(self), query))
    return TRUE;
#endif
  // A serialized query (allocation, drain) comes after the frames before it, as events do.
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED(query)) gst_cuda_ccl_drain(self);
  const gboolean answered = GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->query(trans, direction, query);
  if (answered && direction == GST_PAD_SRC && GST_QUERY_TYPE(query) == GST_QUERY_LATENCY)
    gst_cuda_ccl_add_latency(self, query);
  return answered;
}

#if CCL_HAVE_CUDA
static void gst_cuda_ccl_set_context(GstElement* element, GstContext* context) {
  GstCudaCcl* self = GST_CUDA_CCL(element);
  GST_OBJECT_LOCK(self);
  const gint device_id = self->priv->device_id;
  GST_OBJECT_UNLOCK(self);
  self->priv->cuda_context.handle_set_context(element, context, device_id);
  GST_ELEMENT_CLASS(gst_cuda_ccl_parent_class)->set_context(element, context);
}
#endif

static void gst_cuda_ccl_finalize(GObject* object) {
  GST_CUDA_CCL(object)->priv->~GstCudaCclPrivate();
  G_OBJECT_CLASS(gst_cuda_ccl_parent_class)->finalize(object);
}

static void gst_cuda_ccl_class_init(GstCudaCclClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  const ccl::Options defaults;

  gobject_class->set_property = gst_cuda_ccl_set_property;
  gobject_class->get_property = gst_cuda_ccl_get_property;
  gobject_class->finalize = gst_cuda_ccl_finalize;

  g_object_class_install_property(
      gobject_class, PROP_CONNECTIVITY,
      g_param_spec_enum("connectivity", "Connectivity",
                        "Pixels touching along an edge (4) or also at a corner (8) belong to one component",
                        GST_TYPE_CUDA_CCL_CONNECTIVITY, defaults.connectivity, flags));
  g_object_class_install_property(
      gobject_class, PROP_THRESHOLD,
      g_param_spec_uint("threshold", "Threshold",
                        "A plane-0 pixel is foreground when its value is greater than this (0..255)", 0, 255,
                        defaults.threshold, flags));
  g_object_class_install_property(
      gobject_class, PROP_MIN_AREA,
      g_param_spec_uint("min-area", "Minimum area", "Report only components of at least this many pixels", 0,
                        G_MAXUINT, defaults.min_area, flags));
  g_object_class_install_property(
      gobject_class, PROP_MAX_AREA,
      g_param_spec_uint("max-area", "Maximum area",
                        "Report only components of at most this many pixels (4294967295 = no limit)", 0,
                        G_MAXUINT, defaults.max_area, flags));
  g_object_class_install_property(
      gobject_class, PROP_MAX_OBJECTS,
      g_param_spec_uint("max-objects", "Maximum objects",
                        "Report at most this many components per frame, the first ones in the chosen order, "
                        "and mark the frame truncated when more passed the area filters (4294967295 = no limit)",
                        0, G_MAXUINT, defaults.max_objects, flags));
  g_object_class_install_property(
      gobject_class, PROP_ALGORITHM,
      g_param_spec_enum("algorithm", "Algorithm",
                        "GPU labeling kernels (CUDA backend only; the CPU backend always uses raster segments "
                        "and every choice gives the same result)",
                        GST_TYPE_CUDA_CCL_ALGORITHM, int(defaults.algorithm), flags));
  g_object_class_install_property(
      gobject_class, PROP_ANALYSIS,
      g_param_spec_enum("analysis", "Analysis",
                        "GPU feature analysis kernels for box, area and centroid (CUDA backend only; every "
                        "choice gives the same result)",
                        GST_TYPE_CUDA_CCL_ANALYSIS, int(defaults.analysis), flags));
  g_object_class_install_property(
      gobject_class, PROP_ORDER,
      g_param_spec_enum("order", "Order", "Order and numbering of the components", GST_TYPE_CUDA_CCL_ORDER,
                        int(defaults.order), flags));
  g_object_class_install_property(
      gobject_class, PROP_BACKEND,
      g_param_spec_enum("backend", "Backend",
                        "Where to label (takes effect when the element starts; see active-backend)",
                        GST_TYPE_CUDA_CCL_BACKEND, DEFAULT_BACKEND,
                        GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int("cuda-device-id", "CUDA device id",
                       "CUDA device to use when no CUDA context is shared by the pipeline (-1 = any)", -1,
                       G_MAXINT, DEFAULT_CUDA_DEVICE_ID,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, PROP_ATTACH_ROI_META,
      g_param_spec_boolean("attach-roi-meta", "Attach ROI meta",
                           "Also attach one GstVideoRegionOfInterestMeta of type connected-component per "
                           "reported component",
                           DEFAULT_ATTACH_ROI_META, flags));
#if CCL_HAVE_ANALYTICS
  g_object_class_install_property(
      gobject_class, PROP_ATTACH_ANALYTICS_META,
      g_param_spec_boolean("attach-analytics-meta", "Attach analytics meta",
                           "Also attach one GstAnalyticsRelationMeta per frame holding one GstAnalyticsODMtd of "
                           "type connected-component (confidence 1.0) per reported component, in order",
                           DEFAULT_ATTACH_ANALYTICS_META, flags));
#endif
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post one element message \"ccl\" per frame listing the reported components",
                           DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property(
      gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint("frames-in-flight", "Frames in flight",
                        "Frames labelled at once, each by its own engine (and device scratch), pushed in order: "
                        "the device labels the next frames while the streaming thread pushes one, so more "
                        "frames per second when upstream keeps up, each frame leaving when the (N-1)th after it "
                        "arrives (or at EOS, a caps change or a serialized event). The CPU backend holds frames the "
                        "same way. N-1 frame durations of the negotiated framerate are added to the latency "
                        "(nothing at a variable framerate, 0/1). 1 labels each frame before it is pushed",
                        1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
                        GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_string("active-backend", "Active backend",
                          "The backend in use: \"none\" until the element starts, then \"cpu\" or \"cuda\"",
                          "none", GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_FOREGROUND,
      g_param_spec_enum("foreground", "Foreground",
                        "How plane 0 becomes the mask: pixels above the threshold, or pixels in motion against a "
                        "per-pixel background model learnt from the frames (reset on caps change, flush and DISCONT); "
                        "adaptive is the one for real cameras",
                        GST_TYPE_CUDA_CCL_FOREGROUND, int(defaults.foreground), flags));
  g_object_class_install_property(
      gobject_class, PROP_MOTION_FACTOR,
      g_param_spec_uint("motion-factor", "Motion factor",
                        "foreground=motion: a pixel is foreground when it departs from its background by at least "
                        "this many times its temporal deviation; lower = more sensitive (adaptive uses 3)",
                        1, ccl::kMaxMotionFactor, defaults.motion_factor, flags));
  g_object_class_install_property(
      gobject_class, PROP_OPEN,
      g_param_spec_uint("open", "Open radius",
                        "Binary opening of the mask (removes specks) with a (2r+1)-pixel square of this radius, "
                        "in every foreground mode (0 = off; foreground=adaptive: 0 = its own 1)",
                        0, ccl::kMaxMorphologyRadius, guint(defaults.open_radius), flags));
  g_object_class_install_property(
      gobject_class, PROP_CLOSE,
      g_param_spec_uint("close", "Close radius",
                        "Binary closing of the mask after the opening (fills gaps) with a (2r+1)-pixel square of "
                        "this radius, in every foreground mode (0 = off; foreground=adaptive: 0 = its own 2)",
                        0, ccl::kMaxMorphologyRadius, guint(defaults.close_radius), flags));
  g_object_class_install_property(
      gobject_class, PROP_ABSORB_FRAMES,
      g_param_spec_uint("absorb-frames", "Absorb frames",
                        "foreground=adaptive: a pixel in the foreground this many frames in a row joins the "
                        "background, so a stopped object is reported this long and a ghost it leaves is gone "
                        "within this many frames",
                        1, ccl::kMaxAbsorbFrames, guint(defaults.absorb_frames), flags));
  g_object_class_install_property(
      gobject_class, PROP_CHROMA,
      g_param_spec_boolean("chroma", "Chroma",
                           "foreground=adaptive on 4:2:0 YUV (NV12, I420...) reads the colour planes too: "
                           "colour joins the parts of an object whose luma matches the background, and a "
                           "cast shadow (darker, same colour and texture) is background; no effect on GRAY8",
                           defaults.chroma, flags));
  g_object_class_install_property(
      gobject_class, PROP_SHOW_MASK,
      g_param_spec_boolean("show-mask", "Show mask",
                           "Replace the picture by the mask that is labelled (after foreground, open and close, "
                           "before the area filters): plane 0 255 for foreground and 0 for background, the other "
                           "planes 128, so a display shows it in black and white; the metadata is attached as usual",
                           DEFAULT_SHOW_MASK, flags));
  g_object_class_install_property(
      gobject_class, PROP_JOIN_PARTS,
      g_param_spec_boolean("join-parts", "Join parts",
                           "Report the parts of one object that the foreground cut apart (an object at night, "
                           "one split by a pole) as one component: components inside the box where an object "
                           "of the frame before is predicted, covering most of their joined box or lying side "
                           "by side, are joined (union box, summed area, centroid of all their pixels, the "
                           "first part's label); two objects that met are not. min-area and max-area pick the "
                           "parts, max-objects counts the joined ones. Forgets the objects on caps change, "
                           "flush and DISCONT",
                           DEFAULT_JOIN_PARTS, flags));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "Connected component labeling", "Filter/Analyzer/Video",
      "Labels the connected components of the binarized plane 0 (luma or gray) of every frame on an NVIDIA "
      "GPU, or on the CPU where none is usable, and attaches each component's bounding box, area and "
      "centroid as GstCclMeta and GstVideoRegionOfInterestMeta. Pixels pass unchanged unless show-mask is set.\n"
      "Example launch lines:\n"
      "  gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! cudaccl post-messages=true ! "
      "fakesink\n"
      "  gst-launch-1.0 -m filesrc location=mask.mp4 ! decodebin ! cudaupload ! cudaccl threshold=127 "
      "min-area=16 post-messages=true ! fakesink",
      "gst-ccl developers");

#if CCL_HAVE_CUDA
  element_class->set_context = gst_cuda_ccl_set_context;
#endif
  trans_class->query = gst_cuda_ccl_query;
  trans_class->sink_event = gst_cuda_ccl_sink_event;
  trans_class->generate_output = gst_cuda_ccl_generate_output;
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = gst_cuda_ccl_start;
  trans_class->stop = gst_cuda_ccl_stop;
  trans_class->transform_caps = gst_cuda_ccl_transform_caps;
  trans_class->accept_caps = gst_cuda_ccl_accept_caps;
  trans_class->set_caps = gst_cuda_ccl_set_caps;
  trans_class->propose_allocation = gst_cuda_ccl_propose_allocation;

  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_CONNECTIVITY, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ALGORITHM, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ANALYSIS, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ORDER, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_BACKEND, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_FOREGROUND, GstPluginAPIFlags(0));
}

GstCudaCclPrivate::GstCudaCclPrivate(GstBaseTransform* trans) : ring(std::make_unique<GstCclFrameRing>(trans)) {
  gst_video_info_init(&info);
}

static void gst_cuda_ccl_init(GstCudaCcl* self) {
  GstCudaCclPrivate* priv = self->priv =
      new (gst_cuda_ccl_get_instance_private(self)) GstCudaCclPrivate(GST_BASE_TRANSFORM(self));
  priv->options = ccl::Options();
  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
  priv->attach_roi_meta = DEFAULT_ATTACH_ROI_META;
  priv->attach_analytics_meta = CCL_HAVE_ANALYTICS ? DEFAULT_ATTACH_ANALYTICS_META : FALSE;
  priv->post_messages = DEFAULT_POST_MESSAGES;
  priv->show_mask = DEFAULT_SHOW_MASK;
  priv->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  priv->active_backend = GST_CUDA_CCL_ACTIVE_NONE;
  priv->held_flow = GST_FLOW_OK;
  // Metadata needs a writable buffer: in place, never passthrough.
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}
