/* GstCclMeta: the connected components of a video frame, as found by the cudaccl element.
 * Public so applications can read it; link with pkg-config gstreamer-ccl-1.0. */
#ifndef __GST_CCL_META_H__
#define __GST_CCL_META_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstCclComponent:
 * @label: 1..n_components_total in the meta's order, numbered before filtering
 * @area: number of pixels
 * @x: left column of the bounding box
 * @y: top row of the bounding box
 * @width: bounding box width in pixels
 * @height: bounding box height in pixels
 * @centroid_x: mean x of the pixels (pixel centres at integer coordinates)
 * @centroid_y: mean y of the pixels
 * @track_id: the id of the track this component belongs to, given by a ccltracker upstream of
 *   the reader; 0 when no tracker ran or the component is not (yet) part of a confirmed track.
 *   Ids are never given twice by one tracker instance. Since library version 1 (soname
 *   libgstcclmeta-1.0.so.1): the field made the struct 48 bytes instead of 40, so applications
 *   built against version 0 must be rebuilt.
 */
typedef struct {
  guint32 label, area;
  gint32 x, y, width, height;
  gdouble centroid_x, centroid_y;
  guint32 track_id;
} GstCclComponent;

/**
 * GstCclMeta:
 * @meta: parent #GstMeta
 * @width: frame width the components refer to
 * @height: frame height the components refer to
 * @connectivity: 4 or 8
 * @n_components_total: number of components before min-area/max-area/max-objects filtering
 * @truncated: %TRUE when max-objects cut the list
 * @n_components: number of entries in @components
 * @components: the reported components, in raster order of their first pixel or by area
 */
typedef struct {
  GstMeta meta;
  guint width, height, connectivity;
  guint n_components_total;
  gboolean truncated;
  guint n_components;
  GstCclComponent *components;
} GstCclMeta;

GType gst_ccl_meta_api_get_type (void);
#define GST_CCL_META_API_TYPE (gst_ccl_meta_api_get_type ())

const GstMetaInfo *gst_ccl_meta_get_info (void);
#define GST_CCL_META_INFO (gst_ccl_meta_get_info ())

/**
 * gst_buffer_get_ccl_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the #GstCclMeta of @buffer, or %NULL when it has none
 */
GstCclMeta *gst_buffer_get_ccl_meta (GstBuffer * buffer);

/**
 * gst_buffer_add_ccl_meta:
 * @buffer: a writable #GstBuffer
 * @width: frame width the components refer to
 * @height: frame height the components refer to
 * @connectivity: 4 or 8
 * @n_total: number of components before filtering
 * @truncated: %TRUE when max-objects cut the list
 * @components: (array length=n) (nullable): the components to copy
 * @n: number of entries in @components
 *
 * Copies @n entries of @components.
 *
 * Returns: (transfer none) (nullable): the new #GstCclMeta on @buffer
 */
GstCclMeta *gst_buffer_add_ccl_meta (GstBuffer * buffer, guint width,
    guint height, guint connectivity, guint n_total, gboolean truncated,
    const GstCclComponent * components, guint n);

void gst_ccl_component_scale (GstCclComponent * component, guint from_width,
    guint from_height, guint to_width, guint to_height);

/* For GObject introspection (typelib GstCcl-1.0): PyGObject cannot read the components array
 * field, so these give the entries one by one or as a sized array. */
GType gst_ccl_component_get_type (void);
#define GST_TYPE_CCL_COMPONENT (gst_ccl_component_get_type ())
GstCclComponent *gst_ccl_component_copy (const GstCclComponent * component);
void gst_ccl_component_free (GstCclComponent * component);

guint gst_ccl_meta_get_n_components (const GstCclMeta * meta);
const GstCclComponent *gst_ccl_meta_get_component (const GstCclMeta * meta, guint index);
const GstCclComponent *gst_ccl_meta_get_components (const GstCclMeta * meta, guint * n);

G_END_DECLS

#endif /* __GST_CCL_META_H__ */
