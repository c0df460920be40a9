// Frames of cclblobsrc's hard scenes (gain-step ... noise) pulled through an appsink: luma and
// chroma, their full GstCclTruthMeta, and the components of a cudaccl downstream if any.
#pragma once

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ccl_truth_meta.h"
#include "element_check.hpp"

namespace hard {

struct Frame {
  int width = 0, height = 0, c_width = 0, c_height = 0;
  std::vector<guint8> y, u, v;  // tightly packed; u and v empty for GRAY8 or when pixels were not asked for
  guint64 number = 0;
  bool has_truth = false, has_lighting = false;
  std::vector<GstCclTruthBox> objects;
  std::vector<GstCclTruthRegion> shadows, clutter, ghosts;
  double gain = 1, offset = 0;
  gboolean grey = FALSE;
  bool has_ccl = false;
  std::vector<ccl::Component> components;

  int luma(int x, int yy) const { return y[std::size_t(yy) * width + x]; }
  int cu(int x, int yy) const { return u[std::size_t(yy) * c_width + x]; }
  int cv(int x, int yy) const { return v[std::size_t(yy) * c_width + x]; }
};

// Copies component `c` of `vf` (plane layout from GstVideoInfo: NV12's interleaved UV too).
inline std::vector<guint8> component(const GstVideoFrame& vf, int c) {
  const int w = GST_VIDEO_FRAME_COMP_WIDTH(&vf, c), h = GST_VIDEO_FRAME_COMP_HEIGHT(&vf, c);
  const int stride = GST_VIDEO_FRAME_COMP_STRIDE(&vf, c), step = GST_VIDEO_FRAME_COMP_PSTRIDE(&vf, c);
  const guint8* data = static_cast<const guint8*>(GST_VIDEO_FRAME_COMP_DATA(&vf, c));
  std::vector<guint8> out(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out[std::size_t(y) * w + x] = data[std::ptrdiff_t(y) * stride + x * step];
  return out;
}

// The first `n` frames of "cclblobsrc scene=<scene> <extra>" as `format` at `w`x`h`, through
// `downstream` ("elem ! ", if any); `pixels` false keeps only the truth and components.
inline std::vector<Frame> pull(const std::string& scene, int n, int w, int h, const char* format,
                               const std::string& extra = "", const std::string& downstream = "", bool pixels = true) {
  std::vector<Frame> frames;
  GstElement* p =
      elcheck::parse("cclblobsrc scene=" + scene + " num-buffers=" + std::to_string(n) + " " + extra + " ! " +
                     elcheck::caps_for(format, w, h) + " ! " + downstream + "appsink name=sink sync=false");
  if (!p) return frames;
  GstElement* sink = gst_bin_get_by_name(GST_BIN(p), "sink");
  gst_element_set_state(p, GST_STATE_PLAYING);
  while (GstSample* sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) {
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    Frame f;
    f.width = w, f.height = h;
    GstVideoInfo info;
    GstVideoFrame vf;
    if (pixels && gst_video_info_from_caps(&info, gst_sample_get_caps(sample)) &&
        gst_video_frame_map(&vf, &info, buffer, GST_MAP_READ)) {
      f.y = component(vf, 0);
      if (GST_VIDEO_INFO_N_COMPONENTS(&info) == 3) {
        f.c_width = GST_VIDEO_FRAME_COMP_WIDTH(&vf, 1), f.c_height = GST_VIDEO_FRAME_COMP_HEIGHT(&vf, 1);
        f.u = component(vf, 1), f.v = component(vf, 2);
      }
      gst_video_frame_unmap(&vf);
    } else if (pixels) {
      ADD_FAILURE() << "cannot map frame " << frames.size();
    }
    f.has_truth =
        gst_ccl_truth_boxes(buffer, &f.objects, &f.number) && gst_ccl_truth_regions(buffer, "shadows", &f.shadows) &&
        gst_ccl_truth_regions(buffer, "clutter", &f.clutter) && gst_ccl_truth_regions(buffer, "ghosts", &f.ghosts);
    f.has_lighting = gst_ccl_truth_lighting(buffer, &f.gain, &f.offset, &f.grey);
    if (const GstCclMeta* m = gst_buffer_get_ccl_meta(buffer)) {
      f.has_ccl = true;
      f.components = elcheck::from_meta(*m).components;
    }
    frames.push_back(std::move(f));
    gst_sample_unref(sample);
  }
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(p);
  return frames;
}

template <typename Box>
bool inside(const Box& b, int x, int y) {
  return x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
}

template <typename Box>
bool inside_any(const std::vector<Box>& boxes, int x, int y) {
  for (const Box& b : boxes)
    if (inside(b, x, y)) return true;
  return false;
}

}  // namespace hard
