// bench/quality/scores.hpp on hand-made cases: every expected count, rate and match below was
// worked out by hand in the comments, not by the scorer.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "scores.hpp"

namespace {

using quality::Box;

// 4x3, row by row. Per pixel (truth, detection): (0,0) 0/255 FP; (1,0) 255/255 TP; (2,0) 255/0 FN;
// (3,0) 170 ignored; (0,1) shadow 50/255 FP (shadow is background); (1,1) 255/255 TP; (2,1) 85
// outside, ignored; (3,1) 0/0 TN; (0,2) 0/0 TN; (1,2) 0/127 TN (127 is not a detection); (2,2)
// 255/0 FN; (3,2) ROI 0, ignored. TP 2, FP 2, FN 2, TN 3.
const std::vector<std::uint8_t> kTruth = {0, 255, 255, 170, 50, 255, 85, 0, 0, 0, 255, 0};
const std::vector<std::uint8_t> kDetection = {255, 255, 0, 255, 255, 255, 255, 0, 0, 127, 0, 0};
const std::vector<std::uint8_t> kRoi = {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0};

TEST(QualityScores, PixelCountsOfOneFrameByHand) {
  quality::PixelCounts c;
  c.add(kDetection.data(), kTruth.data(), kRoi.data(), kTruth.size());
  EXPECT_EQ(c.tp, 2u);
  EXPECT_EQ(c.fp, 2u);
  EXPECT_EQ(c.fn, 2u);
  EXPECT_EQ(c.tn, 3u);
  EXPECT_DOUBLE_EQ(c.recall(), 0.5);     // 2 / (2 + 2)
  EXPECT_DOUBLE_EQ(c.precision(), 0.5);  // 2 / (2 + 2)
  EXPECT_DOUBLE_EQ(c.f_measure(), 0.5);
  EXPECT_DOUBLE_EQ(c.pwc(), 400.0 / 9);  // 100 * (2 + 2) / 9
}

// A second frame, all motion and all detected: the 11 pixels inside the ROI are TP. Sums: TP 13,
// FP 2, FN 2, TN 3: recall = precision = F = 13/15, PWC = 100 * 4 / 20 = 20.
TEST(QualityScores, PixelCountsAddUpOverFrames) {
  quality::PixelCounts c;
  c.add(kDetection.data(), kTruth.data(), kRoi.data(), kTruth.size());
  const std::vector<std::uint8_t> all(12, 255);
  c.add(all.data(), all.data(), kRoi.data(), all.size());
  EXPECT_EQ(c.tp, 13u);
  EXPECT_EQ(c.fp, 2u);
  EXPECT_EQ(c.fn, 2u);
  EXPECT_EQ(c.tn, 3u);
  EXPECT_DOUBLE_EQ(c.recall(), 13.0 / 15);
  EXPECT_DOUBLE_EQ(c.precision(), 13.0 / 15);
  EXPECT_DOUBLE_EQ(c.f_measure(), 13.0 / 15);
  EXPECT_DOUBLE_EQ(c.pwc(), 20.0);
}

TEST(QualityScores, NothingToCountIsZeroNotNan) {
  quality::PixelCounts c;
  EXPECT_EQ(c.f_measure(), 0.0);
  EXPECT_EQ(c.pwc(), 0.0);
  quality::ObjectCounts o;
  EXPECT_EQ(o.f1(), 0.0);
}

// 6x4 ('#' = 255):  ##...#   (0,0),(1,0) and (2,1) touch at a corner: one component, box x 0..2,
//                   ..#..#   y 0..1, 3 px; (5,0),(5,1): box x 5, y 0..1, 2 px; (0,3): 1 px.
//                   ......   With 4-connectivity (2,1) would be a component of its own.
//                   #.....
TEST(QualityScores, EightConnectedComponentsByHand) {
  const std::vector<std::uint8_t> m = {255, 255, 0,   0, 0, 255,  //
                                       0,   0,   255, 0, 0, 255,  //
                                       0,   0,   0,   0, 0, 0,    //
                                       255, 0,   0,   0, 0, 0};
  const std::vector<Box> all = quality::components_of(m.data(), 6, 4, 255, 1);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], (Box{0, 0, 3, 2}));
  EXPECT_EQ(all[1], (Box{5, 0, 1, 2}));
  EXPECT_EQ(all[2], (Box{0, 3, 1, 1}));
  const std::vector<Box> two_or_more = quality::components_of(m.data(), 6, 4, 255, 2);
  ASSERT_EQ(two_or_more.size(), 2u);
  EXPECT_EQ(two_or_more[1], (Box{5, 0, 1, 2}));
}

// Truth objects need 50 motion (255) pixels: a 7x7 block (49) is none, a 10x5 one (50) is one;
// unknown (170) and shadow (50) pixels next to it are not part of it.
TEST(QualityScores, TruthObjectsNeedFiftyMotionPixels) {
  std::vector<std::uint8_t> t(12 * 8, 0);
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 7; ++x) t[std::size_t(y) * 12 + x] = 255;
  for (int y = 0; y < 8; ++y) t[std::size_t(y) * 12 + 7] = 170;
  EXPECT_TRUE(quality::truth_objects(t.data(), 12, 8).empty());
  std::vector<std::uint8_t> u(12 * 8, 50);
  for (int y = 1; y < 6; ++y)
    for (int x = 2; x < 12; ++x) u[std::size_t(y) * 12 + x] = 255;
  const std::vector<Box> one = quality::truth_objects(u.data(), 12, 8);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], (Box{2, 1, 10, 5}));
}

TEST(QualityScores, IouByHand) {
  const Box a{0, 0, 10, 10};
  EXPECT_DOUBLE_EQ(quality::iou(a, Box{5, 0, 10, 10}), 1.0 / 3);  // 50 / (100 + 100 - 50)
  EXPECT_DOUBLE_EQ(quality::iou(a, Box{0, 0, 10, 5}), 0.5);       // 50 / (100 + 50 - 50)
  EXPECT_DOUBLE_EQ(quality::iou(a, Box{1, 0, 10, 10}), 90.0 / 110);
  EXPECT_DOUBLE_EQ(quality::iou(a, Box{10, 0, 10, 10}), 0.0);  // they only touch
  EXPECT_DOUBLE_EQ(quality::iou(a, a), 1.0);
}

// Truth T0 = (0,0,10,10), T1 = (20,0,10,10). Reported R0 = (0,0,10,5) (IoU 0.5 with T0: a match
// by itself), R1 = (1,0,10,10) (IoU 90/110 with T0), R2 = T1 (IoU 1), R3 far away. Best first:
// R2-T1 (1.0), R1-T0 (0.82); R0-T0 (0.5) comes last and T0 is taken. A matcher that went in
// reported order would pair R0 with T0 and leave R1 unmatched: the same counts, other pairs, so the
// pairs are checked. TP 2, FP 2 (R0, R3), FN 0.
TEST(QualityScores, GreedyBestFirstOneToOneMatchingByHand) {
  quality::ObjectCounts c;
  const std::vector<Box> truth = {{0, 0, 10, 10}, {20, 0, 10, 10}};
  const std::vector<Box> reported = {{0, 0, 10, 5}, {1, 0, 10, 10}, {20, 0, 10, 10}, {50, 50, 4, 4}};
  const auto pairs = c.add(truth, reported);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], (std::pair<std::size_t, std::size_t>{1, 2}));
  EXPECT_EQ(pairs[1], (std::pair<std::size_t, std::size_t>{0, 1}));
  EXPECT_EQ(c.tp, 2u);
  EXPECT_EQ(c.fp, 2u);
  EXPECT_EQ(c.fn, 0u);
  EXPECT_DOUBLE_EQ(c.recall(), 1.0);
  EXPECT_DOUBLE_EQ(c.precision(), 0.5);
  EXPECT_DOUBLE_EQ(c.f1(), 2.0 / 3);

  // A second frame: one truth object, nothing reported: FN 1. Sums TP 2, FP 2, FN 1:
  // recall 2/3, precision 1/2, F1 = 2 (2/3)(1/2) / (2/3 + 1/2) = 4/7.
  EXPECT_TRUE(c.add({{0, 0, 4, 4}}, {}).empty());
  EXPECT_EQ(c.fn, 1u);
  EXPECT_DOUBLE_EQ(c.recall(), 2.0 / 3);
  EXPECT_DOUBLE_EQ(c.f1(), 4.0 / 7);
}

// Two identical reports of one object: one matches, the other is a false positive; IoU just under
// 0.5 is no match: (0,0,10,10) against (0,0,10,4) is 40/100.
TEST(QualityScores, OneToOneAndTheIouThreshold) {
  quality::ObjectCounts c;
  c.add({{0, 0, 10, 10}}, {{0, 0, 10, 10}, {0, 0, 10, 10}});
  EXPECT_EQ(c.tp, 1u);
  EXPECT_EQ(c.fp, 1u);
  quality::ObjectCounts d;
  d.add({{0, 0, 10, 10}}, {{0, 0, 10, 4}});
  EXPECT_EQ(d.tp, 0u);
  EXPECT_EQ(d.fp, 1u);
  EXPECT_EQ(d.fn, 1u);
}

}  // namespace
