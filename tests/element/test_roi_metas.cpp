// The ROI metas of the outputs library on their own: one per component, in order, with the contract's
// param, for any count; a frame's metas replace an earlier cudaccl's; foreign metas are left alone.
// Expected values are the random components themselves.
#include <gtest/gtest.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ccl_outputs.h"
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

// A foreign ROI meta (another type) and an unrelated meta that the outputs must leave alone.
void add_foreign(GstBuffer* buf) {
  GstVideoRegionOfInterestMeta* face = gst_buffer_add_video_region_of_interest_meta(buf, "face", 1, 2, 3, 4);
  face->id = 1;  // a label's value on another roi_type
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

TEST(RoiMetas, OnePerComponentForEveryCount) {
  elcheck::init();
  std::mt19937 rng(7);
  for (std::size_t n : {0u, 1u, 3u, 5u, 128u, 129u, 300u, 1000u, 2000u}) {
    const std::vector<ccl::Component> comps = random_components(n, rng);
    GstBuffer* buf = gst_buffer_new();
    add_foreign(buf);
    gst_ccl_outputs_add_roi_metas(buf, comps);
    EXPECT_EQ(check_rois(buf, comps), "") << n << " components";
    EXPECT_EQ(check_foreign(buf), "") << n << " components";
    gst_buffer_unref(buf);
  }
}

// A buffer through cudaccl twice carries the second answer only, whatever the counts.
TEST(RoiMetas, EarlierAnswerReplaced) {
  elcheck::init();
  std::mt19937 rng(11);
  std::size_t last = 0;
  for (std::size_t n : {10u, 500u, 3u, 0u, 0u, 700u, 699u, 1u, 2500u, 40u}) {
    GstBuffer* buf = gst_buffer_new();
    add_foreign(buf);
    gst_ccl_outputs_add_roi_metas(buf, random_components(last, rng));
    const std::vector<ccl::Component> comps = random_components(n, rng);
    gst_ccl_outputs_remove(buf);
    gst_ccl_outputs_add_roi_metas(buf, comps);
    EXPECT_EQ(check_rois(buf, comps), "") << n << " components after " << last;
    EXPECT_EQ(check_foreign(buf), "");
    gst_buffer_unref(buf);
    last = n;
  }
}

}  // namespace
