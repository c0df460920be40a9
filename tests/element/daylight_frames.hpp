// Frames of cclblobsrc scene=daylight pulled through an appsink, with the true boxes of their
// GstCclTruthMeta, for the scene tests.
#pragma once

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ccl_truth_meta.h"
#include "element_check.hpp"
#include "frames.hpp"

namespace scene {

struct Shot {
  frames::Frame frame;  // plane 0, tightly packed
  guint64 number = 0;   // the meta's frame number
  bool has_truth = false;
  std::vector<GstCclTruthBox> boxes;
  int n_ccl_metas = 0;  // GstCclMetas on the buffer (a cudaccl downstream)
  ccl::Result ccl;      // the last one's result
  std::vector<guint32> track_ids;  // its components' track_id (a ccltracker downstream), in order
  // A ccltracker's GstCclTracksMeta, read by its documented layout (gst/tracker/ccl_tracks_meta.h).
  struct Located {
    guint32 id;
    gint32 component;
    float x, y, width, height;
    guint32 flags;
  };
  bool has_tracks = false;
  std::vector<Located> tracks;
};

// The "tracks" bytes of a GstCclTracksMeta: 28-byte records (guint32 id, gint32 component, 4 x
// gfloat box, guint32 flags), read field by field; false when absent or malformed.
inline bool read_tracks(GstBuffer* buffer, std::vector<Shot::Located>* out) {
  out->clear();
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, "GstCclTracksMeta");
  if (!meta) return false;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  const GValue* v = gst_structure_get_value(s, "tracks");
  if (!gst_structure_has_name(s, "ccl-tracks") || !v || !G_VALUE_HOLDS(v, G_TYPE_BYTES)) return false;
  gsize size = 0;
  const guint8* p = static_cast<const guint8*>(g_bytes_get_data(static_cast<GBytes*>(g_value_get_boxed(v)), &size));
  if (size % 28) return false;
  for (gsize at = 0; at < size; at += 28) {
    Shot::Located t;
    std::memcpy(&t.id, p + at, 4), std::memcpy(&t.component, p + at + 4, 4);
    std::memcpy(&t.x, p + at + 8, 4), std::memcpy(&t.y, p + at + 12, 4);
    std::memcpy(&t.width, p + at + 16, 4), std::memcpy(&t.height, p + at + 20, 4);
    std::memcpy(&t.flags, p + at + 24, 4);
    out->push_back(t);
  }
  return true;
}

// The first `n` frames of "cclblobsrc scene=daylight <extra>" at `w`x`h` in `format`, through
// `downstream` ("elem ! elem ! ", if any) before the appsink.
inline std::vector<Shot> pull(int n, int w, int h, const std::string& extra = "", const std::string& downstream = "",
                              const std::string& format = "GRAY8") {
  std::vector<Shot> shots;
  const std::string caps =
      "video/x-raw,format=" + format + ",width=" + std::to_string(w) + ",height=" + std::to_string(h);
  GstElement* p = elcheck::parse("cclblobsrc scene=daylight num-buffers=" + std::to_string(n) + " " + extra + " ! " +
                                 (format == "GRAY8" ? elcheck::gray_caps(w, h) : caps) + " ! " + downstream +
                                 "appsink name=sink sync=false");
  if (!p) return shots;
  GstElement* sink = gst_bin_get_by_name(GST_BIN(p), "sink");
  gst_element_set_state(p, GST_STATE_PLAYING);
  while (GstSample* sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) {
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    GstVideoInfo info;
    GstVideoFrame vf;
    Shot s;
    if (gst_video_info_from_caps(&info, gst_sample_get_caps(sample)) &&
        gst_video_frame_map(&vf, &info, buffer, GST_MAP_READ)) {
      s.frame = frames::blank("daylight frame " + std::to_string(shots.size()), w, h);
      for (int y = 0; y < h; ++y)
        std::memcpy(&s.frame.at(0, y),
                    static_cast<const guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&vf, 0)) +
                        std::size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, 0),
                    std::size_t(w));
      gst_video_frame_unmap(&vf);
    } else {
      ADD_FAILURE() << "cannot map frame " << shots.size();
    }
    s.has_truth = gst_ccl_truth_boxes(buffer, &s.boxes, &s.number);
    s.n_ccl_metas = int(gst_buffer_get_n_meta(buffer, GST_CCL_META_API_TYPE));
    if (const GstCclMeta* m = gst_buffer_get_ccl_meta(buffer)) {
      s.ccl = elcheck::from_meta(*m);
      for (guint i = 0; i < m->n_components; ++i) s.track_ids.push_back(m->components[i].track_id);
    }
    s.has_tracks = read_tracks(buffer, &s.tracks);
    shots.push_back(std::move(s));
    gst_sample_unref(sample);
  }
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(p);
  return shots;
}

// Objects big enough in view to be asked for: at least 8x8 of the box inside the frame (one that
// is entering shows a sliver of a few pixels first).
inline bool sizeable(const GstCclTruthBox& b) { return b.width >= 8 && b.height >= 8; }

inline bool inside(const GstCclTruthBox& b, int x, int y) {
  return x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
}

inline bool inside_any(const std::vector<GstCclTruthBox>& boxes, int x, int y) {
  for (const GstCclTruthBox& b : boxes)
    if (inside(b, x, y)) return true;
  return false;
}

inline bool overlaps(const GstCclTruthBox& b, int x, int y, int w, int h) {
  return x < b.x + b.width && b.x < x + w && y < b.y + b.height && b.y < y + h;
}

}  // namespace scene
