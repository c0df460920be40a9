// The bench's MOT scorer (bench/tracking/mot_metrics.hpp) on hand-made cases whose scores are
// worked out by hand in the comments: MOT15 rules (flag-0 truth ignored, IoU 0.5, one Hungarian
// assignment per frame, last frame's matches kept), CLEAR-MOT, IDF1 and HOTA.
#include <gtest/gtest.h>

#include <vector>

#include "mot_metrics.hpp"

namespace {

using motmetrics::Row;
using motmetrics::Scores;

// A 10 x 10 box at (x, y).
Row box(int frame, long id, double x, double y = 0, double flag = 1) { return {frame, id, x, y, 10, 10, flag}; }

TEST(MotMetrics, PerfectTracksScoreOne) {
  std::vector<Row> truth, results;
  for (int f = 1; f <= 10; ++f) {
    truth.push_back(box(f, 1, 10 * f)), truth.push_back(box(f, 2, 300 - 10 * f, 100));
    results.push_back(box(f, 7, 10 * f)), results.push_back(box(f, 9, 300 - 10 * f, 100));
  }
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.gt, 20);
  EXPECT_EQ(s.tp, 20);
  EXPECT_EQ(s.fp, 0);
  EXPECT_EQ(s.fn, 0);
  EXPECT_EQ(s.id_switches, 0);
  EXPECT_DOUBLE_EQ(s.mota, 1.0);
  EXPECT_DOUBLE_EQ(s.motp, 1.0);
  EXPECT_DOUBLE_EQ(s.idf1, 1.0);
  EXPECT_NEAR(s.hota, 1.0, 1e-12);
}

// Truth rows with flag 0 are not scored: missing them is no FN; a result on one is an FP (MOT15
// has no distractor handling).
TEST(MotMetrics, FlagZeroTruthIsIgnored) {
  const std::vector<Row> truth = {box(1, 1, 0), box(1, 2, 100, 0, 0), box(2, 1, 0), box(2, 2, 100, 0, 0)};
  const std::vector<Row> results = {box(1, 5, 0), box(2, 5, 0), box(2, 6, 100)};
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.gt, 2);
  EXPECT_EQ(s.fn, 0);
  EXPECT_EQ(s.fp, 1);
  EXPECT_EQ(s.tp, 2);
  EXPECT_DOUBLE_EQ(s.mota, 0.5);  // (2 - 1 - 0) / 2
}

// IoU of boxes 10 wide shifted by d along x: (10 - d) / (10 + d). d = 2: 2/3 (a match); d = 4:
// 3/7 (below 0.5: an FP and an FN).
TEST(MotMetrics, MatchesNeedIouOneHalf) {
  const std::vector<Row> truth = {box(1, 1, 0), box(2, 1, 0)};
  const std::vector<Row> results = {box(1, 3, 2), box(2, 3, 4)};
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.tp, 1);
  EXPECT_EQ(s.fp, 1);
  EXPECT_EQ(s.fn, 1);
  EXPECT_NEAR(s.motp, 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(s.mota, 0.0);  // (1 - 1 - 0) / 2
}

// One object, track 1 for frames 1-5 and track 2 for 6-10: one switch, MOTA 1 - 1/10; IDF1: the
// object's best id covers 5 of 10 frames: IDTP 5, IDFP 5, IDFN 5, IDF1 5 / (5 + 2.5 + 2.5).
TEST(MotMetrics, IdSwitchAndIdf1) {
  std::vector<Row> truth, results;
  for (int f = 1; f <= 10; ++f) truth.push_back(box(f, 1, 5 * f)), results.push_back(box(f, f <= 5 ? 1 : 2, 5 * f));
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.id_switches, 1);
  EXPECT_DOUBLE_EQ(s.mota, 0.9);
  EXPECT_EQ(s.idtp, 5);
  EXPECT_EQ(s.idfp, 5);
  EXPECT_EQ(s.idfn, 5);
  EXPECT_DOUBLE_EQ(s.idf1, 0.5);
  EXPECT_EQ(s.frag, 0);
}

// Frame 1 matches object 1 to track 1 (IoU 2/3). Frame 2: track 1 still passes (IoU 2/3), track 2
// fits better (IoU 1): CLEAR-MOT keeps track 1 (no switch), track 2 is an FP.
TEST(MotMetrics, LastFramesMatchIsKept) {
  const std::vector<Row> truth = {box(1, 1, 0), box(2, 1, 0)};
  const std::vector<Row> results = {box(1, 1, 2), box(2, 1, 2), box(2, 2, 0)};
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.id_switches, 0);
  EXPECT_EQ(s.tp, 2);
  EXPECT_EQ(s.fp, 1);
}

// One frame, boxes along x (height 10 at y 0): G1 [0,10], G2 [4,14], T1 [1,11], T2 [-3,7].
// IoU G1-T1 9/11, G1-T2 7/13, G2-T1 7/13, G2-T2 3/17 (< 0.5). Greedy by IoU would take G1-T1 and
// leave G2 alone; the Hungarian assignment matches both (G1-T2, G2-T1).
TEST(MotMetrics, HungarianNotGreedyPerFrame) {
  const std::vector<Row> truth = {box(1, 1, 0), box(1, 2, 4)};
  const std::vector<Row> results = {box(1, 1, 1), box(1, 2, -3)};
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.tp, 2);
  EXPECT_EQ(s.fn, 0);
  EXPECT_EQ(s.fp, 0);
  EXPECT_NEAR(s.motp, 7.0 / 13, 1e-12);
}

// Tracked in frames 1-3 and 6-8 by the same id, missed in 4-5: one fragmentation, no switch.
TEST(MotMetrics, Fragmentation) {
  std::vector<Row> truth, results;
  for (int f = 1; f <= 8; ++f) {
    truth.push_back(box(f, 1, 0));
    if (f <= 3 || f >= 6) results.push_back(box(f, 4, 0));
  }
  const Scores s = motmetrics::score(truth, results);
  EXPECT_EQ(s.frag, 1);
  EXPECT_EQ(s.id_switches, 0);
  EXPECT_EQ(s.fn, 2);
}

// HOTA, exact boxes, the object's 4 frames split between two ids (2 + 2): DetA 1; each pair's
// association score is 2 / (4 + 2 - 2) = 1/2, so AssA 1/2 and HOTA sqrt(1/2) at every threshold.
TEST(MotMetrics, HotaOfASplitTrack) {
  std::vector<Row> truth, results;
  for (int f = 1; f <= 4; ++f) truth.push_back(box(f, 1, 0)), results.push_back(box(f, f <= 2 ? 1 : 2, 0));
  const Scores s = motmetrics::score(truth, results);
  EXPECT_NEAR(s.deta, 1.0, 1e-12);
  EXPECT_NEAR(s.assa, 0.5, 1e-12);
  EXPECT_NEAR(s.hota, 0.70710678118654752, 1e-12);
  EXPECT_NEAR(s.loca, 1.0, 1e-12);
}

// HOTA, one id on boxes off by IoU 2/3: a match at the thresholds 0.05 .. 0.65 (13 of 19), none
// above, so DetA = AssA = HOTA = 13/19. LocA is 2/3 where there are matches and 1 where there are
// none (TrackEval's 1e-10 / 1e-10): (13 x 2/3 + 6) / 19 = 44/57.
TEST(MotMetrics, HotaAveragesOverThresholds) {
  std::vector<Row> truth, results;
  for (int f = 1; f <= 5; ++f) truth.push_back(box(f, 1, 0)), results.push_back(box(f, 3, 2));
  const Scores s = motmetrics::score(truth, results);
  EXPECT_NEAR(s.hota, 13.0 / 19, 1e-12);
  EXPECT_NEAR(s.deta, 13.0 / 19, 1e-12);
  EXPECT_NEAR(s.assa, 13.0 / 19, 1e-12);
  EXPECT_NEAR(s.loca, 44.0 / 57, 1e-12);
}

// The assignment itself: least total cost, rectangular both ways.
TEST(MotMetrics, MinCostAssignment) {
  // 2 x 3: row 0 -> col 2 (1), row 1 -> col 0 (2): total 3 (the other pairings cost >= 4).
  EXPECT_EQ(motmetrics::min_cost_assignment({4, 5, 1, 2, 7, 3}, 2, 3), (std::vector<int>{2, 0}));
  // 3 x 2: the rows 1 and 2 take the columns (1 + 1), row 0 none.
  EXPECT_EQ(motmetrics::min_cost_assignment({5, 5, 1, 9, 9, 1}, 3, 2), (std::vector<int>{-1, 0, 1}));
}

}  // namespace
