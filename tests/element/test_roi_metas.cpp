// RoiMetaWriter on its own: blank ROI metas attached before a frame's components are known (as the
// element does while the GPU labels the frame), then filled, extended or trimmed. Every count the
// guess can miss by (more, fewer, none, many), stale params reused across frames, an abandoned
// frame, and foreign metas left alone. Expected values are the random components themselves.
#include <gtest/gtest.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ccl_roi_metas.h"
#include "element_check.hpp"

namespace {

std::vector<ccl::Component> random_components(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> pos(0, 5000), size(1, 300);
  std::uniform_int_distribution<unsigned> area(1, 90000);
  std::uniform_real_distribution<double> centre(0, 5000);
  std::vector<ccl::Component> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {std::uint32_t(i + 1 + rng() % 7), area(rng), pos(rng), pos(rng), size(rng), size(rng), centre(rng),
            centre(rng)};
  return v;
}

// Empty when the buffer's "connected-component" ROI metas are exactly `want`, in order.
std::string check_rois(GstBuffer* buf, const std::vector<ccl::Component>& want) {
  ccl::Result got, expected;
  got.components = elcheck::roi_components(buf);
  expected.components = want;
  return compare::diff(got, expected);
}

// A foreign ROI meta (another type) and an unrelated meta that the writer must leave alone.
void add_foreign(GstBuffer* buf) {
  GstVideoRegionOfInterestMeta* face = gst_buffer_add_video_region_of_interest_meta(buf, "face", 1, 2, 3, 4);
  face->id = -2147483647 - 1;  // even the writer's own marker value on another roi_type
  gst_video_region_of_interest_meta_add_param(face, gst_structure_new("face", "score", G_TYPE_DOUBLE, 0.5, nullptr));
  gst_buffer_add_video_meta(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, 8, 8);
}

std::string check_foreign(GstBuffer* buf) {
  int faces = 0;
  for (GstVideoRegionOfInterestMeta* roi : elcheck::rois(buf))
    if (roi->roi_type == g_quark_from_string("face") && roi->x == 1 && roi->w == 3 &&
        gst_video_region_of_interest_meta_get_param(roi, "face"))
      ++faces;
  if (faces != 1) return std::to_string(faces) + " foreign ROI metas";
  if (!gst_buffer_get_video_meta(buf)) return "the video meta went";
  return "";
}

TEST(RoiMetaWriter, EveryGuessAgainstEveryCount) {
  elcheck::init();
  std::mt19937 rng(7);
  const std::pair<std::size_t, std::size_t> cases[] = {{0, 0},   {0, 5},    {5, 0},     {5, 5},     {5, 3},
                                                       {3, 5},   {1, 1},    {300, 1000}, {1000, 300}, {129, 128},
                                                       {128, 129}, {2000, 2000}};
  for (auto [guess, n] : cases) {
    ccl_gst::RoiMetaWriter writer;
    const std::vector<ccl::Component> comps = random_components(n, rng);
    GstBuffer* buf = gst_buffer_new();
    add_foreign(buf);
    writer.expect(guess);
    writer.attach_blanks(buf);
    writer.finish(buf, comps);
    EXPECT_EQ(check_rois(buf, comps), "") << "guess " << guess << ", " << n << " components";
    EXPECT_EQ(check_foreign(buf), "") << "guess " << guess << ", " << n << " components";
    gst_buffer_unref(buf);
  }
}

// One writer over a stream whose counts jump: params come back from the surplus and are reused with
// stale values; frames where the blanks are never attached (the CPU engine) take the other path.
TEST(RoiMetaWriter, StreamReusesParams) {
  elcheck::init();
  std::mt19937 rng(11);
  ccl_gst::RoiMetaWriter writer;
  std::size_t last = 0;
  for (std::size_t n : {10u, 500u, 3u, 0u, 0u, 700u, 699u, 1u, 2500u, 40u, 41u, 39u}) {
    for (bool blanks : {true, false}) {
      const std::vector<ccl::Component> comps = random_components(n, rng);
      GstBuffer* buf = gst_buffer_new();
      add_foreign(buf);
      writer.expect(last);
      if (blanks) writer.attach_blanks(buf);
      writer.finish(buf, comps);
      EXPECT_EQ(check_rois(buf, comps), "") << n << " components after " << last << (blanks ? "" : ", no blanks");
      EXPECT_EQ(check_foreign(buf), "");
      gst_buffer_unref(buf);
      last = n;
    }
  }
}

TEST(RoiMetaWriter, AbandonedFrameKeepsNoBlank) {
  elcheck::init();
  for (std::size_t guess : {0u, 1u, 300u}) {
    ccl_gst::RoiMetaWriter writer;
    GstBuffer* buf = gst_buffer_new();
    add_foreign(buf);
    writer.expect(guess);
    writer.attach_blanks(buf);
    writer.abandon(buf);
    EXPECT_EQ(check_rois(buf, {}), "") << "guess " << guess;
    EXPECT_EQ(check_foreign(buf), "");
    gst_buffer_unref(buf);
    // The writer goes on with the next frame as usual.
    std::mt19937 rng(3);
    const std::vector<ccl::Component> comps = random_components(guess + 2, rng);
    buf = gst_buffer_new();
    writer.expect(guess);
    writer.attach_blanks(buf);
    writer.finish(buf, comps);
    EXPECT_EQ(check_rois(buf, comps), "") << "after an abandoned frame, guess " << guess;
    gst_buffer_unref(buf);
  }
}

}  // namespace
