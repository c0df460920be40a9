/**
 * SECTION:element-cclblobsrc
 * @title: cclblobsrc
 *
 * Generates a GRAY8 (or NV12, I420 with grey chroma) scene that looks like a binarizable
 * surveillance view: bright objects (ellipses of several sizes and shapes, values 160..255) moving in straight lines
 * and bouncing off the frame edges, over a dim static background (a gradient and building-like blocks, all below 100).
 * Thresholding at 128 (cudaccl threshold=128) keeps exactly the objects; objects that overlap merge into one component.
 * The same seed and caps give the same frames.
 *
 * scene=daylight is the hard case for foreground=motion (issue 23): a textured static background
 * (smooth value noise over 25..230), textured objects (rectangles and ellipses, 8..22 % of the
 * frame's smaller side, checker or stripes across the motion, values 20..235) crossing the frame
 * at 2.9..5 pixels per frame and leaving it, sensor noise (sigma ~2.4) and illumination drifting
 * by +-5 grey levels over 700 frames. Object and background values overlap, so no global
 * threshold finds the objects; a Sigma-Delta background model followed by an opening does. Frame 0
 * is empty (the model learns the street first); the frame number alone drives the scene. Every
 * daylight buffer carries the objects' true boxes as the custom meta "GstCclTruthMeta" (see
 * gst/demo/ccl_truth_meta.h; each crossing of the frame is a new object with an id of its own,
 * n-blobs x pass + slot). draw-objects=false renders the same frames without the objects.
 *
 * |[
 * gst-launch-1.0 cclblobsrc scene=daylight num-buffers=300 ! \
 *   cudaccl foreground=motion open=1 min-area=50 ! videoconvert ! \
 *   video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink
 * ]|
 *
 * The hard cases of a motion foreground (issue 33), each on a coloured daylight-like street with
 * four textured, coloured objects crossing it and its exact truth in GstCclTruthMeta:
 * scene=gain-step (gain 1 -> 1.3 -> 1 -> 0.7 -> 1, each change over 3 frames, every 100 frames),
 * scene=ir-switch (night: luma 0.6 x + 70 and grey chroma from frame 150 to 349 of every 400),
 * scene=shadows (each object casts a shadow: luma x 0.55, chroma unchanged), scene=sway (a
 * tree-like textured patch sways by a few pixels every frame), scene=stopped-object (an object
 * stops for 100 frames mid-frame, then leaves) and scene=noise (sensor noise of sigma 4). All
 * formats carry the same luma; use NV12 or I420 to see the colour. noise=false renders without
 * sensor noise (for tests).
 *
 * |[
 * gst-launch-1.0 cclblobsrc scene=shadows num-buffers=300 ! video/x-raw,format=NV12 ! \
 *   cudaccl foreground=motion min-area=50 ! videoconvert ! \
 *   video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink
 * ]|
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 cclblobsrc num-buffers=300 ! cudaccl threshold=128 ! videoconvert ! \
 *   video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink
 * ]|
 */
#include "cclblobsrc.h"

#include "ccl_daylight_scene.h"
#include "ccl_debug.h"
#include "ccl_hard_scene.h"
#include "ccl_truth_attach.h"

#include <config.h>

#include <gst/video/video.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#define GST_CAT_DEFAULT gst_ccl_blob_src_debug

enum { PROP_0, PROP_N_BLOBS, PROP_SEED, PROP_SCENE, PROP_DRAW_OBJECTS, PROP_NOISE };

#define DEFAULT_N_BLOBS 14u
#define DEFAULT_SEED 1u
#define DEFAULT_SCENE GST_CCL_BLOB_SRC_SCENE_BLOBS
#define MAX_N_BLOBS 10000u
#define DEFAULT_WIDTH 640
#define DEFAULT_HEIGHT 360

namespace {

struct Blob {
  double x, y, vx, vy;  // centre and velocity in pixels (per frame)
  double rx, ry;        // radii
  guint8 value;         // brightness at the centre
};

// SplitMix64: small, fast and the same on every platform.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) / double(1ull << 53); }
};

// Position on [lo, hi] of a point moving from p0 at speed v that bounces off both ends.
double bounce(double p0, double v, double t, double lo, double hi) {
  const double span = hi - lo;
  if (span <= 0) return (lo + hi) / 2;
  double p = std::fmod(p0 - lo + v * t, 2 * span);
  if (p < 0) p += 2 * span;
  return lo + (p <= span ? p : 2 * span - p);
}

}  // namespace

GType gst_ccl_blob_src_scene_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_CCL_BLOB_SRC_SCENE_BLOBS, "Bright blobs over a dim background (threshold=128 separates them)", "blobs"},
      {GST_CCL_BLOB_SRC_SCENE_DAYLIGHT,
       "Textured objects over a textured background with noise and drift (no threshold separates them)", "daylight"},
      {GST_CCL_BLOB_SRC_SCENE_GAIN_STEP, "Hard case: the gain steps by +-30 % over 3 frames every 100 frames",
       "gain-step"},
      {GST_CCL_BLOB_SRC_SCENE_IR_SWITCH,
       "Hard case: IR day/night switch (contrast x0.6, level +70, grey chroma) at 150 and back at 350 of every 400",
       "ir-switch"},
      {GST_CCL_BLOB_SRC_SCENE_SHADOWS, "Hard case: every object casts a shadow (luma x0.55, chroma unchanged)",
       "shadows"},
      {GST_CCL_BLOB_SRC_SCENE_SWAY, "Hard case: a tree-like textured patch sways by a few pixels every frame", "sway"},
      {GST_CCL_BLOB_SRC_SCENE_STOPPED_OBJECT, "Hard case: an object stops for 100 frames in mid-frame, then leaves",
       "stopped-object"},
      {GST_CCL_BLOB_SRC_SCENE_NOISE, "Hard case: strong sensor noise (sigma 4) on a daylight-like street", "noise"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) g_once_init_leave(&type, g_enum_register_static("GstCclBlobSrcScene", values));
  return type;
}

// The element's state: constructed in the GObject private area by instance_init, destroyed in finalize.
struct GstCclBlobSrcPrivate {
  // Properties, guarded by the object lock.
  guint n_blobs = DEFAULT_N_BLOBS, seed = DEFAULT_SEED;
  GstCclBlobSrcScene scene = DEFAULT_SCENE;
  gboolean draw_objects = TRUE, noise = TRUE;

  // From set_caps to the next caps.
  GstVideoInfo info;
  std::vector<guint8> background;  // width x height, tightly packed
  std::vector<Blob> blobs;
  std::unique_ptr<ccl_demo::DaylightScene> daylight;  // scene=daylight only
  std::unique_ptr<ccl_demo::HardScene> hard;          // the hard scenes only
  gboolean current_draw_objects = TRUE, current_noise = TRUE;
  guint64 n_frames = 0;

  GstCclBlobSrcPrivate() { gst_video_info_init(&info); }
};

struct _GstCclBlobSrc {
  GstPushSrc parent;
  GstCclBlobSrcPrivate* priv;  // in the GObject private area: GObject frees it, finalize destroys it
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCclBlobSrc, gst_ccl_blob_src, GST_TYPE_PUSH_SRC);
static_assert(alignof(GstCclBlobSrcPrivate) <= 2 * sizeof(gsize), "GObject aligns private data to 2 gsize");
GST_ELEMENT_REGISTER_DEFINE(cclblobsrc, "cclblobsrc", GST_RANK_NONE, GST_TYPE_CCL_BLOB_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw, format = (string) { GRAY8, NV12, I420 }, width = (int) [ 1, 65535 ], "
                    "height = (int) [ 1, 65535 ], framerate = " GST_VIDEO_FPS_RANGE));

// Static background: darker at the top, building-like blocks; every value stays below 100.
static void gst_ccl_blob_src_make_background(GstCclBlobSrc* self, Rng rng) {
  GstCclBlobSrcPrivate* priv = self->priv;
  const gint w = GST_VIDEO_INFO_WIDTH(&priv->info), h = GST_VIDEO_INFO_HEIGHT(&priv->info);
  std::vector<guint8>& bg = priv->background;
  bg.assign(gsize(w) * h, 0);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) bg[gsize(y) * w + x] = guint8(25 + 45.0 * y / std::max(h - 1, 1));
  for (int b = 0; b < 8; b++) {
    const gint bw = gint(rng.uniform(0.05, 0.2) * w), bh = gint(rng.uniform(0.1, 0.45) * h);
    const gint bx = gint(rng.uniform(0, 1) * (w - bw)), by = gint(rng.uniform(0, 0.4) * h);
    const guint8 v = guint8(rng.uniform(55, 95));
    for (gint y = by; y < std::min(by + bh, h); y++)
      for (gint x = bx; x < std::min(bx + bw, w); x++) bg[gsize(y) * w + x] = v;
  }
}

static void gst_ccl_blob_src_make_blobs(GstCclBlobSrc* self, guint n, Rng rng) {
  GstCclBlobSrcPrivate* priv = self->priv;
  const double w = GST_VIDEO_INFO_WIDTH(&priv->info), h = GST_VIDEO_INFO_HEIGHT(&priv->info);
  const double unit = std::min(w, h);
  priv->blobs.clear();
  for (guint i = 0; i < n; i++) {
    Blob b;
    const double size = rng.uniform(0.025, 0.09) * unit;
    const double aspect = rng.uniform(0, 1) < 0.5 ? rng.uniform(1.8, 2.8) : rng.uniform(0.35, 0.7);  // people, cars
    b.rx = size, b.ry = size * aspect;
    b.x = rng.uniform(0, w), b.y = rng.uniform(0, h);
    const double speed = rng.uniform(0.002, 0.012) * unit, angle = rng.uniform(0, 2 * G_PI);
    b.vx = speed * std::cos(angle), b.vy = speed * std::sin(angle);
    b.value = guint8(rng.uniform(200, 255));
    priv->blobs.push_back(b);
  }
}

// The hard scene a scene value names, if it names one.
static gboolean gst_ccl_blob_src_hard_case(GstCclBlobSrcScene scene, ccl_demo::HardCase* c) {
  switch (scene) {
    case GST_CCL_BLOB_SRC_SCENE_GAIN_STEP: *c = ccl_demo::HardCase::GainStep; return TRUE;
    case GST_CCL_BLOB_SRC_SCENE_IR_SWITCH: *c = ccl_demo::HardCase::IrSwitch; return TRUE;
    case GST_CCL_BLOB_SRC_SCENE_SHADOWS: *c = ccl_demo::HardCase::Shadows; return TRUE;
    case GST_CCL_BLOB_SRC_SCENE_SWAY: *c = ccl_demo::HardCase::Sway; return TRUE;
    case GST_CCL_BLOB_SRC_SCENE_STOPPED_OBJECT: *c = ccl_demo::HardCase::StoppedObject; return TRUE;
    case GST_CCL_BLOB_SRC_SCENE_NOISE: *c = ccl_demo::HardCase::Noise; return TRUE;
    default: return FALSE;
  }
}

static gboolean gst_ccl_blob_src_set_caps(GstBaseSrc* src, GstCaps* caps) {
  GstCclBlobSrc* self = GST_CCL_BLOB_SRC(src);
  GstCclBlobSrcPrivate* priv = self->priv;
  if (!gst_video_info_from_caps(&priv->info, caps)) {
    GST_ERROR_OBJECT(self, "caps %" GST_PTR_FORMAT " are not video caps", caps);
    return FALSE;
  }
  GST_OBJECT_LOCK(self);
  const guint n = priv->n_blobs, seed = priv->seed;
  const GstCclBlobSrcScene scene = priv->scene;
  priv->current_draw_objects = priv->draw_objects;
  priv->current_noise = priv->noise;
  GST_OBJECT_UNLOCK(self);
  priv->daylight.reset();
  priv->hard.reset();
  ccl_demo::HardCase hard_case;
  if (gst_ccl_blob_src_hard_case(scene, &hard_case)) {
    priv->hard = std::make_unique<ccl_demo::HardScene>(hard_case, GST_VIDEO_INFO_WIDTH(&priv->info),
                                                       GST_VIDEO_INFO_HEIGHT(&priv->info), seed);
    return TRUE;
  }
  if (scene == GST_CCL_BLOB_SRC_SCENE_DAYLIGHT) {
    priv->daylight = std::make_unique<ccl_demo::DaylightScene>(GST_VIDEO_INFO_WIDTH(&priv->info),
                                                               GST_VIDEO_INFO_HEIGHT(&priv->info), seed, n);
    return TRUE;
  }
  Rng rng{seed};
  gst_ccl_blob_src_make_background(self, Rng{rng.next()});
  gst_ccl_blob_src_make_blobs(self, n, Rng{rng.next()});
  return TRUE;
}

static GstCaps* gst_ccl_blob_src_fixate(GstBaseSrc* src, GstCaps* caps) {
  GstCclBlobSrc* self = GST_CCL_BLOB_SRC(src);
  GST_OBJECT_LOCK(self);
  ccl_demo::HardCase hard_case;
  const bool colour = gst_ccl_blob_src_hard_case(self->priv->scene, &hard_case);
  GST_OBJECT_UNLOCK(self);
  caps = gst_caps_make_writable(caps);
  GstStructure* s = gst_caps_get_structure(caps, 0);
  // Where downstream takes any: GRAY8 as before for blobs and daylight, NV12 to show the hard scenes' colour.
  if (gst_structure_has_field(s, "format")) gst_structure_fixate_field_string(s, "format", colour ? "NV12" : "GRAY8");
  gst_structure_fixate_field_nearest_int(s, "width", DEFAULT_WIDTH);
  gst_structure_fixate_field_nearest_int(s, "height", DEFAULT_HEIGHT);
  gst_structure_fixate_field_nearest_fraction(s, "framerate", 30, 1);
  return GST_BASE_SRC_CLASS(gst_ccl_blob_src_parent_class)->fixate(src, caps);
}

static gboolean gst_ccl_blob_src_start(GstBaseSrc* src) {
  GST_CCL_BLOB_SRC(src)->priv->n_frames = 0;
  return TRUE;
}

static GstFlowReturn gst_ccl_blob_src_finish(GstCclBlobSrc* self, GstBuffer* buffer, GstBuffer** out);

static GstFlowReturn gst_ccl_blob_src_create(GstPushSrc* src, GstBuffer** out) {
  GstCclBlobSrc* self = GST_CCL_BLOB_SRC(src);
  GstCclBlobSrcPrivate* priv = self->priv;
  const GstVideoInfo& info = priv->info;
  const gint w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
  if (w == 0) return GST_FLOW_NOT_NEGOTIATED;

  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE)) {
    gst_buffer_unref(buffer);
    GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("Could not map a new frame for writing."), (nullptr));
    return GST_FLOW_ERROR;
  }
  guint8* data = static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
  const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
  const bool chroma = GST_VIDEO_INFO_N_COMPONENTS(&info) == 3;
  if (priv->hard) {
    ccl_demo::PlanesOut planes{data, stride};
    if (chroma) {
      planes.u = static_cast<guint8*>(GST_VIDEO_FRAME_COMP_DATA(&frame, 1));
      planes.v = static_cast<guint8*>(GST_VIDEO_FRAME_COMP_DATA(&frame, 2));
      planes.c_stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame, 1);
      planes.c_pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 1);
    }
    const ccl_demo::HardTruth truth =
        priv->hard->render(priv->n_frames, planes, priv->current_draw_objects, priv->current_noise);
    gst_video_frame_unmap(&frame);
    gst_ccl_truth_meta_add_hard(buffer, priv->n_frames, truth);
    return gst_ccl_blob_src_finish(self, buffer, out);
  }
  // blobs and daylight have no colour: neutral chroma, the same luma in every format.
  for (guint p = 1; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p)
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p); ++y)
      std::fill_n(static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) +
                      gsize(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p),
                  GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p), guint8(128));
  if (priv->daylight) {
    const std::vector<ccl_demo::TruthBox> boxes =
        priv->daylight->render(priv->n_frames, data, stride, priv->current_draw_objects, priv->current_noise);
    gst_video_frame_unmap(&frame);
    gst_ccl_truth_meta_add(buffer, priv->n_frames, boxes);
    return gst_ccl_blob_src_finish(self, buffer, out);
  }
  for (gint y = 0; y < h; y++) std::copy_n(priv->background.data() + gsize(y) * w, w, data + gsize(y) * stride);

  const double t = double(priv->n_frames);
  for (const Blob& b : priv->blobs) {
    if (!priv->current_draw_objects) break;
    const double cx = bounce(b.x, b.vx, t, 0, w - 1), cy = bounce(b.y, b.vy, t, 0, h - 1);
    const gint x0 = std::max(0, gint(std::floor(cx - b.rx))), x1 = std::min(w - 1, gint(std::ceil(cx + b.rx)));
    const gint y0 = std::max(0, gint(std::floor(cy - b.ry))), y1 = std::min(h - 1, gint(std::ceil(cy + b.ry)));
    for (gint y = y0; y <= y1; y++)
      for (gint x = x0; x <= x1; x++) {
        const double dx = (x - cx) / b.rx, dy = (y - cy) / b.ry, d2 = dx * dx + dy * dy;
        // shaded towards the rim, never below 160 so threshold=128 keeps the whole object
        if (d2 <= 1.0) data[gsize(y) * stride + x] = guint8(std::max(160.0, b.value - 60.0 * d2));
      }
  }
  gst_video_frame_unmap(&frame);
  return gst_ccl_blob_src_finish(self, buffer, out);
}

// Timestamps from the frame number, then the next frame.
static GstFlowReturn gst_ccl_blob_src_finish(GstCclBlobSrc* self, GstBuffer* buffer, GstBuffer** out) {
  GstCclBlobSrcPrivate* priv = self->priv;
  const GstVideoInfo& info = priv->info;
  const gint fps_n = GST_VIDEO_INFO_FPS_N(&info), fps_d = GST_VIDEO_INFO_FPS_D(&info);
  if (fps_n > 0) {
    GST_BUFFER_PTS(buffer) = gst_util_uint64_scale(priv->n_frames, fps_d * GST_SECOND, fps_n);
    GST_BUFFER_DURATION(buffer) =
        gst_util_uint64_scale(priv->n_frames + 1, fps_d * GST_SECOND, fps_n) - GST_BUFFER_PTS(buffer);
  }
  GST_BUFFER_OFFSET(buffer) = priv->n_frames;
  GST_BUFFER_OFFSET_END(buffer) = ++priv->n_frames;
  *out = buffer;
  return GST_FLOW_OK;
}

static void gst_ccl_blob_src_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCclBlobSrc* self = GST_CCL_BLOB_SRC(object);
  GstCclBlobSrcPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_N_BLOBS: priv->n_blobs = g_value_get_uint(value); break;
    case PROP_SEED: priv->seed = g_value_get_uint(value); break;
    case PROP_SCENE: priv->scene = GstCclBlobSrcScene(g_value_get_enum(value)); break;
    case PROP_DRAW_OBJECTS: priv->draw_objects = g_value_get_boolean(value); break;
    case PROP_NOISE: priv->noise = g_value_get_boolean(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_blob_src_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCclBlobSrc* self = GST_CCL_BLOB_SRC(object);
  GstCclBlobSrcPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_N_BLOBS: g_value_set_uint(value, priv->n_blobs); break;
    case PROP_SEED: g_value_set_uint(value, priv->seed); break;
    case PROP_SCENE: g_value_set_enum(value, priv->scene); break;
    case PROP_DRAW_OBJECTS: g_value_set_boolean(value, priv->draw_objects); break;
    case PROP_NOISE: g_value_set_boolean(value, priv->noise); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_blob_src_finalize(GObject* object) {
  GST_CCL_BLOB_SRC(object)->priv->~GstCclBlobSrcPrivate();
  G_OBJECT_CLASS(gst_ccl_blob_src_parent_class)->finalize(object);
}

static void gst_ccl_blob_src_class_init(GstCclBlobSrcClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseSrcClass* basesrc_class = GST_BASE_SRC_CLASS(klass);
  GstPushSrcClass* pushsrc_class = GST_PUSH_SRC_CLASS(klass);
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

  gobject_class->set_property = gst_ccl_blob_src_set_property;
  gobject_class->get_property = gst_ccl_blob_src_get_property;
  gobject_class->finalize = gst_ccl_blob_src_finalize;

  g_object_class_install_property(
      gobject_class, PROP_N_BLOBS,
      g_param_spec_uint("n-blobs", "Number of blobs",
                        "Number of moving objects in the blobs and daylight scenes (the hard scenes have 4)", 0,
                        MAX_N_BLOBS, DEFAULT_N_BLOBS, flags));
  g_object_class_install_property(
      gobject_class, PROP_SEED,
      g_param_spec_uint("seed", "Seed", "Seed of the scene: background, object sizes, positions and velocities", 0,
                        G_MAXUINT32, DEFAULT_SEED, flags));
  g_object_class_install_property(
      gobject_class, PROP_SCENE,
      g_param_spec_enum("scene", "Scene",
                        "What to generate: blobs (threshold=128 separates them), daylight (textured objects over "
                        "a textured background with noise and drift, ground truth in GstCclTruthMeta) or a hard "
                        "case of a motion foreground, with its ground truth: gain-step, ir-switch, shadows, sway, "
                        "stopped-object, noise",
                        GST_TYPE_CCL_BLOB_SRC_SCENE, DEFAULT_SCENE, flags));
  g_object_class_install_property(
      gobject_class, PROP_DRAW_OBJECTS,
      g_param_spec_boolean("draw-objects", "Draw objects",
                           "For tests: FALSE renders the same frames without the moving objects (same background, "
                           "noise and drift)",
                           TRUE, flags));
  g_object_class_install_property(
      gobject_class, PROP_NOISE,
      g_param_spec_boolean("noise", "Sensor noise",
                           "For tests: FALSE renders the daylight and hard scenes without sensor noise (same "
                           "frames otherwise)",
                           TRUE, flags));

  gst_element_class_set_static_metadata(
      element_class, "Moving blob test source", "Source/Video",
      "Generates a surveillance-like scene (GRAY8, NV12 or I420; blobs and daylight have grey chroma): bright objects "
      "(values 160..255) moving and bouncing over a dim "
      "static background (values below 100), so threshold=128 in cudaccl finds exactly the objects. Default "
      "640x360 at 30 fps; the same seed and caps give the same frames.\n"
      "scene=daylight: textured objects crossing a textured background with sensor noise and illumination drift, "
      "overlapping in value so no threshold separates them (for cudaccl foreground=motion); each buffer carries the "
      "objects' true boxes as the custom meta \"GstCclTruthMeta\" (structure with frame (guint64) and objects, an "
      "array of structures with id, x, y, width, height, clipped to the frame).\n"
      "scene=gain-step, ir-switch, shadows, sway, stopped-object, noise: the hard cases of a motion foreground on a "
      "coloured daylight-like street, each with its truth in GstCclTruthMeta (also the shadows, swaying clutter and "
      "ghosts, which are not objects, and the lighting; see gst/demo/ccl_truth_meta.h).\n"
      "Example: gst-launch-1.0 cclblobsrc num-buffers=300 ! cudaccl threshold=128 ! videoconvert ! "
      "video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink",
      "gst-ccl developers");
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_type_mark_as_plugin_api(GST_TYPE_CCL_BLOB_SRC_SCENE, GstPluginAPIFlags(0));
  gst_ccl_truth_meta_register();

  basesrc_class->set_caps = GST_DEBUG_FUNCPTR(gst_ccl_blob_src_set_caps);
  basesrc_class->fixate = GST_DEBUG_FUNCPTR(gst_ccl_blob_src_fixate);
  basesrc_class->start = GST_DEBUG_FUNCPTR(gst_ccl_blob_src_start);
  pushsrc_class->create = GST_DEBUG_FUNCPTR(gst_ccl_blob_src_create);
}

static void gst_ccl_blob_src_init(GstCclBlobSrc* self) {
  self->priv = new (gst_ccl_blob_src_get_instance_private(self)) GstCclBlobSrcPrivate();
  gst_base_src_set_format(GST_BASE_SRC(self), GST_FORMAT_TIME);
}
