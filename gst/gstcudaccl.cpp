#include "gstcudaccl.h"

#include <config.h>

#include <functional>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include <gst/video/video.h>

#include "ccl/types.hpp"
#include "ccl_lanes.h"
#include "ccl_roi_metas.h"
#include "gstcclengine.h"
#include "gstcclenums.h"
#include "gstcclformats.h"
#include "gstcclresult.h"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "ccl/cuda_analyzer.hpp"
#endif

GST_DEBUG_CATEGORY_STATIC(gst_cuda_ccl_debug);
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
  PROP_POST_MESSAGES,
  PROP_FRAMES_IN_FLIGHT,
  PROP_ACTIVE_BACKEND,
};

#define DEFAULT_BACKEND GST_CUDA_CCL_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_ATTACH_ROI_META TRUE
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_FRAMES_IN_FLIGHT 1
#define MAX_FRAMES_IN_FLIGHT 8

// What one frame in flight needs of its own: the engine (with CUDA, a stream and device scratch),
// the result, reused so frames do not reallocate the component list, and the ROI metas, attached
// while the GPU labels the frame and filled after.
struct GstCudaCclLane {
  explicit GstCudaCclLane(std::unique_ptr<GstCclEngine> e) : engine(std::move(e)) {}
  std::unique_ptr<GstCclEngine> engine;
  ccl::Result result;
  ccl_gst::RoiMetaWriter roi_metas;
  GstMessage* message = nullptr;  // the frame's "ccl" message, posted when the frame is pushed (lanes)
  ~GstCudaCclLane() { gst_clear_message(&message); }
};
using GstCudaCclLanes = std::vector<std::unique_ptr<GstCudaCclLane>>;

struct _GstCudaCcl {
  GstBaseTransform parent;

  // Properties, guarded by the object lock; read once per frame.
  ccl::Options options;
  GstCudaCclBackend backend;
  gint device_id;
  gboolean attach_roi_meta;
  gboolean post_messages;
  guint frames_in_flight;
  gboolean gpu_only_logged;  // the "ignored on the CPU backend" note was logged for these values
  gchar* refused_caps;       // the last caps whose refusal was posted as a warning (posted once each)

  // Streaming state, from start() to stop().
  GstVideoInfo info;
  GstCudaCclLanes* lanes;       // frames-in-flight of them, each with its engine; empty when stopped
  ccl_gst::FrameLanes* frame_lanes;  // runs the lanes when more than one, else nullptr: frames in place
  gboolean lanes_discont;       // QoS dropped a frame: the next one the lanes push is marked DISCONT
  const gchar* active_backend;  // static string, read under the object lock
  guint64 frames;               // frames labeled since start, so errors can say which one failed
#if CCL_HAVE_CUDA
  // Guards `context`; recursive because gst_cuda_ensure_element_context calls set_context.
  GRecMutex context_lock;
  GstCudaContext* context;
#endif
};

G_DEFINE_TYPE(GstCudaCcl, gst_cuda_ccl, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE(cudaccl, "cudaccl", GST_RANK_NONE, GST_TYPE_CUDA_CCL);

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_CUDA_CCL_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_CUDA_CCL_CAPS));

static void gst_cuda_ccl_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCudaCcl* self = GST_CUDA_CCL(object);
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_CONNECTIVITY: self->options.connectivity = g_value_get_enum(value); break;
    case PROP_THRESHOLD: self->options.threshold = std::uint8_t(g_value_get_uint(value)); break;
    case PROP_MIN_AREA: self->options.min_area = g_value_get_uint(value); break;
    case PROP_MAX_AREA: self->options.max_area = g_value_get_uint(value); break;
    case PROP_MAX_OBJECTS: self->options.max_objects = g_value_get_uint(value); break;
    case PROP_ALGORITHM:
      self->options.algorithm = ccl::Algorithm(g_value_get_enum(value));
      self->gpu_only_logged = FALSE;
      break;
    case PROP_ANALYSIS:
      self->options.analysis = ccl::Analysis(g_value_get_enum(value));
      self->gpu_only_logged = FALSE;
      break;
    case PROP_ORDER: self->options.order = ccl::Order(g_value_get_enum(value)); break;
    case PROP_BACKEND: self->backend = GstCudaCclBackend(g_value_get_enum(value)); break;
    case PROP_CUDA_DEVICE_ID: self->device_id = g_value_get_int(value); break;
    case PROP_ATTACH_ROI_META: self->attach_roi_meta = g_value_get_boolean(value); break;
    case PROP_POST_MESSAGES: self->post_messages = g_value_get_boolean(value); break;
    case PROP_FRAMES_IN_FLIGHT: self->frames_in_flight = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_ccl_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCudaCcl* self = GST_CUDA_CCL(object);
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_CONNECTIVITY: g_value_set_enum(value, self->options.connectivity); break;
    case PROP_THRESHOLD: g_value_set_uint(value, self->options.threshold); break;
    case PROP_MIN_AREA: g_value_set_uint(value, self->options.min_area); break;
    case PROP_MAX_AREA: g_value_set_uint(value, self->options.max_area); break;
    case PROP_MAX_OBJECTS: g_value_set_uint(value, self->options.max_objects); break;
    case PROP_ALGORITHM: g_value_set_enum(value, int(self->options.algorithm)); break;
    case PROP_ANALYSIS: g_value_set_enum(value, int(self->options.analysis)); break;
    case PROP_ORDER: g_value_set_enum(value, int(self->options.order)); break;
    case PROP_BACKEND: g_value_set_enum(value, self->backend); break;
    case PROP_CUDA_DEVICE_ID: g_value_set_int(value, self->device_id); break;
    case PROP_ATTACH_ROI_META: g_value_set_boolean(value, self->attach_roi_meta); break;
    case PROP_POST_MESSAGES: g_value_set_boolean(value, self->post_messages); break;
    case PROP_FRAMES_IN_FLIGHT: g_value_set_uint(value, self->frames_in_flight); break;
    case PROP_ACTIVE_BACKEND: g_value_set_string(value, self->active_backend); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

// True for caps features naming CUDA memory (ANY features name no memory in particular).
static bool gst_cuda_ccl_is_cuda_memory(const GstCapsFeatures* features) {
  return features && !gst_caps_features_is_any(features) && gst_caps_features_contains(features, "memory:CUDAMemory");
}

// Replaces the lanes (and their engines) with one per engine given; none stops them.
static void gst_cuda_ccl_set_lanes(GstCudaCcl* self, std::vector<std::unique_ptr<GstCclEngine>> engines) {
  GstCudaCclLanes lanes;
  for (auto& engine : engines) lanes.push_back(std::make_unique<GstCudaCclLane>(std::move(engine)));
  GST_OBJECT_LOCK(self);
  std::swap(*self->lanes, lanes);
  self->active_backend = self->lanes->empty() ? "none" : self->lanes->front()->engine->name();
  GST_OBJECT_UNLOCK(self);
  lanes.clear();  // the old ones, outside the lock: a CUDA engine waits for its device work
  g_object_notify(G_OBJECT(self), "active-backend");
}

// `n` engines made by `make`; throws what it throws.
template <typename Make>
static std::vector<std::unique_ptr<GstCclEngine>> gst_cuda_ccl_engines(guint n, Make make) {
  std::vector<std::unique_ptr<GstCclEngine>> engines;
  for (guint i = 0; i < n; ++i) engines.push_back(make());
  return engines;
}

#if CCL_HAVE_CUDA
// The context the element shares now (a new reference), or nullptr.
static GstCudaContext* gst_cuda_ccl_ref_context(GstCudaCcl* self) {
  g_rec_mutex_lock(&self->context_lock);
  GstCudaContext* context = self->context ? static_cast<GstCudaContext*>(gst_object_ref(self->context)) : nullptr;
  g_rec_mutex_unlock(&self->context_lock);
  return context;
}

// Makes `context` (or none) the one context queries answer with; false when it already was.
static bool gst_cuda_ccl_replace_context(GstCudaCcl* self, GstCudaContext* context) {
  g_rec_mutex_lock(&self->context_lock);
  GstCudaContext* old = self->context;
  const bool changed = old != context;
  if (changed) self->context = context ? static_cast<GstCudaContext*>(gst_object_ref(context)) : nullptr;
  g_rec_mutex_unlock(&self->context_lock);
  if (changed && old) gst_object_unref(old);  // outside the lock: the last unref destroys the CUDA context
  return changed;
}

// The context the CUDA backend runs on (a new reference), or nullptr with `why` saying why not,
// in words for the user.
static GstCudaContext* gst_cuda_ccl_open_cuda(GstCudaCcl* self, gint device_id, std::string* why) {
  if (!gst_cuda_load_library()) {
    *why = "the CUDA driver library (libcuda) could not be loaded";
    return nullptr;
  }
  if (!ccl::cuda_device_usable(why)) return nullptr;
  // Held across the search: it writes self->context directly and through set_context.
  g_rec_mutex_lock(&self->context_lock);
  const gboolean found = gst_cuda_ensure_element_context(GST_ELEMENT(self), device_id, &self->context);
  g_rec_mutex_unlock(&self->context_lock);
  if (!found) {
    *why = device_id < 0 ? std::string("no CUDA context could be created")
                         : "no CUDA context could be created on device " + std::to_string(device_id);
    return nullptr;
  }
  return gst_cuda_ccl_ref_context(self);
}
#endif

static GstFlowReturn gst_cuda_ccl_label(GstCudaCcl* self, GstCudaCclLane& lane, GstBuffer* buffer, guint64 frame);

// With more than one frame in flight, frames go to the lanes' threads, which push them in order.
static void gst_cuda_ccl_start_frame_lanes(GstCudaCcl* self, guint n_lanes) {
  if (n_lanes < 2) return;
  self->frame_lanes = new ccl_gst::FrameLanes(
      n_lanes,
      [self](std::size_t lane, std::uint64_t ticket, GstBuffer* buffer) {
        return gst_cuda_ccl_label(self, *(*self->lanes)[lane], buffer, ticket + 1);
      },
      [self](std::size_t lane, GstBuffer* buffer, bool push) {
        GstMessage* message = std::exchange((*self->lanes)[lane]->message, nullptr);
        if (!push) {
          gst_clear_message(&message);
          gst_buffer_unref(buffer);
          return GST_FLOW_OK;
        }
        if (message) gst_element_post_message(GST_ELEMENT(self), message);  // in frame order, as without lanes
        return gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(self), buffer);
      });
  GST_INFO_OBJECT(self, "%u frames in flight, each labelled and pushed by its own thread", n_lanes);
}

// The one place the backend is chosen.
static gboolean gst_cuda_ccl_start(GstBaseTransform* trans) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GST_OBJECT_LOCK(self);
  const GstCudaCclBackend backend = self->backend;
  const gint device_id = self->device_id;
  const guint n_lanes = self->frames_in_flight;
  GST_OBJECT_UNLOCK(self);
  self->frames = 0;
  self->lanes_discont = FALSE;
  gboolean started = FALSE;

  if (backend == GST_CUDA_CCL_BACKEND_CPU) {
    GST_INFO_OBJECT(self, "using the CPU backend (backend=cpu)");
    gst_cuda_ccl_set_lanes(self, gst_cuda_ccl_engines(n_lanes, gst_ccl_engine_new_cpu));
    started = TRUE;
  }

  std::string why = "the plugin was built without CUDA support";
#if CCL_HAVE_CUDA
  GstCudaContext* context = started ? nullptr : gst_cuda_ccl_open_cuda(self, device_id, &why);
  if (context) {
    try {
      gst_cuda_ccl_set_lanes(self, gst_cuda_ccl_engines(n_lanes, [context] { return gst_ccl_engine_new_cuda(context); }));
      GST_INFO_OBJECT(self, "using the CUDA backend on %" GST_PTR_FORMAT, context);
      started = TRUE;
    } catch (const ccl::Error& e) {
      why = e.what();
    }
    gst_object_unref(context);
  }
#endif
  if (started) {
    gst_cuda_ccl_start_frame_lanes(self, n_lanes);
    return TRUE;
  }
  if (backend == GST_CUDA_CCL_BACKEND_CUDA) {
    GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS,
                      ("backend=cuda was requested but no usable CUDA device was found: %s. "
                       "Use backend=auto or backend=cpu to run on the CPU.",
                       why.c_str()),
                      ("cuda-device-id=%d", device_id));
    return FALSE;
  }
  GST_INFO_OBJECT(self, "using the CPU backend (backend=auto): %s", why.c_str());
  gst_cuda_ccl_set_lanes(self, gst_cuda_ccl_engines(n_lanes, gst_ccl_engine_new_cpu));
  gst_cuda_ccl_start_frame_lanes(self, n_lanes);
  return TRUE;
}

static gboolean gst_cuda_ccl_stop(GstBaseTransform* trans) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  delete self->frame_lanes;  // the pads are flushing: frames not pushed yet are dropped
  self->frame_lanes = nullptr;
  gst_cuda_ccl_set_lanes(self, {});  // the ROI params left in stock go too
#if CCL_HAVE_CUDA
  gst_cuda_ccl_replace_context(self, nullptr);
#endif
  gst_video_info_init(&self->info);
  return TRUE;
}

// Turns a core failure into an element error a user understands; `frame` counts from 1, 0 while
// preparing for new caps.
static void gst_cuda_ccl_post_core_error(GstCudaCcl* self, const ccl::Error& e, const GstVideoInfo& info,
                                         guint64 frame) {
  const int w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
  const char* cause = *e.cause() ? e.cause() : e.what();
  switch (e.kind()) {
    case ccl::Error::Kind::OutOfMemory:
      GST_ELEMENT_ERROR(self, RESOURCE, NO_SPACE_LEFT, ("Out of device memory for a %dx%d frame.", w, h),
                        ("%s", e.what()));
      break;
    case ccl::Error::Kind::NoDevice:
      GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("No usable CUDA device for a %dx%d frame.", w, h),
                        ("%s", e.what()));
      break;
    case ccl::Error::Kind::DeviceFailure:
      if (frame)
        GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                          ("CUDA failed while labeling frame %" G_GUINT64_FORMAT " (%dx%d): %s.", frame, w, h, cause),
                          ("%s", e.what()));
      else
        GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("CUDA failed while preparing for %dx%d frames: %s.", w, h, cause),
                          ("%s", e.what()));
      break;
    case ccl::Error::Kind::InvalidArgument:
      GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("Cannot label a %dx%d frame: %s.", w, h, e.what()), (nullptr));
      break;
  }
}

static gboolean gst_cuda_ccl_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps*) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, incaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  GST_OBJECT_LOCK(self);
  const ccl::Options options = self->options;  // a variant's arrays too; a later change allocates once
  GST_OBJECT_UNLOCK(self);
  if (self->frame_lanes) self->frame_lanes->drain();  // no frame of the old caps is still labelled
  try {
    for (auto& lane : *self->lanes)
      lane->engine->reserve(GST_VIDEO_INFO_COMP_WIDTH(&info, 0), GST_VIDEO_INFO_COMP_HEIGHT(&info, 0),
                            !gst_cuda_ccl_is_cuda_memory(gst_caps_get_features(incaps, 0)), options);
  } catch (const ccl::Error& e) {
    gst_cuda_ccl_post_core_error(self, e, info, 0);
    return FALSE;
  }
  // Only accepted caps replace the frame layout: after a refusal, GstBaseTransform keeps the
  // previous caps and will not call set_caps again when they come back.
  self->info = info;
  GST_DEBUG_OBJECT(self, "labeling %dx%d %s frames", GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                   GST_VIDEO_INFO_NAME(&info));
  return TRUE;
}

// Same caps on both pads, CUDA memory first unless the CPU backend runs: an upstream that can give
// either (cudaupload) then hands over GPU frames instead of passing system memory through.
static GstCaps* gst_cuda_ccl_transform_caps(GstBaseTransform* trans, GstPadDirection, GstCaps* caps,
                                            GstCaps* filter) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  GstCaps* ordered;
  if (gst_caps_is_any(caps)) {
    ordered = gst_caps_ref(caps);
  } else {
    GST_OBJECT_LOCK(self);
    const bool cpu = g_str_equal(self->active_backend, "cpu");
    GST_OBJECT_UNLOCK(self);
    GstCaps* cuda = gst_caps_new_empty();
    GstCaps* other = gst_caps_new_empty();
    for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
      GstCapsFeatures* features = gst_caps_get_features(caps, i);
      gst_caps_append_structure_full(gst_cuda_ccl_is_cuda_memory(features) ? cuda : other,
                                     gst_structure_copy(gst_caps_get_structure(caps, i)),
                                     features ? gst_caps_features_copy(features) : nullptr);
    }
    ordered = cpu ? gst_caps_merge(other, cuda) : gst_caps_merge(cuda, other);
  }
  if (filter) {
    GstCaps* filtered = gst_caps_intersect_full(ordered, filter, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(ordered);
    ordered = filtered;
  }
  return ordered;
}

// Why the pad template refuses the fixed `caps`, in words for the user; empty when it accepts them.
static std::string gst_cuda_ccl_refusal(GstCaps* caps) {
  const GstStructure* s = gst_caps_get_structure(caps, 0);
  if (!gst_structure_has_name(s, "video/x-raw"))
    return std::string("cudaccl labels raw video (video/x-raw), not ") + gst_structure_get_name(s);
  const bool cuda = gst_cuda_ccl_is_cuda_memory(gst_caps_get_features(caps, 0));
#if !CCL_HAVE_CUDA
  if (cuda) return "this cudaccl was built without CUDA support and takes system memory only (use cudadownload)";
#endif
  const char* formats = cuda ? GST_CUDA_CCL_YUV_FORMATS : GST_CUDA_CCL_SYSTEM_FORMATS;
  const gchar* format = gst_structure_get_string(s, "format");
  GValue supported = G_VALUE_INIT;
  g_value_init(&supported, GST_TYPE_LIST);
  gst_value_deserialize(&supported, formats);
  bool known = false;
  for (guint i = 0; format && i < gst_value_list_get_size(&supported); ++i)
    known |= g_str_equal(g_value_get_string(gst_value_list_get_value(&supported, i)), format);
  g_value_unset(&supported);
  if (!known)
    return std::string("format ") + (format ? format : "(none)") + (cuda ? " in CUDA memory" : "") +
           " has no 8-bit plane 0 to label; supported formats are " + formats +
           " (insert videoconvert before cudaccl)";
  gint width = 0, height = 0;
  if (gst_structure_get_int(s, "width", &width) && gst_structure_get_int(s, "height", &height) &&
      (width < 1 || height < 1 || width > ccl::kMaxSide || height > ccl::kMaxSide))
    return "frame size " + std::to_string(width) + "x" + std::to_string(height) +
           " is outside the supported 1..65535 per side (pixel indices are 32-bit; insert videoscale)";
  return "";
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
  gchar* text = gst_caps_to_string(caps);
  GST_OBJECT_LOCK(self);
  const bool first = g_strcmp0(self->refused_caps, text) != 0;
  if (first) std::swap(self->refused_caps, text);
  GST_OBJECT_UNLOCK(self);
  g_free(text);
  if (first)
    GST_ELEMENT_WARNING(self, STREAM, FORMAT, ("Cannot label these frames: %s.", why.c_str()),
                        ("refused caps %" GST_PTR_FORMAT, caps));
  return FALSE;
}

// Plane 0 must lie inside the buffer: gst_video_frame_map checks the size only without a
// GstVideoMeta, and a meta's offset and stride can point past the end. Returns the bytes needed.
static gsize gst_cuda_ccl_plane0_end(GstBuffer* buffer, const GstVideoInfo& info) {
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  if (!meta) return GST_VIDEO_INFO_SIZE(&info);
  const gint64 stride = meta->stride[0];
  // Empty frames and short strides are refused by the core with its own message.
  if (meta->width == 0 || meta->height == 0 || stride < gint64(meta->width)) return 0;
  return meta->offset[0] + gsize(stride) * (meta->height - 1) + meta->width;
}

// Lets upstream hand us frames with any stride.
static gboolean gst_cuda_ccl_propose_allocation(GstBaseTransform* trans, GstQuery* decide_query, GstQuery* query) {
  if (!GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->propose_allocation(trans, decide_query, query))
    return FALSE;
  if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr))
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  return TRUE;
}

static GstMessage* gst_cuda_ccl_message(GstCudaCcl* self, GstBuffer* buffer, const ccl::Result& result) {
  const GstSegment& segment = GST_BASE_TRANSFORM(self)->segment;
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  GstCclFrameTimes times;
  times.timestamp = pts;
  times.stream_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts);
  times.running_time = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts);
  times.duration = GST_BUFFER_DURATION(buffer);
  return gst_message_new_element(GST_OBJECT(self), gst_ccl_result_to_structure(result, times));
}

#if CCL_HAVE_CUDA
// After the engine adopted upstream memory's context, context queries answer with that one, so
// elements that join later share it too.
static void gst_cuda_ccl_follow_engine_context(GstCudaCcl* self, const GstCclEngine& engine) {
  GstCudaContext* now = engine.cuda_context();
  if (now && gst_cuda_ccl_replace_context(self, now))
    GST_INFO_OBJECT(self, "now sharing the upstream CUDA context %" GST_PTR_FORMAT, now);
}
#endif

// A gap without data has no frame to label.
static bool gst_cuda_ccl_is_empty_gap(GstBuffer* buffer) {
  return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size(buffer) == 0;
}

// Labels `buffer` (writable) on `lane` and attaches the results; `frame` counts from 1 for messages.
static GstFlowReturn gst_cuda_ccl_label(GstCudaCcl* self, GstCudaCclLane& lane, GstBuffer* buffer, guint64 frame) {
  if (gst_cuda_ccl_is_empty_gap(buffer)) return GST_FLOW_OK;

  GST_OBJECT_LOCK(self);
  const ccl::Options options = self->options;
  const gboolean attach_roi_meta = self->attach_roi_meta;
  const gboolean post_messages = self->post_messages;
  const bool log_gpu_only = !self->gpu_only_logged && g_str_equal(self->active_backend, "cpu") &&
                            (options.algorithm != ccl::Options().algorithm ||
                             options.analysis != ccl::Options().analysis);
  if (log_gpu_only) self->gpu_only_logged = TRUE;
  GST_OBJECT_UNLOCK(self);

  if (log_gpu_only)
    GST_WARNING_OBJECT(self,
                       "algorithm=%s analysis=%s only choose GPU kernels; the CPU backend always uses raster "
                       "segments and computes the same result",
                       ccl::to_string(options.algorithm), ccl::to_string(options.analysis));

  const gsize need = gst_cuda_ccl_plane0_end(buffer, self->info), have = gst_buffer_get_size(buffer);
  if (have < need) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT,
                      ("A %dx%d %s frame needs %" G_GSIZE_FORMAT " bytes but the buffer has only %" G_GSIZE_FORMAT
                       ".",
                       GST_VIDEO_INFO_WIDTH(&self->info), GST_VIDEO_INFO_HEIGHT(&self->info),
                       GST_VIDEO_INFO_NAME(&self->info), need, have),
                      ("%" GST_PTR_FORMAT, buffer));
    return GST_FLOW_ERROR;
  }

  ccl::Result& result = lane.result;
  gst_ccl_result_remove_metas(buffer);
  // The last frame's count is this frame's guess: the workers build that many blank ROI params, and
  // this thread attaches the blank ROI metas while the GPU labels the frame.
  ccl_gst::RoiMetaWriter* roi_metas = attach_roi_meta ? &lane.roi_metas : nullptr;
  if (roi_metas) roi_metas->expect(result.components.size());
  const auto attach_blanks = [roi_metas, buffer] { roi_metas->attach_blanks(buffer); };
  try {
    if (!lane.engine->run(buffer, self->info, options, result,
                           roi_metas ? std::function<void()>(attach_blanks) : std::function<void()>())) {
      if (roi_metas) roi_metas->abandon(buffer);
      GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Could not read the frame."),
                        ("failed to map plane 0 of %" GST_PTR_FORMAT, buffer));
      return GST_FLOW_ERROR;
    }
  } catch (const ccl::Error& e) {
    if (roi_metas) roi_metas->abandon(buffer);
    gst_cuda_ccl_post_core_error(self, e, self->info, frame);
    return GST_FLOW_ERROR;
  } catch (const std::bad_alloc&) {
    if (roi_metas) roi_metas->abandon(buffer);
    GST_ELEMENT_ERROR(self, RESOURCE, NO_SPACE_LEFT,
                      ("Out of host memory for a %dx%d frame.", GST_VIDEO_INFO_WIDTH(&self->info),
                       GST_VIDEO_INFO_HEIGHT(&self->info)),
                      (nullptr));
    return GST_FLOW_ERROR;
  }

#if CCL_HAVE_CUDA
  gst_cuda_ccl_follow_engine_context(self, *lane.engine);
#endif
  gst_ccl_result_add_meta(buffer, result);
  if (roi_metas) roi_metas->finish(buffer, result.components);
  if (post_messages) {
    GstMessage* message = gst_cuda_ccl_message(self, buffer, result);
    if (self->frame_lanes) {
      gst_clear_message(&lane.message);
      lane.message = message;  // posted when the lanes push the frame, in frame order
    } else {
      gst_element_post_message(GST_ELEMENT(self), message);
    }
  }
  GST_LOG_OBJECT(self, "%zu of %u components%s", result.components.size(), result.n_components_total,
                 result.truncated ? " (truncated)" : "");
  return GST_FLOW_OK;
}

// One frame in flight: labelled in place on the streaming thread, pushed by GstBaseTransform.
static GstFlowReturn gst_cuda_ccl_transform_ip(GstBaseTransform* trans, GstBuffer* buffer) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  const guint64 frame = gst_cuda_ccl_is_empty_gap(buffer) ? self->frames : ++self->frames;
  return gst_cuda_ccl_label(self, *self->lanes->front(), buffer, frame);
}

// QoS dropped the frame: GstBaseTransform marks the next buffer it pushes DISCONT, but with lanes
// it pushes none, so the lanes' next one is marked here.
static GstFlowReturn gst_cuda_ccl_submit_input_buffer(GstBaseTransform* trans, gboolean discont, GstBuffer* input) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  const GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->submit_input_buffer(trans, discont, input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED && self->frame_lanes) self->lanes_discont = TRUE;
  return ret;
}

// Several frames in flight: the frame goes to the next lane, which labels and pushes it; nothing
// comes back here to push.
static GstFlowReturn gst_cuda_ccl_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  if (!self->frame_lanes) return GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->generate_output(trans, outbuf);
  *outbuf = nullptr;
  GstBuffer* buffer = trans->queued_buf;
  trans->queued_buf = nullptr;
  if (!buffer) return GST_FLOW_OK;
  buffer = gst_buffer_make_writable(buffer);  // metadata is attached in place
  // GstBaseTransform advances the position only for buffers it pushes itself: position queries.
  if (trans->segment.format == GST_FORMAT_TIME && GST_BUFFER_PTS_IS_VALID(buffer)) {
    GstClockTime position = GST_BUFFER_PTS(buffer);
    if (GST_BUFFER_DURATION_IS_VALID(buffer)) position += GST_BUFFER_DURATION(buffer);
    GST_OBJECT_LOCK(self);
    trans->segment.position = position;
    GST_OBJECT_UNLOCK(self);
  }
  if (self->lanes_discont) {
    GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DISCONT);
    self->lanes_discont = FALSE;
  }
  return self->frame_lanes->submit(buffer);
}

// Events after a frame must not overtake it: serialized events wait until the lanes pushed every
// frame before them; a flush drops the frames still in the lanes.
static gboolean gst_cuda_ccl_sink_event(GstBaseTransform* trans, GstEvent* event) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
  if (self->frame_lanes) {
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_START) {
      self->frame_lanes->flush();
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
      self->frame_lanes->drain();
      self->frame_lanes->reset();
    } else if (GST_EVENT_IS_SERIALIZED(event)) {
      const GstFlowReturn flow = self->frame_lanes->drain();
      // A fatal flow of the last frames that no later push will carry upstream: say it before EOS.
      // (ERROR was posted by whoever returned it.)
      if (GST_EVENT_TYPE(event) == GST_EVENT_EOS && flow <= GST_FLOW_NOT_NEGOTIATED && flow != GST_FLOW_ERROR)
        GST_ELEMENT_FLOW_ERROR(self, flow);
      if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) self->frame_lanes->reset();  // new caps may cure not-negotiated
    }
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->sink_event(trans, event);
}

#if CCL_HAVE_CUDA
static void gst_cuda_ccl_set_context(GstElement* element, GstContext* context) {
  GstCudaCcl* self = GST_CUDA_CCL(element);
  GST_OBJECT_LOCK(self);
  const gint device_id = self->device_id;
  GST_OBJECT_UNLOCK(self);
  g_rec_mutex_lock(&self->context_lock);
  gst_cuda_handle_set_context(element, context, device_id, &self->context);
  g_rec_mutex_unlock(&self->context_lock);
  GST_ELEMENT_CLASS(gst_cuda_ccl_parent_class)->set_context(element, context);
}

#endif

static gboolean gst_cuda_ccl_query(GstBaseTransform* trans, GstPadDirection direction, GstQuery* query) {
  GstCudaCcl* self = GST_CUDA_CCL(trans);
#if CCL_HAVE_CUDA
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT) {
    // The streaming thread may swap the context (adoption) while another thread queries.
    GstCudaContext* context = gst_cuda_ccl_ref_context(self);
    const gboolean answered = gst_cuda_handle_context_query(GST_ELEMENT(self), query, context);
    gst_clear_object(&context);
    if (answered) return TRUE;
  }
#endif
  // A serialized query (allocation, drain) comes after the frames before it, as events do.
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED(query) && self->frame_lanes) self->frame_lanes->drain();
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_ccl_parent_class)->query(trans, direction, query);
}

static void gst_cuda_ccl_finalize(GObject* object) {
  GstCudaCcl* self = GST_CUDA_CCL(object);
  delete self->frame_lanes;
  delete self->lanes;
  g_free(self->refused_caps);
#if CCL_HAVE_CUDA
  gst_clear_object(&self->context);
  g_rec_mutex_clear(&self->context_lock);
#endif
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
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post one element message \"ccl\" per frame listing the reported components",
                           DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property(
      gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint("frames-in-flight", "Frames in flight",
                        "Frames labelled at once, each by its own thread with its own engine (and device "
                        "scratch), pushed in order: more frames per second when upstream keeps up; each frame "
                        "waits a little longer for the hand-over. 1 labels each frame on the streaming thread",
                        1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
                        GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_string("active-backend", "Active backend",
                          "The backend in use: \"none\" until the element starts, then \"cpu\" or \"cuda\"",
                          "none", GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "Connected component labeling", "Filter/Analyzer/Video",
      "Labels the connected components of the binarized plane 0 (luma or gray) of every frame on an NVIDIA "
      "GPU, or on the CPU where none is usable, and attaches each component's bounding box, area and "
      "centroid as GstCclMeta and GstVideoRegionOfInterestMeta. Pixels pass unchanged.\n"
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
  trans_class->submit_input_buffer = gst_cuda_ccl_submit_input_buffer;
  trans_class->generate_output = gst_cuda_ccl_generate_output;
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->start = gst_cuda_ccl_start;
  trans_class->stop = gst_cuda_ccl_stop;
  trans_class->transform_caps = gst_cuda_ccl_transform_caps;
  trans_class->accept_caps = gst_cuda_ccl_accept_caps;
  trans_class->set_caps = gst_cuda_ccl_set_caps;
  trans_class->propose_allocation = gst_cuda_ccl_propose_allocation;
  trans_class->transform_ip = gst_cuda_ccl_transform_ip;

  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_CONNECTIVITY, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ALGORITHM, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ANALYSIS, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_ORDER, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CUDA_CCL_BACKEND, GstPluginAPIFlags(0));

  GST_DEBUG_CATEGORY_INIT(gst_cuda_ccl_debug, "cudaccl", 0, "connected component labeling element");
}

static void gst_cuda_ccl_init(GstCudaCcl* self) {
  self->options = ccl::Options();
  self->backend = DEFAULT_BACKEND;
  self->device_id = DEFAULT_CUDA_DEVICE_ID;
  self->attach_roi_meta = DEFAULT_ATTACH_ROI_META;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  self->active_backend = "none";
  self->lanes = new GstCudaCclLanes();
  gst_video_info_init(&self->info);
#if CCL_HAVE_CUDA
  g_rec_mutex_init(&self->context_lock);
#endif
  // Metadata needs a writable buffer: in place, never passthrough.
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}
