/* GstCclMeta registration, copy and scale transform. */
#include "gstcclmeta.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_ccl_meta_debug);
#define GST_CAT_DEFAULT gst_ccl_meta_debug

GType
gst_ccl_meta_api_get_type (void)
{
  static GType type = 0;
  /* Same tags as GstVideoRegionOfInterestMeta: it describes pixel positions of the frame */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
  };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCclMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
gst_ccl_meta_init (GstMeta * meta, G_GNUC_UNUSED gpointer params,
    G_GNUC_UNUSED GstBuffer * buffer)
{
  GstCclMeta *m = (GstCclMeta *) meta;

  m->width = m->height = 0;
  m->connectivity = 8;
  m->n_components_total = 0;
  m->truncated = FALSE;
  m->n_components = 0;
  m->components = NULL;
  return TRUE;
}

static void
gst_ccl_meta_free (GstMeta * meta, G_GNUC_UNUSED GstBuffer * buffer)
{
  GstCclMeta *m = (GstCclMeta *) meta;

  g_free (m->components);
  m->components = NULL;
}

static gboolean
gst_ccl_meta_transform (GstBuffer * dest, GstMeta * meta,
    G_GNUC_UNUSED GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCclMeta *src = (GstCclMeta *) meta, *dst;

  if (GST_META_TRANSFORM_IS_COPY (type)) {
    dst = gst_buffer_add_ccl_meta (dest, src->width, src->height, src->connectivity,
        src->n_components_total, src->truncated, src->components, src->n_components);
    return dst != NULL;
  }

  if (GST_VIDEO_META_TRANSFORM_IS_SCALE (type)) {
    GstVideoMetaTransform *trans = (GstVideoMetaTransform *) data;
    guint in_w = GST_VIDEO_INFO_WIDTH (trans->in_info);
    guint in_h = GST_VIDEO_INFO_HEIGHT (trans->in_info);
    guint out_w = GST_VIDEO_INFO_WIDTH (trans->out_info);
    guint out_h = GST_VIDEO_INFO_HEIGHT (trans->out_info);
    guint i;

    if (in_w == 0 || in_h == 0 || out_w == 0 || out_h == 0)
      return FALSE;
    dst = gst_buffer_add_ccl_meta (dest, out_w, out_h, src->connectivity,
        src->n_components_total, src->truncated, src->components, src->n_components);
    if (dst == NULL)
      return FALSE;
    for (i = 0; i < dst->n_components; i++)
      gst_ccl_component_scale (&dst->components[i], in_w, in_h, out_w, out_h);
    GST_LOG ("scaled %u components from %ux%u to %ux%u", dst->n_components, in_w, in_h,
        out_w, out_h);
    return TRUE;
  }

  /* Other transforms (e.g. orientation) would make the positions wrong: drop the meta */
  return FALSE;
}

const GstMetaInfo *
gst_ccl_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i = gst_meta_register (GST_CCL_META_API_TYPE, "GstCclMeta",
        sizeof (GstCclMeta), gst_ccl_meta_init, gst_ccl_meta_free,
        gst_ccl_meta_transform);
    GST_DEBUG_CATEGORY_INIT (gst_ccl_meta_debug, "cclmeta", 0, "connected component meta");
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

GstCclMeta *
gst_buffer_get_ccl_meta (GstBuffer * buffer)
{
  return (GstCclMeta *) gst_buffer_get_meta (buffer, GST_CCL_META_API_TYPE);
}

GstCclMeta *
gst_buffer_add_ccl_meta (GstBuffer * buffer, guint width, guint height,
    guint connectivity, guint n_total, gboolean truncated,
    const GstCclComponent * components, guint n)
{
  GstCclMeta *m;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (n == 0 || components != NULL, NULL);

  m = (GstCclMeta *) gst_buffer_add_meta (buffer, GST_CCL_META_INFO, NULL);
  if (m == NULL)
    return NULL;
  m->width = width;
  m->height = height;
  m->connectivity = connectivity;
  m->n_components_total = n_total;
  m->truncated = truncated;
  m->n_components = n;
  m->components = n ? g_memdup2 (components, (gsize) n * sizeof (GstCclComponent)) : NULL;
  return m;
}

/**
 * gst_ccl_component_scale:
 * @component: a component of a @from_width x @from_height frame, rescaled in place
 * @from_width: width of the frame @component describes
 * @from_height: height of the frame @component describes
 * @to_width: width of the frame to describe
 * @to_height: height of the frame to describe
 *
 * Rescales @component to a frame of another size, as videoscale scales the pixels: the box maps
 * edge to edge (growing to cover every pixel it touches, clamped to the frame), the centroid
 * centre to centre (pixel centres at integer coordinates), the area by the ratio of the sizes.
 */
void
gst_ccl_component_scale (GstCclComponent * component, guint from_width,
    guint from_height, guint to_width, guint to_height)
{
  GstCclComponent *c = component;
  gdouble sx, sy, area;
  gint64 x0, y0, x1, y1;

  g_return_if_fail (component != NULL);
  g_return_if_fail (from_width > 0 && from_height > 0 && to_width > 0 && to_height > 0);

  sx = (gdouble) to_width / from_width;
  sy = (gdouble) to_height / from_height;
  x0 = (gint64) floor (c->x * sx);
  y0 = (gint64) floor (c->y * sy);
  x1 = (gint64) ceil ((c->x + c->width) * sx);
  y1 = (gint64) ceil ((c->y + c->height) * sy);
  area = round (c->area * sx * sy);
  x0 = CLAMP (x0, 0, (gint64) to_width - 1);
  y0 = CLAMP (y0, 0, (gint64) to_height - 1);
  x1 = CLAMP (x1, x0 + 1, (gint64) to_width);
  y1 = CLAMP (y1, y0 + 1, (gint64) to_height);
  c->x = (gint32) x0;
  c->y = (gint32) y0;
  c->width = (gint32) (x1 - x0);
  c->height = (gint32) (y1 - y0);
  c->area = (guint32) CLAMP (area, 1.0, (gdouble) G_MAXUINT32);
  c->centroid_x = (c->centroid_x + 0.5) * sx - 0.5;
  c->centroid_y = (c->centroid_y + 0.5) * sy - 0.5;
}
