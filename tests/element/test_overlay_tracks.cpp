// ccloverlay behind a ccltracker: a hand-made GstCclTracksMeta (the records' documented layout) on
// a black GRAY8 frame whose GstCclMeta holds one merged component and one no track took. The boxes
// drawn are the tracks' own (their parts of the merged component) and the untaken component's;
// the merged component's outline between the parts stays black.
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "ccl/gstcclmeta.h"

namespace {

using Pixels = std::set<std::pair<int, int>>;

// The outline of a box one pixel wide: its first and last rows and columns.
Pixels outline(int x, int y, int w, int h) {
  Pixels p;
  for (int i = x; i < x + w; i++) p.insert({i, y}), p.insert({i, y + h - 1});
  for (int j = y; j < y + h; j++) p.insert({x, j}), p.insert({x + w - 1, j});
  return p;
}

// One record: guint32 id, gint32 component, 4 x gfloat box, guint32 flags (28 bytes).
void append_record(std::vector<guint8>* bytes, guint32 id, gint32 component, float x, float y, float w, float h,
                   guint32 flags) {
  const std::size_t at = bytes->size();
  bytes->resize(at + 28);
  guint8* p = bytes->data() + at;
  std::memcpy(p, &id, 4), std::memcpy(p + 4, &component, 4), std::memcpy(p + 8, &x, 4), std::memcpy(p + 12, &y, 4);
  std::memcpy(p + 16, &w, 4), std::memcpy(p + 20, &h, 4), std::memcpy(p + 24, &flags, 4);
}

// What ccloverlay lights on a black 64 x 32 GRAY8 frame whose GstCclMeta (of a meta_w x meta_h
// frame) holds `cs` and whose GstCclTracksMeta holds `records`.
Pixels drawn(guint meta_w, guint meta_h, const std::vector<GstCclComponent>& cs, const std::vector<guint8>& records) {
  gst_init(nullptr, nullptr);
  GstHarness* h = gst_harness_new_parse("ccloverlay draw-centroids=false draw-labels=false line-width=1");
  gst_harness_set_src_caps_str(h, "video/x-raw,format=GRAY8,framerate=30/1,width=64,height=32");
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_GRAY8, 64, 32);
  GstBuffer* b = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  gst_buffer_memset(b, 0, 0, info.size);
  gst_buffer_add_ccl_meta(b, meta_w, meta_h, 8, 2, FALSE, cs.data(), guint(cs.size()));
  GstCustomMeta* meta = gst_buffer_add_custom_meta(b, "GstCclTracksMeta");
  EXPECT_NE(meta, nullptr) << "the plugin did not register GstCclTracksMeta";
  Pixels lit;
  if (!meta) return lit;
  GBytes* g = g_bytes_new(records.data(), records.size());
  GstStructure* s = gst_custom_meta_get_structure(meta);
  gst_structure_set_name(s, "ccl-tracks");
  gst_structure_set(s, "tracks", G_TYPE_BYTES, g, nullptr);
  g_bytes_unref(g);

  EXPECT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
  GstBuffer* out = gst_harness_pull(h);
  EXPECT_NE(out, nullptr);
  GstVideoFrame frame;
  if (out && gst_video_frame_map(&frame, &info, out, GST_MAP_READ)) {
    const guint8* data = static_cast<const guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
    for (int y = 0; y < 32; y++)
      for (int x = 0; x < 64; x++)
        if (data[y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0) + x]) lit.insert({x, y});
    gst_video_frame_unmap(&frame);
  }
  if (out) gst_buffer_unref(out);
  gst_harness_teardown(h);
  return lit;
}

TEST(CclOverlay, DrawsTheTracksPartsOfAMergedComponent) {
  // Component 0: two touching objects, 40 x 10 at (10, 10); component 1: 5 x 5 at (55, 20), untracked.
  const std::vector<GstCclComponent> cs = {{1, 200, 10, 10, 40, 10, 29.5, 14.5, 7}, {2, 25, 55, 20, 5, 5, 57, 22, 0}};
  std::vector<guint8> bytes;
  append_record(&bytes, 7, 0, 10, 10, 10, 10, 1);  // took the component: its part
  append_record(&bytes, 9, 0, 40, 10, 10, 10, 3);  // hidden in it: its part
  const Pixels lit = drawn(64, 32, cs, bytes);

  Pixels want = outline(10, 10, 10, 10);
  for (const Pixels& p : {outline(40, 10, 10, 10), outline(55, 20, 5, 5)}) want.insert(p.begin(), p.end());
  EXPECT_EQ(lit, want);
  EXPECT_EQ(lit.count({30, 10}), 0u) << "the merged component's own outline was drawn";
}

// Metas made for a 32 x 16 frame (before a videoscale) on a 64 x 32 one: the tracks' boxes and the
// untaken component are drawn twice as large, where they are in this frame.
TEST(CclOverlay, DrawsTheTracksRescaledToTheFrame) {
  const std::vector<GstCclComponent> cs = {{1, 50, 5, 5, 20, 5, 14.5, 7, 7}, {2, 6, 27, 10, 3, 2, 28, 10.5, 0}};
  std::vector<guint8> bytes;
  append_record(&bytes, 7, 0, 5, 5, 5, 5, 1);
  append_record(&bytes, 9, 0, 20, 5, 5, 5, 3);
  const Pixels lit = drawn(32, 16, cs, bytes);

  Pixels want = outline(10, 10, 10, 10);
  for (const Pixels& p : {outline(40, 10, 10, 10), outline(54, 20, 6, 4)}) want.insert(p.begin(), p.end());
  EXPECT_EQ(lit, want);
}

}  // namespace
