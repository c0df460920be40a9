// Field names of the ROI params and of the "ccl" message entries, interned once: gst_structure_new()
// would look each name up in GLib's global quark table for every component.
#pragma once

#include <glib.h>

namespace ccl_outputs {

struct ComponentQuarks {
  GQuark roi_type = g_quark_from_static_string("connected-component");  // also the ROI param's name
  GQuark component = g_quark_from_static_string("component");
  GQuark label = g_quark_from_static_string("label");
  GQuark area = g_quark_from_static_string("area");
  GQuark x = g_quark_from_static_string("x");
  GQuark y = g_quark_from_static_string("y");
  GQuark width = g_quark_from_static_string("width");
  GQuark height = g_quark_from_static_string("height");
  GQuark centroid_x = g_quark_from_static_string("centroid-x");
  GQuark centroid_y = g_quark_from_static_string("centroid-y");
  GQuark track_id = g_quark_from_static_string("track-id");
};

inline const ComponentQuarks& quarks() {
  static const ComponentQuarks q;
  return q;
}

}  // namespace ccl_outputs
