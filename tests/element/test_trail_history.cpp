// CclTrails, ccloverlay's per-track centroid history, on hand-written sequences: order, the cap
// at the trail length, ids dropped after more than `length` frames unseen, clear, bounded size.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "ccl_trail.h"

namespace {

std::vector<std::pair<double, double>> xy(const CclTrails& t, std::uint32_t id) {
  std::vector<std::pair<double, double>> out;
  if (const auto* p = t.points(id))
    for (const CclTrailPoint& q : *p) out.emplace_back(q.x, q.y);
  return out;
}

using Points = std::vector<std::pair<double, double>>;

TEST(CclTrails, KeepsPointsInOrderCappedAtTheLength) {
  CclTrails t;
  t.begin_frame(3), t.add(7, 1, 10);
  EXPECT_EQ(xy(t, 7), (Points{{1, 10}}));
  t.begin_frame(3), t.add(7, 2, 20);
  t.begin_frame(3), t.add(7, 3, 30);
  EXPECT_EQ(xy(t, 7), (Points{{1, 10}, {2, 20}, {3, 30}}));
  t.begin_frame(3), t.add(7, 4, 40);
  EXPECT_EQ(xy(t, 7), (Points{{2, 20}, {3, 30}, {4, 40}})) << "the oldest point goes first";
  t.begin_frame(3), t.add(7, 5, 50);
  EXPECT_EQ(xy(t, 7), (Points{{3, 30}, {4, 40}, {5, 50}}));
}

TEST(CclTrails, IdsAreKeptApart) {
  CclTrails t;
  t.begin_frame(4), t.add(1, 0, 0), t.add(2, 100, 100);
  t.begin_frame(4), t.add(2, 101, 100), t.add(1, 1, 0);
  EXPECT_EQ(xy(t, 1), (Points{{0, 0}, {1, 0}}));
  EXPECT_EQ(xy(t, 2), (Points{{100, 100}, {101, 100}}));
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.points(3), nullptr);
}

TEST(CclTrails, UntrackedAndZeroLengthAreIgnored) {
  CclTrails t;
  t.begin_frame(4), t.add(0, 5, 5);
  EXPECT_EQ(t.size(), 0u) << "track id 0 = no track";
  EXPECT_EQ(t.points(0), nullptr);
  t.begin_frame(0), t.add(9, 5, 5);
  EXPECT_EQ(t.size(), 0u) << "length 0 = trails off";
}

TEST(CclTrails, IdsUnseenForMoreThanLengthFramesAreDropped) {
  CclTrails t;
  t.begin_frame(2), t.add(5, 1, 1);  // frame 1
  t.begin_frame(2);                  // frame 2: not in it
  t.begin_frame(2);                  // frame 3: not in it
  t.begin_frame(2);                  // frame 4: unseen in 2 frames = length, still kept
  EXPECT_EQ(xy(t, 5), (Points{{1, 1}}));
  t.begin_frame(2);  // frame 5: unseen in 3 frames (2, 3, 4) > length
  EXPECT_EQ(t.points(5), nullptr);
  EXPECT_EQ(t.size(), 0u);
}

TEST(CclTrails, AnIdSeenAgainInTimeContinues) {
  CclTrails t;
  t.begin_frame(2), t.add(5, 1, 1);
  t.begin_frame(2);
  t.begin_frame(2);
  t.begin_frame(2), t.add(5, 4, 4);
  EXPECT_EQ(xy(t, 5), (Points{{1, 1}, {4, 4}})) << "unseen in 2 frames = length: goes on";
}

TEST(CclTrails, AShorterLengthCutsHistories) {
  CclTrails t;
  for (int i = 0; i < 5; i++) t.begin_frame(5), t.add(1, i, 0);
  t.begin_frame(2);
  EXPECT_EQ(xy(t, 1), (Points{{3, 0}, {4, 0}}));
}

TEST(CclTrails, ClearForgetsEverything) {
  CclTrails t;
  t.begin_frame(4), t.add(1, 0, 0), t.add(2, 1, 1);
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.points(1), nullptr);
  t.begin_frame(4), t.add(1, 9, 9);
  EXPECT_EQ(xy(t, 1), (Points{{9, 9}})) << "no point from before the clear";
}

TEST(CclTrails, EverNewIdsDoNotGrowTheHistories) {
  CclTrails t;
  std::uint32_t next = 1;
  for (int frame = 0; frame < 10000; frame++) {
    t.begin_frame(4);
    for (int k = 0; k < 3; k++) t.add(next++, frame, k);
    // after begin_frame, the ids last seen in the 5 frames before remain (missing from at most
    // 4 since); with this frame's 3 new ones: at most 3 x 6 = 18
    ASSERT_LE(t.size(), 18u) << "frame " << frame;
  }
  EXPECT_EQ(t.size(), 18u);
}

}  // namespace
