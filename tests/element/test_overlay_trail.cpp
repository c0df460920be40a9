// ccloverlay trail=N in a GstHarness: black GRAY8 frames carrying a hand-made GstCclMeta whose
// tracked components move; the pixels expected lit are written out by hand (straight and diagonal
// segments between consecutive centroids), everything else must stay black.
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ccl/gstcclmeta.h"

namespace {

using Pixel = std::pair<int, int>;  // (x, y)
using Pixels = std::set<Pixel>;

// A component with its centroid at (cx, cy) and a 3x3 box around it.
struct Obj {
  guint32 track_id;
  int cx, cy;
};

class Overlay {
 public:
  explicit Overlay(const std::string& props, int width = 64, int height = 32) {
    static bool inited = (gst_init(nullptr, nullptr), true);
    (void)inited;
    h_ = gst_harness_new_parse(
        ("ccloverlay draw-boxes=false draw-centroids=false draw-labels=false " + props).c_str());
    set_size(width, height);
  }
  ~Overlay() { gst_harness_teardown(h_); }
  GstHarness* get() { return h_; }

  void set_size(int width, int height) {
    w_ = width, h_px_ = height;
    gst_harness_set_src_caps_str(h_, ("video/x-raw,format=GRAY8,framerate=30/1,width=" + std::to_string(width) +
                                      ",height=" + std::to_string(height))
                                         .c_str());
    gst_video_info_set_format(&info_, GST_VIDEO_FORMAT_GRAY8, guint(width), guint(height));
  }

  // Pushes a black frame with these components in its GstCclMeta (none: no meta at all) and
  // returns the set of pixels that came back nonzero.
  Pixels push(const std::vector<Obj>& objs, bool with_meta = true) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, info_.size, nullptr);
    gst_buffer_memset(b, 0, 0, info_.size);
    GST_BUFFER_PTS(b) = pts_++ * GST_SECOND / 30;
    std::vector<GstCclComponent> cs;
    for (std::size_t i = 0; i < objs.size(); i++) {
      const Obj& o = objs[i];
      cs.push_back({guint32(i + 1), 9, o.cx - 1, o.cy - 1, 3, 3, double(o.cx), double(o.cy), o.track_id});
    }
    if (with_meta)
      gst_buffer_add_ccl_meta(b, guint(w_), guint(h_px_), 8, guint(cs.size()), FALSE, cs.data(), guint(cs.size()));
    EXPECT_EQ(gst_harness_push(h_, b), GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(h_);
    Pixels lit;
    GstVideoFrame frame;
    if (out && gst_video_frame_map(&frame, &info_, out, GST_MAP_READ)) {
      const guint8* data = static_cast<const guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
      const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
      for (int y = 0; y < h_px_; y++)
        for (int x = 0; x < w_; x++)
          if (data[y * stride + x]) lit.insert({x, y});
      gst_video_frame_unmap(&frame);
    } else {
      ADD_FAILURE() << "no output frame";
    }
    if (out) gst_buffer_unref(out);
    return lit;
  }

  void flush() {
    gst_harness_push_event(h_, gst_event_new_flush_start());
    gst_harness_push_event(h_, gst_event_new_flush_stop(TRUE));
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    gst_harness_push_event(h_, gst_event_new_segment(&segment));
  }

 private:
  GstHarness* h_;
  GstVideoInfo info_;
  int w_ = 0, h_px_ = 0;
  guint64 pts_ = 0;
};

// Row y, columns x0..x1 inclusive.
Pixels row(int y, int x0, int x1) {
  Pixels p;
  for (int x = x0; x <= x1; x++) p.insert({x, y});
  return p;
}

Pixels operator+(Pixels a, const Pixels& b) {
  a.insert(b.begin(), b.end());
  return a;
}

TEST(CclOverlayTrail, JoinsTheCentroidsOfTheLastFrames) {
  Overlay o("trail=4");
  EXPECT_EQ(o.push({{3, 10, 10}}), Pixels{}) << "one centroid: nothing to join yet";
  EXPECT_EQ(o.push({{3, 20, 10}}), row(10, 10, 20));
  EXPECT_EQ(o.push({{3, 30, 10}}), row(10, 10, 30));
  EXPECT_EQ(o.push({{3, 40, 10}}), row(10, 10, 40));
  EXPECT_EQ(o.push({{3, 50, 10}}), row(10, 20, 50)) << "trail=4 keeps the last 4 centroids only";
}

TEST(CclOverlayTrail, DiagonalAndVerticalSegments) {
  Overlay o("trail=3");
  o.push({{1, 10, 5}});
  Pixels diagonal;
  for (int k = 0; k <= 10; k++) diagonal.insert({10 + k, 5 + k});
  EXPECT_EQ(o.push({{1, 20, 15}}), diagonal);
  Pixels vertical;
  for (int y = 15; y <= 25; y++) vertical.insert({20, y});
  EXPECT_EQ(o.push({{1, 20, 25}}), diagonal + vertical);
}

TEST(CclOverlayTrail, LineWidthThickensAcrossTheSegment) {
  Overlay o("trail=2 line-width=3");
  o.push({{1, 10, 10}});
  EXPECT_EQ(o.push({{1, 20, 10}}), row(9, 10, 20) + row(10, 10, 20) + row(11, 10, 20));
}

TEST(CclOverlayTrail, ClippedAtTheFrameEdge) {
  Overlay o("trail=2");
  o.push({{1, 50, 20}});
  EXPECT_EQ(o.push({{1, 80, 20}}), row(20, 50, 63)) << "the frame is 64 wide";
}

TEST(CclOverlayTrail, TrailZeroDrawsNothing) {
  Overlay o("trail=0");
  o.push({{3, 10, 10}});
  EXPECT_EQ(o.push({{3, 20, 10}}), Pixels{});
  EXPECT_EQ(o.push({{3, 30, 10}}), Pixels{});
}

TEST(CclOverlayTrail, UntrackedComponentsGetNone) {
  Overlay o("trail=4");
  o.push({{0, 10, 20}, {5, 10, 10}});
  o.push({{0, 20, 20}, {5, 20, 10}});
  EXPECT_EQ(o.push({{0, 30, 20}, {5, 30, 10}}), row(10, 10, 30)) << "only track 5 (row 10) has a trail";
  Overlay only_untracked("trail=4");
  only_untracked.push({{0, 10, 20}});
  EXPECT_EQ(only_untracked.push({{0, 20, 20}}), Pixels{});
}

TEST(CclOverlayTrail, TracksAreKeptApart) {
  Overlay o("trail=4");
  o.push({{1, 10, 5}, {2, 40, 25}});
  EXPECT_EQ(o.push({{2, 50, 25}, {1, 20, 5}}), row(5, 10, 20) + row(25, 40, 50));
}

TEST(CclOverlayTrail, FlushClearsTrails) {
  Overlay o("trail=4");
  o.push({{3, 10, 10}});
  EXPECT_EQ(o.push({{3, 20, 10}}), row(10, 10, 20));
  o.flush();
  EXPECT_EQ(o.push({{3, 30, 10}}), Pixels{}) << "the trail went on across the flush";
  EXPECT_EQ(o.push({{3, 40, 10}}), row(10, 30, 40));
}

// Caps that change only the framerate (a decoder re-sending its caps) keep the trails.
TEST(CclOverlayTrail, FramerateChangeKeepsTrails) {
  Overlay o("trail=4");
  o.push({{3, 10, 10}});
  EXPECT_EQ(o.push({{3, 20, 10}}), row(10, 10, 20));
  gst_harness_set_src_caps_str(o.get(), "video/x-raw,format=GRAY8,framerate=15/1,width=64,height=32");
  EXPECT_EQ(o.push({{3, 30, 10}}), row(10, 10, 30)) << "a framerate change cut the trail";
}

TEST(CclOverlayTrail, NewCapsClearTrails) {
  Overlay o("trail=4");
  o.push({{3, 10, 10}});
  EXPECT_EQ(o.push({{3, 20, 10}}), row(10, 10, 20));
  o.set_size(64, 48);
  EXPECT_EQ(o.push({{3, 30, 10}}), Pixels{}) << "the trail went on across new caps";
}

// Stop and start clear the trails (the new run's caps have the same size, which keeps them).
TEST(CclOverlayTrail, RestartStartsWithoutTrails) {
  Overlay o("trail=4");
  o.push({{3, 10, 10}});
  EXPECT_EQ(o.push({{3, 20, 10}}), row(10, 10, 20));
  GstElement* bin = o.get()->element;
  ASSERT_EQ(gst_element_set_state(bin, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  ASSERT_NE(gst_element_set_state(bin, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  o.set_size(64, 32);  // caps again, the same as before
  EXPECT_EQ(o.push({{3, 30, 10}}), Pixels{}) << "the trail went on across a stop";
}

TEST(CclOverlayTrail, IdsUnseenForLongerThanTheTrailAreForgotten) {
  Overlay o("trail=2");
  o.push({{4, 10, 10}});
  o.push({}, false);  // no meta at all: the frame still counts
  o.push({});
  EXPECT_EQ(o.push({{4, 20, 10}}), row(10, 10, 20)) << "unseen for 2 frames = trail: kept";
  o.push({});
  o.push({}, false);
  o.push({});
  EXPECT_EQ(o.push({{4, 30, 10}}), Pixels{}) << "unseen for 3 frames > trail: forgotten";
}

}  // namespace

namespace {

// Once a tracker gave ids in the stream, a component without one (a track not yet confirmed) gets
// no number, in frames without any confirmed track too, so no label number can be read as a track
// id; before that (no tracker), and again after a flush, every component shows its label.
TEST(CclOverlayNumbers, UntrackedComponentsGetNoNumberOnceTheStreamHasTrackIds) {
  Overlay o("draw-labels=true");
  auto left = [](const Pixels& p) { return std::count_if(p.begin(), p.end(), [](const Pixel& q) { return q.first < 30; }); };
  auto right = [](const Pixels& p) { return std::count_if(p.begin(), p.end(), [](const Pixel& q) { return q.first >= 30; }); };
  const Pixels before = o.push({{0, 10, 16}, {0, 40, 16}});
  EXPECT_GT(left(before), 0) << "without track ids the label is drawn";
  EXPECT_GT(right(before), 0);
  const Pixels tracked = o.push({{0, 10, 16}, {7, 40, 16}});
  EXPECT_EQ(left(tracked), 0) << "the tentative component got a number";
  EXPECT_GT(right(tracked), 0) << "the tracked component lost its number";
  EXPECT_EQ(o.push({{0, 10, 16}, {0, 40, 16}}), Pixels{}) << "a frame without confirmed tracks showed labels";
  o.flush();
  const Pixels after_flush = o.push({{0, 10, 16}, {0, 40, 16}});
  EXPECT_GT(left(after_flush), 0) << "a flush forgets that the stream had track ids";
}

}  // namespace
