// GstCclSceneMeta: the rules cclanalytics applied to a buffer and their counts after it, in frame
// pixels, for ccloverlay to draw (a custom meta, gst_meta_register_custom: public since 1.20). Its
// structure "ccl-scene" holds
//   lines: GstValueArray of "line" structures: name (string), from, to ([x, y] GstValueArray of
//          doubles), forward, backward (guint64);
//   zones: GstValueArray of "zone" structures: name (string), polygon (GstValueArray of [x, y]),
//          count (uint), overcrowded (boolean).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gst/gst.h>

#define GST_CCL_SCENE_META_NAME "GstCclSceneMeta"

struct CclScene {
  struct Line {
    std::string name;
    double x0, y0, x1, y1;
    std::uint64_t forward, backward;
  };
  struct Zone {
    std::string name;
    std::vector<double> polygon;  // x0, y0, x1, y1, ...
    unsigned count;
    bool overcrowded;
  };
  std::vector<Line> lines;
  std::vector<Zone> zones;
};

// Registers the meta (once; the plugin does it at load).
void gst_ccl_scene_meta_register();

void gst_ccl_scene_meta_add(GstBuffer* buffer, const CclScene& scene);

// False when the buffer has no GstCclSceneMeta; *out is cleared first.
bool gst_ccl_scene_meta_read(GstBuffer* buffer, CclScene* out);
