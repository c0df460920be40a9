// The plugin's custom metas (gst_meta_register_custom, public since GStreamer 1.20: a GstStructure
// on the buffer under a registered name), registered once per process.
#pragma once

#include <gst/gst.h>

// Registers the tagless custom meta `name` unless it is already (another copy of the registering
// code, the plugin's or a test's, may run in the same process); `once` is the caller's static guard.
inline void ccl_custom_meta_register_once(gsize* once, const gchar* name) {
  if (g_once_init_enter(once)) {
    static const gchar* tags[] = {nullptr};  // no tags: pixel coordinates, kept only with the geometry
    if (!gst_meta_get_info(name)) gst_meta_register_custom(name, tags, nullptr, nullptr, nullptr);
    g_once_init_leave(once, 1);
  }
}
