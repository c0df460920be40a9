/* Accessors and a boxed GstCclComponent for GObject introspection (typelib GstCcl-1.0): bindings
 * such as PyGObject cannot read the GstCclMeta.components array field itself. */
#include "gstcclmeta.h"

/**
 * gst_ccl_component_copy:
 * @component: a #GstCclComponent
 *
 * Returns: (transfer full): a newly allocated copy of @component
 */
GstCclComponent *
gst_ccl_component_copy (const GstCclComponent * component)
{
  g_return_val_if_fail (component != NULL, NULL);
  return g_memdup2 (component, sizeof (GstCclComponent));
}

/**
 * gst_ccl_component_free:
 * @component: (transfer full): a #GstCclComponent from gst_ccl_component_copy()
 */
void
gst_ccl_component_free (GstCclComponent * component)
{
  g_free (component);
}

G_DEFINE_BOXED_TYPE (GstCclComponent, gst_ccl_component, gst_ccl_component_copy,
    gst_ccl_component_free)

/**
 * gst_ccl_meta_get_n_components:
 * @meta: a #GstCclMeta
 *
 * Returns: the number of reported components (entries of the components array)
 */
guint
gst_ccl_meta_get_n_components (const GstCclMeta * meta)
{
  g_return_val_if_fail (meta != NULL, 0);
  return meta->n_components;
}

/**
 * gst_ccl_meta_get_component:
 * @meta: a #GstCclMeta
 * @index: 0 .. gst_ccl_meta_get_n_components() - 1
 *
 * Returns: (transfer none) (nullable): the component at @index, or %NULL when @index is out of range
 */
const GstCclComponent *
gst_ccl_meta_get_component (const GstCclMeta * meta, guint index)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return index < meta->n_components ? &meta->components[index] : NULL;
}

/**
 * gst_ccl_meta_get_components:
 * @meta: a #GstCclMeta
 * @n: (out): the number of entries
 *
 * Returns: (transfer none) (array length=n) (nullable): the reported components, owned by @meta
 */
const GstCclComponent *
gst_ccl_meta_get_components (const GstCclMeta * meta, guint * n)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (n != NULL)
    *n = meta->n_components;
  return meta->components;
}
