/**
 * SECTION:element-ccloverlay
 * @title: ccloverlay
 *
 * Draws what cudaccl found, so a person can see it: each component's bounding box, a cross on
 * its centroid and its label number (its track id instead where a ccltracker gave it one; once one
 * gave ids in the stream, components without one, tracks not yet confirmed, get no number), onto
 * the video frame itself. The components come from the
 * #GstCclMeta on the buffer, or, when a buffer carries none, from its
 * #GstVideoRegionOfInterestMeta (label = the "connected-component" parameter or the ROI id).
 * Boxes and centroids of a #GstCclMeta made for another frame size are rescaled to this frame.
 *
 * Behind a ccltracker, the tracks are drawn as the tracker places them (its "GstCclTracksMeta"):
 * objects that touch are one component, and each track in it gets its own box, its part of the
 * component, numbered with its id; components no track took are drawn unnumbered.
 *
 * With #GstCclOverlay:trail set to N > 0, every component with a track id (from a ccltracker
 * upstream) also gets a trail: a line in #GstCclOverlay:color, #GstCclOverlay:line-width thick,
 * through its centroids (rescaled like the boxes) of its last N frames. A track unseen in more than
 * N frames in a row loses its trail; trails are forgotten on flush, on caps with another frame
 * size and when the element stops.
 *
 * A buffer with cclanalytics' GstCclSceneMeta also gets its rules drawn: each line yellow with an
 * arrow pointing to its forward side, its forward count on that side and its backward count on the
 * other; each zone's outline cyan (red and twice as thick while overcrowded) with its occupancy.
 *
 * Works in place on system-memory GRAY8, I420, NV12, RGBA and BGRx frames. On YUV and gray
 * frames the color is converted with the frame's colorimetry (gray frames get its luma only).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=circular ! video/x-raw,format=GRAY8 ! cudaccl threshold=128 ! \
 *   videoconvert ! video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink
 * ]| Shows the rings of the test pattern, boxed and numbered.
 * |[
 * gst-launch-1.0 cclblobsrc num-buffers=1 ! cudaccl threshold=128 ! videoconvert ! \
 *   video/x-raw,format=RGBA ! ccloverlay ! pngenc ! filesink location=components.png
 * ]| Writes one annotated frame to a PNG file.
 */
#include "ccloverlay.h"

#include <config.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

#include "ccl/gstcclmeta.h"
#include "ccl_debug.h"
#include "ccl_draw.h"
#include "ccl_scene_draw.h"
#include "ccl_trail.h"
#include "ccl_tracks_meta.h"

#define GST_CAT_DEFAULT gst_ccl_overlay_debug

enum {
  PROP_0,
  PROP_DRAW_BOXES,
  PROP_DRAW_CENTROIDS,
  PROP_DRAW_LABELS,
  PROP_COLOR,
  PROP_LABEL_BACKGROUND,
  PROP_LINE_WIDTH,
  PROP_LABEL_SCALE,
  PROP_TRAIL,
};

#define DEFAULT_DRAW_BOXES TRUE
#define DEFAULT_DRAW_CENTROIDS TRUE
#define DEFAULT_DRAW_LABELS TRUE
#define DEFAULT_COLOR 0xff00ff00u             // opaque green
#define DEFAULT_LABEL_BACKGROUND 0xc0000000u  // mostly opaque black
#define DEFAULT_LINE_WIDTH 1u
#define DEFAULT_LABEL_SCALE 0u  // automatic
#define DEFAULT_TRAIL 0u        // no trails
#define MAX_LINE_WIDTH 16u
#define MAX_LABEL_SCALE 16u
#define MAX_TRAIL 64u
// Centroids are clamped to this before rounding to pixels: a corrupt meta cannot overflow the line walk.
#define MAX_COORDINATE 1e6

#define GST_CCL_OVERLAY_FORMATS "{ GRAY8, I420, NV12, RGBA, BGRx }"

// The properties, as one frame reads them.
struct GstCclOverlaySettings {
  gboolean draw_boxes = DEFAULT_DRAW_BOXES, draw_centroids = DEFAULT_DRAW_CENTROIDS, draw_labels = DEFAULT_DRAW_LABELS;
  guint color = DEFAULT_COLOR, label_background = DEFAULT_LABEL_BACKGROUND, line_width = DEFAULT_LINE_WIDTH,
        label_scale = DEFAULT_LABEL_SCALE, trail = DEFAULT_TRAIL;
};

namespace {

// One component to draw, in this frame's pixel coordinates.
struct Mark {
  gint x, y, width, height;
  gdouble centroid_x, centroid_y;
  guint label;
  bool has_label;
  guint track_id;  // 0 = not tracked
};

// What marks_from_tracks_meta() reads a frame into: the tracks meta's records, and which
// components a track took.
struct CclTracksScratch {
  std::vector<GstCclTrackRecord> records;
  std::vector<guint8> taken;
};

}  // namespace

// The element's state: constructed in the GObject private area by instance_init, destroyed in finalize.
struct GstCclOverlayPrivate {
  // Properties, guarded by the object lock; read once per frame.
  GstCclOverlaySettings settings;

  // Streaming thread only (and start/stop, when no frame flows): centroids of the tracks' last frames.
  CclTrails trails;
  // A ccltracker upstream gave track ids in this stream: components without one get no number.
  bool track_ids_seen = false;
  // Per-frame scratch, reused so that a frame allocates nothing once the sizes settled.
  CclTracksScratch tracks;
  std::vector<Mark> marks;
  CclScene scene;  // cclanalytics' rules and counts of the frame (its vectors keep their capacity)
};

struct _GstCclOverlay {
  GstVideoFilter parent;
  GstCclOverlayPrivate* priv;  // in the GObject private area: GObject frees it, finalize destroys it
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCclOverlay, gst_ccl_overlay, GST_TYPE_VIDEO_FILTER);
static_assert(alignof(GstCclOverlayPrivate) <= 2 * sizeof(gsize), "GObject aligns private data to 2 gsize");
GST_ELEMENT_REGISTER_DEFINE(ccloverlay, "ccloverlay", GST_RANK_NONE, GST_TYPE_CCL_OVERLAY);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(GST_CCL_OVERLAY_FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(GST_CCL_OVERLAY_FORMATS)));

namespace {

using Settings = GstCclOverlaySettings;

// From GstCclMeta, rescaled when the meta describes a frame of another size. Once a ccltracker
// upstream gave track ids in the stream (*track_ids_seen), those are the numbers that stay with the
// objects and components without one (tracks not yet confirmed) get no number, so no label can be
// read as a track id, in frames without any confirmed track too.
void marks_from_ccl_meta(const GstCclMeta* meta, gint frame_w, gint frame_h, bool* track_ids_seen,
                         std::vector<Mark>* marks) {
  const bool rescale = meta->width && meta->height && (meta->width != guint(frame_w) || meta->height != guint(frame_h));
  for (guint i = 0; i < meta->n_components; i++) *track_ids_seen |= meta->components[i].track_id != 0;
  const bool tracked = *track_ids_seen;
  for (guint i = 0; i < meta->n_components; i++) {
    GstCclComponent c = meta->components[i];
    if (rescale) gst_ccl_component_scale(&c, meta->width, meta->height, guint(frame_w), guint(frame_h));
    const guint number = c.track_id ? c.track_id : c.label;
    marks->push_back(Mark{c.x, c.y, c.width, c.height, c.centroid_x, c.centroid_y, number, !tracked || c.track_id != 0,
                          c.track_id});
  }
}

// From a ccltracker's GstCclTracksMeta (read into scratch->records, rescaled to this frame): each
// located track at its box (centroid: the box's centre), then the components no track took,
// unnumbered. False, and nothing added, when the buffer has no such meta.
bool marks_from_tracks_meta(GstBuffer* buffer, const GstCclMeta* meta, gint frame_w, gint frame_h,
                            CclTracksScratch* scratch, std::vector<Mark>* marks) {
  std::vector<GstCclTrackRecord>& records = scratch->records;
  if (!gst_ccl_tracks_meta_read(buffer, &records)) return false;
  gst_ccl_track_records_scale(&records, meta->width, meta->height, guint(frame_w), guint(frame_h));
  std::vector<guint8>& taken = scratch->taken;
  taken.assign(meta->n_components, 0);
  for (const GstCclTrackRecord& r : records) {
    if (r.component >= 0 && guint(r.component) < meta->n_components) taken[std::size_t(r.component)] = 1;
    const double x = r.x, y = r.y, w = r.width, h = r.height;
    marks->push_back(Mark{gint(std::lround(x)), gint(std::lround(y)), gint(std::lround(w)), gint(std::lround(h)),
                          x + (w - 1) / 2, y + (h - 1) / 2, r.id, true, r.id});
  }
  const bool rescale = meta->width && meta->height && (meta->width != guint(frame_w) || meta->height != guint(frame_h));
  for (guint i = 0; i < meta->n_components; i++) {
    if (taken[i]) continue;
    GstCclComponent c = meta->components[i];
    if (rescale) gst_ccl_component_scale(&c, meta->width, meta->height, guint(frame_w), guint(frame_h));
    marks->push_back(Mark{c.x, c.y, c.width, c.height, c.centroid_x, c.centroid_y, c.label, false, 0});
  }
  return true;
}

// From ROI metas: the "connected-component" parameters where cudaccl set them, else the box centre and id.
void marks_from_roi_metas(GstBuffer* buffer, std::vector<Mark>* marks) {
  gpointer state = nullptr;
  GstMeta* meta;
  while ((meta = gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(meta);
    Mark m{gint(roi->x), gint(roi->y), gint(roi->w), gint(roi->h), roi->x + (roi->w - 1) / 2.0,
           roi->y + (roi->h - 1) / 2.0, guint(std::max(roi->id, 0)), roi->id >= 0, 0};
    if (const GstStructure* s = gst_video_region_of_interest_meta_get_param(roi, "connected-component")) {
      gst_structure_get_double(s, "centroid-x", &m.centroid_x);
      gst_structure_get_double(s, "centroid-y", &m.centroid_y);
      guint label;
      if (gst_structure_get_uint(s, "label", &label)) m.label = label, m.has_label = true;
      guint track_id = 0;
      // "track-id" is there when a ccltracker ran: 0 (not confirmed yet) gets no number.
      if (gst_structure_get_uint(s, "track-id", &track_id))
        m.label = track_id, m.has_label = track_id != 0, m.track_id = track_id;
    }
    marks->push_back(m);
  }
}

// Label digits grow with the frame so they stay readable: 7 px tall up to 799 lines, then more.
gint label_scale_for(const Settings& s, gint frame_w, gint frame_h) {
  return s.label_scale ? gint(s.label_scale) : std::max(1, std::min(frame_w, frame_h) / 400);
}

gint to_pixel(gdouble v) {
  if (std::isnan(v)) v = -MAX_COORDINATE;  // off the frame: the line is clipped away, not drawn to 0
  return gint(std::lround(std::clamp(v, -MAX_COORDINATE, MAX_COORDINATE)));
}

// Records this frame's centroid of every tracked mark, then joins each one's history with lines.
void draw_trails(GstVideoFrame* frame, const CclPen& pen, CclTrails* trails, const std::vector<Mark>& marks,
                 const Settings& s) {
  trails->begin_frame(s.trail);  // every frame counts, so ids that vanish are dropped in time
  if (!s.trail) return;
  for (const Mark& m : marks) trails->add(m.track_id, m.centroid_x, m.centroid_y);
  for (const Mark& m : marks) {
    const std::deque<CclTrailPoint>* points = m.track_id ? trails->points(m.track_id) : nullptr;
    if (!points) continue;
    for (size_t i = 1; i < points->size(); i++) {
      const CclTrailPoint &a = (*points)[i - 1], &b = (*points)[i];
      ccl_draw_line(frame, pen, to_pixel(a.x), to_pixel(a.y), to_pixel(b.x), to_pixel(b.y), gint(s.line_width),
                    i + 1 == points->size());
    }
  }
}

void draw_label(GstVideoFrame* frame, const CclPen& pen, const CclPen& background, const Mark& m, gint scale) {
  gint tw, th;
  ccl_number_size(m.label, scale, &tw, &th);
  const gint pad = scale, bw = tw + 2 * pad, bh = th + 2 * pad;
  // above the box's top-left corner, or inside it where the box touches the top edge
  const gint top = m.y >= bh ? m.y - bh : m.y;
  const gint left = std::max(0, std::min(m.x, GST_VIDEO_FRAME_WIDTH(frame) - bw));
  ccl_draw_fill_rect(frame, background, left, top, bw, bh);
  ccl_draw_number(frame, pen, left + pad, top + pad, m.label, scale);
}

}  // namespace

static GstFlowReturn gst_ccl_overlay_transform_frame_ip(GstVideoFilter* filter, GstVideoFrame* frame) {
  GstCclOverlay* self = GST_CCL_OVERLAY(filter);
  GstCclOverlayPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const Settings s = priv->settings;
  GST_OBJECT_UNLOCK(self);

  const gint w = GST_VIDEO_FRAME_WIDTH(frame), h = GST_VIDEO_FRAME_HEIGHT(frame);
  std::vector<Mark>& marks = priv->marks;
  marks.clear();
  if (const GstCclMeta* meta = gst_buffer_get_ccl_meta(frame->buffer)) {
    if (!marks_from_tracks_meta(frame->buffer, meta, w, h, &priv->tracks, &marks))
      marks_from_ccl_meta(meta, w, h, &priv->track_ids_seen, &marks);
  } else
    marks_from_roi_metas(frame->buffer, &marks);
  GST_LOG_OBJECT(self, "drawing %zu components", marks.size());
  const CclPen pen = ccl_pen_from_argb(&frame->info, s.color);
  // Before the early return: a frame without components still ages the trails.
  draw_trails(frame, pen, &priv->trails, marks, s);
  const CclPen background = ccl_pen_from_argb(&frame->info, s.label_background);
  // cclanalytics' rules and counts, under the components.
  CclScene& scene = priv->scene;
  if (gst_ccl_scene_meta_read(frame->buffer, &scene))
    ccl_draw_scene(frame, scene, background, gint(s.line_width), label_scale_for(s, w, h));
  if (marks.empty()) return GST_FLOW_OK;

  const gint lw = gint(s.line_width);
  // Trails first (above), labels last, so no line, box or cross is drawn over a number.
  if (s.draw_boxes)
    for (const Mark& m : marks) ccl_draw_box(frame, pen, m.x, m.y, m.width, m.height, lw);
  if (s.draw_centroids) {
    const gint arm = std::max(2, 2 * lw + label_scale_for(s, w, h));
    for (const Mark& m : marks)
      ccl_draw_cross(frame, pen, gint(std::lround(m.centroid_x)), gint(std::lround(m.centroid_y)), arm, lw);
  }
  if (s.draw_labels) {
    const gint scale = label_scale_for(s, w, h);
    for (const Mark& m : marks)
      if (m.has_label) draw_label(frame, pen, background, m, scale);
  }
  return GST_FLOW_OK;
}

static void gst_ccl_overlay_set_property(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  GstCclOverlay* self = GST_CCL_OVERLAY(object);
  GstCclOverlaySettings& settings = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_DRAW_BOXES: settings.draw_boxes = g_value_get_boolean(value); break;
    case PROP_DRAW_CENTROIDS: settings.draw_centroids = g_value_get_boolean(value); break;
    case PROP_DRAW_LABELS: settings.draw_labels = g_value_get_boolean(value); break;
    case PROP_COLOR: settings.color = g_value_get_uint(value); break;
    case PROP_LABEL_BACKGROUND: settings.label_background = g_value_get_uint(value); break;
    case PROP_LINE_WIDTH: settings.line_width = g_value_get_uint(value); break;
    case PROP_LABEL_SCALE: settings.label_scale = g_value_get_uint(value); break;
    case PROP_TRAIL: settings.trail = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_ccl_overlay_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstCclOverlay* self = GST_CCL_OVERLAY(object);
  GstCclOverlaySettings& settings = self->priv->settings;
  GST_OBJECT_LOCK(self);
  switch (prop_id) {
    case PROP_DRAW_BOXES: g_value_set_boolean(value, settings.draw_boxes); break;
    case PROP_DRAW_CENTROIDS: g_value_set_boolean(value, settings.draw_centroids); break;
    case PROP_DRAW_LABELS: g_value_set_boolean(value, settings.draw_labels); break;
    case PROP_COLOR: g_value_set_uint(value, settings.color); break;
    case PROP_LABEL_BACKGROUND: g_value_set_uint(value, settings.label_background); break;
    case PROP_LINE_WIDTH: g_value_set_uint(value, settings.line_width); break;
    case PROP_LABEL_SCALE: g_value_set_uint(value, settings.label_scale); break;
    case PROP_TRAIL: g_value_set_uint(value, settings.trail); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK(self);
}

// Forgets what the stream told so far: the trails and whether it carries track ids.
static void forget_stream(GstCclOverlay* self) {
  self->priv->trails.clear();
  self->priv->track_ids_seen = false;
}

static gboolean gst_ccl_overlay_start(GstBaseTransform* trans) {
  forget_stream(GST_CCL_OVERLAY(trans));  // a new run starts with no trails
  return TRUE;
}

static gboolean gst_ccl_overlay_stop(GstBaseTransform* trans) {
  forget_stream(GST_CCL_OVERLAY(trans));  // frees the histories while the element sits stopped
  return TRUE;
}

// A new frame size: positions in the old frames mean nothing in the new ones (caps that change only
// the framerate or colorimetry keep the trails).
static gboolean gst_ccl_overlay_set_info(GstVideoFilter* filter, GstCaps*, GstVideoInfo* in_info, GstCaps*,
                                         GstVideoInfo*) {
  // filter->in_info still holds the previous caps' info here.
  const bool same_size = filter->negotiated && GST_VIDEO_INFO_WIDTH(&filter->in_info) == GST_VIDEO_INFO_WIDTH(in_info) &&
                         GST_VIDEO_INFO_HEIGHT(&filter->in_info) == GST_VIDEO_INFO_HEIGHT(in_info);
  if (!same_size) forget_stream(GST_CCL_OVERLAY(filter));
  return TRUE;
}

static gboolean gst_ccl_overlay_sink_event(GstBaseTransform* trans, GstEvent* event) {
  // The stream goes on from elsewhere: no trail continues across a flush.
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) forget_stream(GST_CCL_OVERLAY(trans));
  return GST_BASE_TRANSFORM_CLASS(gst_ccl_overlay_parent_class)->sink_event(trans, event);
}

static void gst_ccl_overlay_finalize(GObject* object) {
  GST_CCL_OVERLAY(object)->priv->~GstCclOverlayPrivate();
  G_OBJECT_CLASS(gst_ccl_overlay_parent_class)->finalize(object);
}

static void gst_ccl_overlay_class_init(GstCclOverlayClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass* filter_class = GST_VIDEO_FILTER_CLASS(klass);
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

  gobject_class->set_property = gst_ccl_overlay_set_property;
  gobject_class->get_property = gst_ccl_overlay_get_property;
  gobject_class->finalize = gst_ccl_overlay_finalize;

  g_object_class_install_property(
      gobject_class, PROP_DRAW_BOXES,
      g_param_spec_boolean("draw-boxes", "Draw boxes", "Draw each component's bounding box", DEFAULT_DRAW_BOXES,
                           flags));
  g_object_class_install_property(
      gobject_class, PROP_DRAW_CENTROIDS,
      g_param_spec_boolean("draw-centroids", "Draw centroids", "Draw a cross on each component's centroid",
                           DEFAULT_DRAW_CENTROIDS, flags));
  g_object_class_install_property(
      gobject_class, PROP_DRAW_LABELS,
      g_param_spec_boolean("draw-labels", "Draw labels",
                           "Write each component's label number above its box (inside it at the top edge)",
                           DEFAULT_DRAW_LABELS, flags));
  g_object_class_install_property(
      gobject_class, PROP_COLOR,
      g_param_spec_uint("color", "Color",
                        "Color of boxes, crosses and digits as 0xAARRGGBB (alpha 0 = invisible, 255 = opaque); "
                        "gray frames get its luma; default 0xff00ff00, opaque green",
                        0, G_MAXUINT32, DEFAULT_COLOR, flags));
  g_object_class_install_property(
      gobject_class, PROP_LABEL_BACKGROUND,
      g_param_spec_uint("label-background", "Label background",
                        "Color of the box behind each label as 0xAARRGGBB (0 = no box; default 0xc0000000, 75% black)", 0, G_MAXUINT32,
                        DEFAULT_LABEL_BACKGROUND, flags));
  g_object_class_install_property(
      gobject_class, PROP_LINE_WIDTH,
      g_param_spec_uint("line-width", "Line width", "Thickness of box outlines, crosses and trails in pixels", 1,
                        MAX_LINE_WIDTH, DEFAULT_LINE_WIDTH, flags));
  g_object_class_install_property(
      gobject_class, PROP_LABEL_SCALE,
      g_param_spec_uint("label-scale", "Label scale",
                        "Size of the label digits: each is 5x7 font pixels of scale x scale frame pixels "
                        "(0 = automatic: 1 per 400 pixels of the frame's shorter side, at least 1)",
                        0, MAX_LABEL_SCALE, DEFAULT_LABEL_SCALE, flags));
  g_object_class_install_property(
      gobject_class, PROP_TRAIL,
      g_param_spec_uint("trail", "Trail",
                        "Join the centroids of each tracked component's last N frames with a line in the color "
                        "(components with a track id from ccltracker only; 0 = no trails)",
                        0, MAX_TRAIL, DEFAULT_TRAIL, flags));

  gst_element_class_set_static_metadata(
      element_class, "Connected component overlay", "Filter/Effect/Video",
      "Draws the connected components found by cudaccl onto the frame: each component's bounding box, a cross "
      "on its centroid and its label number. Reads GstCclMeta, or the GstVideoRegionOfInterestMeta on buffers "
      "without one; a GstCclMeta made for another frame size is rescaled. Works in place on system-memory "
      "GRAY8, I420, NV12, RGBA and BGRx frames (gray frames get the color's luma).\n"
      "Example: gst-launch-1.0 videotestsrc pattern=circular ! video/x-raw,format=GRAY8 ! cudaccl "
      "threshold=128 ! videoconvert ! video/x-raw,format=RGBA ! ccloverlay ! videoconvert ! autovideosink\n"
      "Example: gst-launch-1.0 cclblobsrc num-buffers=1 ! cudaccl threshold=128 ! videoconvert ! "
      "video/x-raw,format=RGBA ! ccloverlay ! pngenc ! filesink location=components.png",
      "gst-ccl developers");
  gst_element_class_add_static_metadata(element_class, GST_ELEMENT_METADATA_DOC_URI,
                                        "https://example.invalid/gst-ccl#ccloverlay");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR(gst_ccl_overlay_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_ccl_overlay_stop);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_ccl_overlay_sink_event);
  filter_class->set_info = GST_DEBUG_FUNCPTR(gst_ccl_overlay_set_info);
  filter_class->transform_frame_ip = GST_DEBUG_FUNCPTR(gst_ccl_overlay_transform_frame_ip);
}

static void gst_ccl_overlay_init(GstCclOverlay* self) {
  self->priv = new (gst_ccl_overlay_get_instance_private(self)) GstCclOverlayPrivate();
}
