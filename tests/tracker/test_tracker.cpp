// The tracker core on synthetic sequences, scored by the CLEAR-MOT scorer of mot_score.hpp, and its
// two building blocks (candidate grid, greedy assignment) against brute force.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>
#include <random>
#include <set>

#include "mot_score.hpp"
#include "synthetic_scenes.hpp"
#include "tracker/tracker.hpp"

namespace {

using ccl::track::Box;
using ccl::track::Detection;
using ccl::track::Tracker;
using synth::Mover;

// A component filling box b (its centroid at the box's centre).
Detection detection(Box b) {
  Detection d;
  d.box = b, d.area = std::uint32_t(b.width * b.height);
  d.centroid_x = b.center_x(), d.centroid_y = b.center_y();
  return d;
}

constexpr float kW = 640, kH = 480;

// Rows of objects, one speed per row (lanes 24 px apart, objects <= 20 px): objects never touch, and
// over 100 frames (at most 1.5 px a frame) they stay in view.
std::vector<Mover> lanes(int rows, int per_row, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> speed(0.5f, 1.5f), size(8, 20);
  std::vector<Mover> movers;
  std::uint32_t id = 1;
  for (int r = 0; r < rows; ++r) {
    const float v = speed(rng) * (r % 2 ? -1.0f : 1.0f);
    for (int k = 0; k < per_row; ++k) {
      const float side = size(rng);
      movers.push_back(Mover{id++, 150.0f + k * 40.0f, 4.0f + r * 24.0f, side, side, v, 0});
    }
  }
  return movers;
}

TEST(Tracker, ObjectsThatNeverTouchKeepOneIdEach) {
  const std::vector<Mover> movers = lanes(12, 8, 7);
  constexpr int kFrames = 100;
  // Check the scene: no two objects ever touch, every object stays in view.
  for (int i = 0; i < kFrames; ++i) {
    const synth::Frame f = synth::render(movers, i, kW, kH);
    ASSERT_EQ(f.detections.size(), movers.size()) << "frame " << i << ": objects touch or left";
  }
  Tracker tracker;
  mot::Scorer scorer;
  const mot::Score s = synth::run(tracker, movers, kFrames, kW, kH, &scorer);
  std::printf("never touching: %zu objects, %d frames: MOTA %.4f, FN %ld, FP %ld, id switches %ld\n", movers.size(),
              kFrames, s.mota(), s.fn, s.fp, s.id_switches);
  EXPECT_EQ(s.id_switches, 0);
  EXPECT_EQ(s.fp, 0);
  // Only the first min_hits - 1 frames go unreported.
  EXPECT_EQ(s.fn, long(movers.size()) * (tracker.options().min_hits - 1));
  std::set<std::uint32_t> all;
  for (const auto& [gt, ids] : scorer.tracks_of()) {
    EXPECT_EQ(ids.size(), 1u) << "object " << gt << " had several track ids";
    all.insert(ids.begin(), ids.end());
  }
  EXPECT_EQ(all.size(), movers.size()) << "two objects shared a track id";
}

TEST(Tracker, TentativeUntilMinHitsThenReported) {
  ccl::track::Options o;
  o.min_hits = 3;
  Tracker tracker(o);
  const std::vector<Mover> one = {{1, 100, 100, 10, 10, 2, 0}};
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 4; ++i) {
    const synth::Frame f = synth::render(one, i, kW, kH);
    ids.assign(1, 99);
    tracker.update(f.detections.data(), 1, i, ids.data());
    EXPECT_EQ(ids[0] == 0, i < 2) << "frame " << i << " id " << ids[0];
    EXPECT_EQ(tracker.events().size(), i == 2 ? 1u : 0u) << "frame " << i;
  }
  EXPECT_EQ(ids[0], 1u);
}

// A piece of an object the foreground cut out (a texture cell: its box inside the object's
// component's box) is not confirmed while it lies inside a tracked object's box; the same box beside
// the object is (after min_hits frames).
TEST(Tracker, PieceInsideATrackedObjectIsNotConfirmed) {
  auto run = [](float piece_x) {
    Tracker tracker;
    std::vector<std::uint32_t> ids;
    std::set<std::uint32_t> piece_ids;
    for (int i = 0; i < 12; ++i) {
      const float x = 100 + 2.0f * i;
      std::vector<ccl::track::Detection> d(1);
      d[0].box = {x, 100, 50, 40};
      if (i >= 4) {  // the piece from frame 4 on, once the object's track is confirmed
        ccl::track::Detection piece;
        piece.box = {x + piece_x, 115, 9, 9};
        d.push_back(piece);
      }
      for (auto& e : d) e.centroid_x = e.box.center_x(), e.centroid_y = e.box.center_y();
      ids.assign(d.size(), 99);
      tracker.update(d.data(), d.size(), i, ids.data());
      EXPECT_EQ(ids[0], i >= 2 ? 1u : 0u) << "frame " << i;
      if (d.size() > 1) piece_ids.insert(ids[1]);
    }
    return piece_ids;
  };
  EXPECT_EQ(run(20), std::set<std::uint32_t>({0u})) << "inside the object's box: never confirmed";
  // A cell at the object's edge sticks out of its box: 5 of its 9 columns inside (before, only a
  // piece 90 % inside was held back: this one was confirmed, then hidden in its object's blob).
  EXPECT_EQ(run(45), std::set<std::uint32_t>({0u})) << "half inside the object's box: never confirmed";
  EXPECT_EQ(run(70), std::set<std::uint32_t>({0u, 2u})) << "beside it: confirmed after min_hits frames";
}

// The piece check reads which tracks were established when the frame began, not tracks_ while
// the lifecycle moves tracks down. L (seen in frames 0-2, max_misses 1) ends in frame 4, the
// frame the piece inside B reaches min_hits: B's track then sits one place lower, and the
// piece's own tentative track where B's was. (Before, the piece was confirmed there, as id 3.)
TEST(Tracker, PieceStaysUnconfirmedWhileAnEarlierTrackEnds) {
  ccl::track::Options o;
  o.max_misses = 1;
  Tracker tracker(o);
  for (int i = 0; i <= 6; ++i) {
    std::vector<Detection> d;
    if (i <= 2) d.push_back(detection({500, 500, 20, 20}));  // L
    d.push_back(detection({100, 100, 40, 40}));               // B, still
    if (i >= 2) d.push_back(detection({110, 110, 6, 6}));     // the piece, inside B
    std::vector<std::uint32_t> ids(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i >= 2) EXPECT_EQ(ids.back(), 0u) << "frame " << i << ": the piece inside B was confirmed";
    if (i >= 3) EXPECT_EQ(ids[d.size() - 2], 2u) << "frame " << i << ": B's id";
  }
}

// A lost track does not take a piece of an object far smaller than itself. Object A (20 x 20, 3 px
// a frame to the right) is seen in frames 0-9, missed in 10-11, and in 12-13 only a 6 x 6 piece
// (36 px: under 0.2 x A's 400) shows where A's prediction is, within its gate; from frame 14 on A
// is seen whole again. The piece is not A (a new track, id 0 while tentative); A keeps id 1 and is
// found again whole. (Before, A's lost track took the piece, its box collapsed to the piece's, and
// a shrunken track lingered where an object was.)
TEST(Tracker, LostTrackDoesNotTakeAPieceFarSmallerThanItself) {
  Tracker tracker;
  std::vector<std::uint32_t> ids;
  for (int i = 0; i <= 17; ++i) {
    const float x = 100 + 3.0f * i;
    std::vector<Detection> d;
    if (i < 10 || i >= 14) d.push_back(detection({x, 100, 20, 20}));
    if (i == 12 || i == 13) d.push_back(detection({x + 7, 107, 6, 6}));  // at A's centre
    ids.assign(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i == 12 || i == 13) {
      EXPECT_EQ(ids[0], 0u) << "frame " << i << ": the piece took A's id";
      ASSERT_FALSE(tracker.tracks().empty());
      EXPECT_EQ(tracker.tracks()[0].state, ccl::track::TrackState::Lost) << "frame " << i;
    }
    if (i >= 14) EXPECT_EQ(ids[0], 1u) << "frame " << i << ": A whole again";
  }
  ASSERT_FALSE(tracker.tracks().empty());
  EXPECT_EQ(tracker.tracks()[0].id, 1u);
  EXPECT_NEAR(tracker.tracks()[0].box.width, 20.0f, 0.01f);
}

// Frame i of object A (side x side, its top at y = 100, its left edge at 50 + 3 i: 3 px a frame to
// the right) and the static object B: A seen whole in frames 0-9, with its left side cut away 3 px
// more each frame in 10-13, touching B from frame 14 on (one component: the union of the two boxes).
std::vector<Detection> cut_then_touching(int i, float side, const Box& b) {
  const float x = 50 + 3.0f * i;  // A's true left edge
  std::vector<Detection> d(2);
  d[1].box = b;
  if (i < 10) {
    d[0].box = {x, 100, side, side};
  } else if (i < 14) {
    d[0].box = {x + 3.0f * (i - 9), 100, side - 3.0f * (i - 9), side};  // its left side cut away
  } else {
    const float left = std::min(x, b.x), top = std::min(100.0f, b.y);
    d[0].box = {left, top, std::max(x + side, b.x + b.width) - left, std::max(100 + side, b.y + b.height) - top};
    d.pop_back();
  }
  for (Detection& e : d) e.centroid_x = e.box.center_x(), e.centroid_y = e.box.center_y();
  return d;
}

// A track going into a merged blob coasts on its steady velocity: object A (20 x 20, 3 px a frame
// to the right) is seen whole for 10 frames, then 4 frames with its left side cut away (its box's
// centre speeding up to 4.5 px a frame), then it goes behind the static object B (one component).
// Its Kalman velocity followed the cut box; the hidden track moves at A's speed all the same (from
// where the filter put it: only its velocity is taken from the whole views).
TEST(Tracker, HiddenTrackCoastsOnItsSteadyVelocity) {
  Tracker tracker;
  const ccl::track::Box b{112, 90, 60, 40};
  std::vector<std::uint32_t> ids;
  float hidden_at = 0;  // A's estimated centre in its first hidden frame
  for (int i = 0; i <= 24; ++i) {
    std::vector<Detection> d = cut_then_touching(i, 20, b);
    ids.assign(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i < 14) continue;
    const ccl::track::Track* a = nullptr;
    for (const auto& t : tracker.tracks())
      if (t.id == 1) a = &t;
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(a->hidden) << "frame " << i;
    EXPECT_NEAR(a->velocity_x(), 3.0f, 0.01f) << "frame " << i;
    if (i == 14) hidden_at = a->estimate().center_x();
    if (i == 24) EXPECT_NEAR(a->estimate().center_x() - hidden_at, 30.0f, 0.1f) << "10 frames hidden at 3 px a frame";
  }
}

// A hidden track stays hidden while its prediction's centre lies in the blob, however much of its
// box has drifted out: no measurement corrects its velocity while hidden. A (20 x 20, 3 px a frame
// to the right) touches the static B (60 x 40) at frame 10, one component with it, and stops
// inside it at frame 21 (the blob is B's box from then on); A's track coasts on at 3 px a frame. In frame 37 less than hidden_share (0.6) of its box
// lies in B, but its centre does (170.7 < 172, B's right edge): still hidden (before, lost there);
// in frame 38 its centre has left B: lost.
TEST(Tracker, HiddenTrackStaysHiddenWhileItsCentreIsInTheBlob) {
  Tracker tracker;
  const ccl::track::Box b{112, 90, 60, 40};
  std::vector<std::uint32_t> ids;
  for (int i = 0; i <= 38; ++i) {
    std::vector<ccl::track::Detection> d(2);
    d[1].box = b;
    if (i < 10)
      d[0].box = {50 + 3.0f * i, 100, 20, 20};
    else  // touching B, one component (the union of the two), until A stops inside B
      d[0].box = {std::min(50 + 3.0f * i, b.x), b.y, b.x + b.width - std::min(50 + 3.0f * i, b.x), b.height}, d.pop_back();
    for (auto& e : d) e.centroid_x = e.box.center_x(), e.centroid_y = e.box.center_y();
    ids.assign(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i < 10) continue;
    const ccl::track::Track* a = nullptr;
    for (const auto& t : tracker.tracks())
      if (t.id == 1) a = &t;
    ASSERT_NE(a, nullptr) << "frame " << i;
    const ccl::track::Box e = a->estimate();
    if (i == 37) {
      EXPECT_LT(ccl::track::intersection(e, b), 0.6f * ccl::track::area_of(e)) << "mostly out of B";
    }
    EXPECT_EQ(a->hidden, i < 38) << "frame " << i << ", A's centre at x = " << e.center_x();
  }
}

// A track whose prediction lies inside a detection the overlap pass gave another track is hidden
// in that merged blob, not offered to the gate: A (20 x 20) touches the larger B (40 x 40), B's
// track takes the blob by overlap (A's prediction overlaps it too little to compete), and a small
// newcomer C appears next to A, within A's gate. Before, A's track took C (A's id moved to
// another object).
TEST(Tracker, TrackInsideABlobTakenByOverlapIsNotOfferedToTheGate) {
  Tracker tracker;
  const ccl::track::Box a{100, 100, 20, 20}, b{125, 90, 40, 40}, c{88, 102, 10, 10};
  std::vector<std::uint32_t> ids;
  for (int i = 0; i <= 10; ++i) {
    std::vector<ccl::track::Detection> d;
    if (i < 10) {
      d = {detection(a), detection(b)};
    } else {
      const ccl::track::Box blob{a.x, b.y, b.x + b.width - a.x, b.height};  // A and B touching
      d = {detection(blob), detection(c)};
    }
    ids.assign(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i == 8) ASSERT_EQ(ids, (std::vector<std::uint32_t>{1, 2}));
  }
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{2, 0})) << "B's track has the blob, C has no id yet";
  for (const auto& t : tracker.tracks())
    if (t.id == 1) EXPECT_TRUE(t.hidden) << "A's track is hidden in the blob";
}

// The track that takes a merged blob is measured at its part, its own prediction: entering the merge
// it takes its steady velocity too, and keeps its size. A (40 x 40, 3 px a frame to the right) is
// seen whole for 10 frames, then 4 frames with its left side cut away, then touches the static B
// (20 x 20, hidden in the blob from then on).
TEST(Tracker, TrackTakingAMergedBlobCoastsOnItsSteadyVelocity) {
  Tracker tracker;
  const ccl::track::Box b{132, 110, 20, 20};
  std::vector<std::uint32_t> ids;
  for (int i = 0; i <= 20; ++i) {
    std::vector<Detection> d = cut_then_touching(i, 40, b);
    ids.assign(d.size(), 99);
    tracker.update(d.data(), d.size(), i, ids.data());
    if (i < 14) continue;
    ASSERT_EQ(tracker.tracks().size(), 2u) << "frame " << i;
    const ccl::track::Track& a = tracker.tracks()[0];
    EXPECT_EQ(a.id, 1u);
    EXPECT_TRUE(a.grouped) << "frame " << i;
    EXPECT_TRUE(tracker.tracks()[1].hidden) << "frame " << i;
    // 3 from the whole views; the first update at its part (its prediction moved into the blob)
    // adds 0.15. On the Kalman velocity of the cut boxes it would be 3.5 and more.
    EXPECT_NEAR(a.velocity_x(), 3.0f, 0.2f) << "frame " << i;
    // Its size does not shrink on: measured at its part, no smaller than 0.9 x its usual size (the
    // trail's median: 40 x 40), it does not learn its prediction's shrinking anew.
    EXPECT_GE(a.filter.vw, 0.0f) << "frame " << i;
    EXPECT_GE(a.shown.width, 0.9f * 40 - 0.01f) << "frame " << i;
  }
}

// first_times(): per detection, the time its track was first seen; a detection that starts a track
// gives its own time.
TEST(Tracker, FirstTimesAreTheTracksFirstDetections) {
  Tracker tracker;
  std::vector<Mover> movers = {{1, 100, 100, 10, 10, 2, 0}};
  for (int i = 0; i < 6; ++i) {
    if (i == 3) movers.push_back({2, 400, 300, 10, 10, -2, 0});  // a second object from time 30 on
    const synth::Frame f = synth::render(movers, i, kW, kH);
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), 10 * i, ids.data());
    ASSERT_EQ(tracker.first_times().size(), f.detections.size());
    for (std::size_t j = 0; j < f.detections.size(); ++j) {
      const std::int64_t want = f.detections[j].centroid_x < 250 ? 0 : 30;
      EXPECT_EQ(tracker.first_times()[j], want) << "frame " << i << " detection " << j;
    }
  }
}

// Two objects meet, merge into one component for some frames and part again. The track that lost
// the component coasts, hidden in it, and takes its part back: no switch, even merged longer than
// max_misses frames (before hidden tracks outlived max_misses, the slow overtaking switched once).
TEST(Tracker, CrossingObjectsSwitchesBounded) {
  struct Case {
    const char* name;
    std::vector<Mover> movers;
    long max_switches;
  };
  const std::vector<Case> cases = {
      {"head-on, same size", {{1, 100, 200, 16, 16, 3, 0}, {2, 500, 200, 16, 16, -3, 0}}, 0},
      {"head-on, offset rows", {{1, 100, 200, 16, 16, 3, 0}, {2, 500, 208, 16, 16, -3, 0}}, 0},
      {"perpendicular", {{1, 100, 200, 16, 16, 3, 0}, {2, 302, 0, 16, 16, 0, 3}}, 0},
      {"overtaking", {{1, 100, 200, 16, 16, 4, 0}, {2, 200, 204, 12, 12, 1, 0}}, 2},
      {"diagonals", {{1, 100, 100, 14, 14, 3, 3}, {2, 400, 100, 14, 14, -3, 3}}, 0},
      {"slow overtaking (merged > max-misses)", {{1, 100, 200, 16, 16, 1.5f, 0}, {2, 150, 204, 12, 12, 1, 0}}, 0},
  };
  long total = 0;
  for (const Case& c : cases) {
    int merged = 0;
    for (int i = 0; i < 130; ++i) merged += synth::render(c.movers, i, kW, kH).detections.size() == 1;
    EXPECT_GT(merged, 2) << c.name << ": the objects never merge";
    Tracker tracker, placing;
    mot::Scorer scorer, placed;
    const mot::Score s = synth::run(tracker, c.movers, 130, kW, kH, &scorer);
    const mot::Score p = synth::run(placing, c.movers, 130, kW, kH, &placed, nullptr, synth::Output::LocatedTracks);
    std::printf("crossing %-38s merged %2d frames: MOTA %.3f, FN %ld, FP %ld, id switches %ld; located tracks: MOTA %.3f, FN %ld, FP %ld, id switches %ld\n",
                c.name, merged, s.mota(), s.fn, s.fp, s.id_switches, p.mota(), p.fn, p.fp, p.id_switches);
    EXPECT_LE(s.id_switches, c.max_switches) << c.name;
    EXPECT_LE(p.id_switches, c.max_switches) << c.name;
    EXPECT_LT(p.fn, s.fn) << c.name << ": the track hidden in the merged blob was not placed";
    total += s.id_switches;
  }
  std::printf("crossing: %ld id switches over %zu crossings\n", total, cases.size());
}

// Objects enter at the left edge, cross the frame and leave at the right: each gets its own id,
// and its track ends max_misses + 1 frames after it left.
TEST(Tracker, ObjectsEnterAndLeave) {
  std::vector<Mover> movers;
  for (std::uint32_t k = 0; k < 6; ++k) movers.push_back({k + 1, -20.0f - 60 * k, 40.0f + 60 * k, 16, 16, 5, 0});
  ccl::track::Options o;
  Tracker tracker(o);
  mot::Scorer scorer;
  std::map<std::uint32_t, int> ended_at;
  std::set<std::uint32_t> started;
  for (int i = 0; i < 260; ++i) {
    const synth::Frame f = synth::render(movers, i, kW, kH);
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
    std::vector<mot::Reported> reported;
    for (std::size_t k = 0; k < ids.size(); ++k) reported.push_back({ids[k], f.detections[k].box});
    scorer.add_frame(f.truth, reported);
    for (const ccl::track::Event& e : tracker.events()) {
      if (e.kind == ccl::track::Event::Kind::Started) {
        EXPECT_TRUE(started.insert(e.id).second) << "id reused";
      } else {
        ended_at[e.id] = i;
      }
    }
  }
  const mot::Score s = scorer.score();
  std::printf("enter and leave: MOTA %.4f, FN %ld, FP %ld, id switches %ld\n", s.mota(), s.fn, s.fp, s.id_switches);
  EXPECT_EQ(s.id_switches, 0);
  EXPECT_EQ(started.size(), movers.size());
  EXPECT_EQ(ended_at.size(), movers.size()) << "every object left, every track must end";
  for (const Mover& m : movers) {
    const int gone = int(std::ceil((kW - m.x) / m.vx));  // first frame with x >= kW
    auto tracks = scorer.tracks_of().at(m.id);
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_EQ(ended_at[*tracks.begin()], gone + int(o.max_misses)) << "object " << m.id;
  }
  EXPECT_TRUE(tracker.tracks().empty());
}

// Two still objects merge into one component at frame 10 (the labeller joins objects that touch).
// The track that does not get the component is hidden in it: it outlives max_misses (30) and ends
// on its 3 x max_misses + 1st miss after its last match (frame 9 + 91 = 100), or keeps its id when
// the component parts before. With hidden_share 0 it ends on its max_misses + 1st (9 + 31 = 40).
TEST(Tracker, TrackHiddenInAMergedBlobOutlivesMaxMisses) {
  const std::vector<Detection> apart = {detection({10, 10, 10, 10}), detection({40, 10, 10, 10})};
  const std::vector<Detection> merged = {detection({10, 10, 40, 10})};
  for (int parts_at : {80, 1000}) {
    for (float share : {0.6f, 0.0f}) {
      ccl::track::Options o;
      o.hidden_share = share;
      Tracker tracker(o);
      std::vector<std::uint32_t> first_ids, ids;
      std::map<std::uint32_t, int> ended_at;
      for (int i = 0; i < 200; ++i) {
        const std::vector<Detection>& f = i < 10 || i >= parts_at ? apart : merged;
        ids.assign(f.size(), 0);
        tracker.update(f.data(), f.size(), i, ids.data());
        if (i == 9) first_ids = ids;
        if (i == parts_at && share > 0) EXPECT_EQ(ids, first_ids) << "both ids come back when the blob parts";
        if (i == parts_at && share == 0) EXPECT_NE(ids, first_ids) << "ended after max_misses, the id cannot come back";
        for (const ccl::track::Event& e : tracker.events())
          if (e.kind == ccl::track::Event::Kind::Ended) ended_at[e.id] = i;
      }
      ASSERT_EQ(first_ids.size(), 2u);
      ASSERT_NE(first_ids[0], 0u);
      ASSERT_NE(first_ids[1], 0u);
      if (parts_at == 80 && share > 0) EXPECT_TRUE(ended_at.empty()) << "hidden 70 frames, then found";
      if (parts_at == 1000) {
        // One of the two kept the merged component; the other ended.
        ASSERT_EQ(ended_at.size(), 1u) << "share " << share;
        EXPECT_EQ(ended_at.begin()->second, share > 0 ? 9 + 91 : 9 + 31) << "share " << share;
      }
    }
  }
}

// Two still objects, 10 x 10 at x = 10 and x = 40, merge into one 40 x 10 component in frames
// 10-19. Both tracks stay located there, each at its own box (its prediction, which fits inside):
// the one that took the component is measured at its part, not grown to 40 wide; the other is
// hidden in it. When the component parts, both ids come back on their own objects.
TEST(Tracker, TracksInAMergedBlobArePlacedAtTheirParts) {
  const Box left = {10, 10, 10, 10}, right = {40, 10, 10, 10};
  const std::vector<Detection> apart = {detection(left), detection(right)}, merged = {detection({10, 10, 40, 10})};
  Tracker tracker;
  std::vector<std::uint32_t> first_ids, ids;
  for (int i = 0; i < 25; ++i) {
    const bool joined = i >= 10 && i < 20;
    const std::vector<Detection>& f = joined ? merged : apart;
    ids.assign(f.size(), 0);
    tracker.update(f.data(), f.size(), i, ids.data());
    if (i == 9) first_ids = ids;
    if (i == 20) {
      EXPECT_EQ(ids, first_ids) << "both ids come back when the component parts";
    }
    if (!joined) continue;
    std::map<std::uint32_t, Box> at;
    int hidden = 0;
    for (const ccl::track::Track& t : tracker.tracks()) {
      if (!t.located()) continue;
      at[t.id] = t.shown;
      hidden += t.hidden;
      EXPECT_TRUE(t.grouped) << "frame " << i << ": track " << t.id << " not marked as in a merged component";
      EXPECT_EQ(t.detection, 0) << "frame " << i;
      EXPECT_FLOAT_EQ(t.estimate().width, 10.0f) << "frame " << i << ": track " << t.id << " grew over the component";
    }
    ASSERT_EQ(first_ids.size(), 2u);
    ASSERT_EQ(at.size(), 2u) << "frame " << i << ": both tracks are located";
    EXPECT_EQ(hidden, 1) << "frame " << i;
    for (std::size_t k = 0; k < 2; ++k) {
      const Box& want = k == 0 ? left : right, &got = at[first_ids[k]];
      EXPECT_TRUE(got.x == want.x && got.y == want.y && got.width == want.width && got.height == want.height)
          << "frame " << i << ": track " << first_ids[k] << " at " << got.x << "," << got.y << " " << got.width << "x"
          << got.height;
    }
  }
}

// Detections lost for up to max_misses frames: the track coasts and keeps its id; one more and it ends.
TEST(Tracker, MissedFramesWithinMaxMissesKeepTheId) {
  const std::vector<Mover> movers = {{1, 50, 100, 12, 12, 3, 1}, {2, 50, 300, 12, 12, 2, -1}};
  for (std::uint32_t gap : {1u, 5u, 10u, 11u}) {
    ccl::track::Options o;
    o.max_misses = 10;
    Tracker tracker(o);
    std::set<std::uint32_t> ids_seen;
    for (int i = 0; i < 60; ++i) {
      synth::Frame f = synth::render(movers, i, kW, kH);
      if (i >= 20 && i < 20 + int(gap)) f.detections.clear();  // the labeller found nothing
      std::vector<std::uint32_t> ids(f.detections.size());
      tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
      for (std::uint32_t id : ids)
        if (id) ids_seen.insert(id);
    }
    EXPECT_EQ(ids_seen.size(), gap <= o.max_misses ? 2u : 4u) << "gap " << gap;
  }
}

// A confirmed track that misses a frame is lost (coasting) and says so once; matched again it is
// re-acquired under its id; missing more than max_misses frames it ends.
TEST(Tracker, LifecycleStartedLostReacquiredEnded) {
  ccl::track::Options o;
  o.min_hits = 2, o.max_misses = 4;
  Tracker tracker(o);
  const std::vector<Mover> one = {{1, 100, 100, 12, 12, 3, 0}};
  using Kind = ccl::track::Event::Kind;
  std::vector<std::pair<int, Kind>> events;
  std::vector<ccl::track::TrackState> states;
  for (int i = 0; i < 20; ++i) {
    synth::Frame f = synth::render(one, i, kW, kH);
    if ((i >= 3 && i < 6) || i >= 10) f.detections.clear();  // hidden in frames 3-5, gone from 10
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
    for (const auto& e : tracker.events()) {
      EXPECT_EQ(e.id, 1u);
      events.emplace_back(i, e.kind);
    }
    if (i == 4) states.push_back(tracker.tracks().at(0).state);
    if (i == 6) {
      ASSERT_EQ(ids.size(), 1u);
      EXPECT_EQ(ids[0], 1u) << "re-acquired under its id";
      states.push_back(tracker.tracks().at(0).state);
    }
  }
  const std::vector<std::pair<int, Kind>> want = {
      {1, Kind::Started}, {3, Kind::Lost}, {6, Kind::Reacquired}, {10, Kind::Lost}, {14, Kind::Ended}};
  EXPECT_EQ(events, want);
  EXPECT_EQ(states, (std::vector<ccl::track::TrackState>{ccl::track::TrackState::Lost, ccl::track::TrackState::Confirmed}));
  EXPECT_TRUE(tracker.tracks().empty());
}

// The trail: the centroids of the track's last kTrailLength matches, oldest first, with their
// times; frames without a match add nothing.
TEST(Tracker, TrailHoldsTheLastMatchedCentroids) {
  Tracker tracker;
  const Mover m{1, 10, 200, 10, 10, 2, 1};
  std::vector<ccl::track::TrailPoint> want;
  for (int i = 0; i < 60; ++i) {
    synth::Frame f = synth::render({m}, i, kW, kH);
    if (i == 30 || i == 31) f.detections.clear();
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), 100 + i, ids.data());
    // The rendered component's centroid: the box's pixel centres' mean, x + (w - 1) / 2.
    // The box: the detection's own (what GstCclTrackLifeMeta replays of a tentative track).
    if (!f.detections.empty())
      want.push_back({m.x + 2.0f * float(i) + 4.5f, m.y + 1.0f * float(i) + 4.5f, 100 + i, f.detections[0].box});
  }
  ASSERT_EQ(tracker.tracks().size(), 1u);
  std::vector<ccl::track::TrailPoint> trail;
  tracker.trail(tracker.tracks()[0], &trail);
  ASSERT_EQ(trail.size(), std::size_t(Tracker::kTrailLength));
  want.erase(want.begin(), want.end() - Tracker::kTrailLength);
  for (std::size_t k = 0; k < trail.size(); ++k) {
    EXPECT_NEAR(trail[k].x, want[k].x, 1e-3f) << k;
    EXPECT_NEAR(trail[k].y, want[k].y, 1e-3f) << k;
    EXPECT_EQ(trail[k].time, want[k].time) << k;
    EXPECT_EQ(trail[k].box.x, want[k].box.x) << k;
    EXPECT_EQ(trail[k].box.y, want[k].box.y) << k;
    EXPECT_EQ(trail[k].box.width, want[k].box.width) << k;
    EXPECT_EQ(trail[k].box.height, want[k].box.height) << k;
  }
}

// Scores (ByteTrack's stages): a weak detection (low_score <= score < high_score) never starts a
// track but continues a confirmed one it overlaps; one below low_score is ignored.
TEST(Tracker, WeakDetectionsOnlyContinueTracks) {
  ccl::track::Options o;
  o.min_hits = 2, o.high_score = 0.8f, o.low_score = 0.2f;
  Tracker tracker(o);
  auto detection = [](float x, float score) {
    ccl::track::Detection d;
    d.box = {x, 50, 20, 40};
    d.centroid_x = x + 10, d.centroid_y = 70, d.score = score;
    return d;
  };
  std::vector<std::uint32_t> ids(2);
  for (int i = 0; i < 6; ++i) {
    // A weak object at x 300 throughout; a strong one at x 10 that turns weak from frame 3.
    const std::vector<ccl::track::Detection> d = {detection(10.0f + float(i), i < 3 ? 0.9f : 0.5f), detection(300, 0.5f)};
    tracker.update(d.data(), d.size(), i, ids.data());
    EXPECT_EQ(ids[1], 0u) << "frame " << i << ": a weak detection started a track";
    if (i >= 1) {
      EXPECT_EQ(ids[0], 1u) << "frame " << i << ": the track did not continue on the weak detection";
    }
  }
  EXPECT_EQ(tracker.tracks().size(), 1u);
  const std::vector<ccl::track::Detection> faint = {detection(16, 0.1f)};
  ids.assign(1, 7);
  tracker.update(faint.data(), 1, 6, ids.data());
  EXPECT_EQ(ids[0], 0u) << "below low_score: ignored";
  EXPECT_EQ(tracker.tracks().at(0).state, ccl::track::TrackState::Lost);
}

// OC-SORT's re-update: a track found again after k missed frames ends in the state of one that
// saw the straight path between its two observations, one point per missed frame (not in that of
// a filter that coasted k frames and took one observation). Here an object moving 4 px a frame is
// hidden for 6 frames, in which it slows to 2 px a frame.
TEST(Tracker, ReacquiredTrackIsReupdatedAlongItsObservedPath) {
  auto at = [](float x) {
    ccl::track::Detection d;
    d.box = {x, 100, 30, 30 + x / 10};  // growing: the size's filter is re-run too
    d.centroid_x = d.box.center_x(), d.centroid_y = d.box.center_y();
    return d;
  };
  Tracker hidden, seen;
  std::vector<std::uint32_t> ids(1);
  for (int frame = 0; frame < 27; ++frame) {
    const float x = frame < 20 ? 50.0f + 4.0f * float(frame) : 126.0f + 2.0f * float(frame - 19);
    const ccl::track::Detection d = at(x);
    hidden.update(&d, frame < 20 || frame == 26 ? 1 : 0, frame, ids.data());
    seen.update(&d, 1, frame, ids.data());
  }
  ASSERT_EQ(hidden.tracks().size(), 1u);
  ASSERT_EQ(seen.tracks().size(), 1u);
  const ccl::track::Track &a = hidden.tracks()[0], &b = seen.tracks()[0];
  EXPECT_EQ(a.id, b.id);
  EXPECT_NEAR(a.estimate().x, b.estimate().x, 1e-3f);
  EXPECT_NEAR(a.estimate().height, b.estimate().height, 1e-3f);
  EXPECT_NEAR(a.velocity_x(), b.velocity_x(), 1e-4f);
  EXPECT_NEAR(a.filter.vh, b.filter.vh, 1e-4f);
  EXPECT_NEAR(a.filter.pp, b.filter.pp, 1e-3f) << "the covariance of the observed path, not of coasting";
}

TEST(Tracker, ResetForgetsTracksAndNeverReusesIds) {
  const std::vector<Mover> movers = lanes(3, 3, 2);
  Tracker tracker;
  std::set<std::uint32_t> before, after;
  for (int i = 0; i < 10; ++i) {
    const synth::Frame f = synth::render(movers, i, kW, kH);
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
    for (std::uint32_t id : ids) before.insert(id);
  }
  tracker.reset();
  EXPECT_TRUE(tracker.tracks().empty());
  std::set<std::uint32_t> ended;  // every confirmed track ends with the reset
  for (const auto& e : tracker.events()) {
    EXPECT_EQ(e.kind, ccl::track::Event::Kind::Ended);
    ended.insert(e.id);
  }
  std::set<std::uint32_t> confirmed = before;
  confirmed.erase(0);
  EXPECT_EQ(ended, confirmed);
  for (int i = 10; i < 20; ++i) {
    const synth::Frame f = synth::render(movers, i, kW, kH);
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
    for (std::uint32_t id : ids) {
      if (i < 12) {
        EXPECT_EQ(id, 0u) << "frame " << i << ": a track survived the reset";
      }
      if (id) after.insert(id);
    }
  }
  before.erase(0);
  EXPECT_EQ(after.size(), movers.size());
  EXPECT_GT(*after.begin(), *before.rbegin()) << "ids after the reset must be new";
}

TEST(Tracker, SameInputSameIds) {
  const std::vector<Mover> movers = lanes(10, 10, 3);
  std::vector<Mover> crossing = movers;
  crossing.push_back({999, 0, 0, 30, 30, 4, 3});  // one big object ploughing through the lanes
  std::vector<std::vector<std::uint32_t>> a, b;
  Tracker ta, tb;
  mot::Scorer sa, sb;
  synth::run(ta, crossing, 120, kW, kH, &sa, &a);
  synth::run(tb, crossing, 120, kW, kH, &sb, &b);
  EXPECT_EQ(a, b);
}

// The grid finds exactly the pairs that a scan of every (query, detection) pair finds (IoU >=
// min_iou or centroid distance <= gate), with the costs of the formula.
TEST(CandidateSearch, FindsWhatBruteForceFinds) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> pos(0, 1000), side(2, 40), g(0, 60);
  ccl::track::CandidateSearch search;  // one for all rounds: its scratch must come back clean
  for (int round = 0; round < 20; ++round) {
    std::vector<ccl::track::Query> q;
    std::vector<ccl::track::Detection> d(303);
    for (int t = 0; t < 302; ++t) {
      const ccl::track::Box b{pos(rng), pos(rng), side(rng), side(rng)};
      q.push_back({b, b.x + b.width / 4, b.y + b.height * 0.6f, g(rng)});  // centroids off the box centres
    }
    if (round % 2 == 1)  // a few queries with far larger gates, and a few huge detections
      for (int t = 0; t < 5; ++t) q[std::size_t(t * 60)].gate_px = 150.0f + 50.0f * float(t);
    for (auto& x : d) x.box = {pos(rng), pos(rng), side(rng), side(rng)};
    if (round % 2 == 0)
      for (int k = 0; k < 3; ++k) d[std::size_t(k * 100 + 7)].box = {pos(rng), pos(rng), 400, 300};
    // Boxes no pair may come of: NaN, far off.
    d[std::size_t(round)].box.x = std::nanf("");
    d[std::size_t(round) + 40].box.y = 1e12f;
    d[std::size_t(round) + 80].box.x = -1e12f;
    for (auto& x : d)  // centroids off the box centres, inside the boxes (as a component's)
      x.centroid_x = x.box.x + x.box.width / 3, x.centroid_y = x.box.y + x.box.height * 0.7f;
    std::vector<int> subset;
    for (int j = 0; j < 303; ++j)
      if (j % 5 != 1) subset.push_back(j);  // a subset: the stage's free detections
    std::vector<ccl::track::Candidate> got;
    search.find(q, d.data(), subset, 0.1f, &got);
    std::map<std::pair<int, int>, float> have, want;
    for (const auto& c : got) EXPECT_TRUE(have.emplace(std::make_pair(c.track, c.detection), c.cost).second) << "pair found twice";
    for (int t = 0; t < 302; ++t)
      for (int j : subset) {
        const ccl::track::Box& a = q[std::size_t(t)].box;
        const ccl::track::Box& b = d[std::size_t(j)].box;
        if (!std::isfinite(b.x) || !std::isfinite(b.y) || std::fabs(b.x) > 1e9f || std::fabs(b.y) > 1e9f) continue;
        const float o = ccl::track::iou(a, b);
        const float dist = std::hypot(q[std::size_t(t)].centroid_x - d[std::size_t(j)].centroid_x,
                                      q[std::size_t(t)].centroid_y - d[std::size_t(j)].centroid_y);
        const float gp = q[std::size_t(t)].gate_px;
        if (o >= 0.1f || dist <= gp) want[{t, j}] = (1 - o) + (gp > 0 ? std::min(dist / gp, 1.0f) : 1.0f);
      }
    ASSERT_EQ(have.size(), want.size()) << "round " << round;
    for (const auto& [pair, cost] : want) {
      ASSERT_TRUE(have.count(pair)) << "round " << round << " missing " << pair.first << "," << pair.second;
      EXPECT_NEAR(have[pair], cost, 1e-5f);
    }
    EXPECT_GT(want.size(), 50u) << "a round without pairs tests nothing";
  }
}

// near() after a find() holds every detection of its subset whose box meets the probe, edges
// included (what the tracker's "which taken detection holds this box" questions need), and only
// detections of the subset; a find() without queries still bins them, one without detections not.
TEST(CandidateSearch, NearHoldsEveryDetectionMeetingTheBox) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> pos(0, 1000), side(0, 40);
  ccl::track::CandidateSearch search;
  for (int round = 0; round < 20; ++round) {
    std::vector<ccl::track::Detection> d(303);
    for (auto& x : d) x.box = {pos(rng), pos(rng), side(rng) + 1, side(rng) + 1};
    for (int k = 0; k < 3; ++k) d[std::size_t(k * 100 + 7)].box = {pos(rng), pos(rng), 400, 300};  // big ones
    d[std::size_t(round)].box.x = std::nanf("");
    std::vector<int> subset;
    for (int j = 0; j < 303; ++j)
      if (j % 5 != 1) subset.push_back(j);
    const std::vector<ccl::track::Query> q{{{500, 500, 10, 10}, 505, 505, 0}};
    std::vector<ccl::track::Candidate> pairs;
    search.find(q, d.data(), subset, 0.2f, &pairs);
    ASSERT_TRUE(search.ready());
    long met = 0;
    for (int probe = 0; probe < 200; ++probe) {
      // Boxes, points (no size) and boxes written with a negative width or height.
      ccl::track::Box p{pos(rng), pos(rng), probe % 4 == 0 ? 0.0f : side(rng), probe % 4 == 0 ? 0.0f : side(rng)};
      if (probe % 7 == 3) p.x += p.width, p.width = -p.width;
      if (probe % 11 == 5) p.y += p.height, p.height = -p.height;
      // A probe with its edge exactly on a detection's edge, in half the rounds.
      if (probe % 2 == 0) p.x = d[std::size_t(probe + 50)].box.x + d[std::size_t(probe + 50)].box.width;
      std::vector<int> got;
      search.near(p, &got);
      const std::set<int> have(got.begin(), got.end());
      const std::set<int> in_subset(subset.begin(), subset.end());
      for (int j : got) EXPECT_TRUE(in_subset.count(j)) << "not of the subset: " << j;
      const float px0 = std::min(p.x, p.x + p.width), px1 = std::max(p.x, p.x + p.width);
      const float py0 = std::min(p.y, p.y + p.height), py1 = std::max(p.y, p.y + p.height);
      for (int j : subset) {
        const ccl::track::Box& b = d[std::size_t(j)].box;
        if (!std::isfinite(b.x)) continue;
        if (b.x <= px1 && px0 <= b.x + b.width && b.y <= py1 && py0 <= b.y + b.height) {
          ++met;
          EXPECT_TRUE(have.count(j)) << "round " << round << " probe " << probe << " misses " << j;
        }
      }
    }
    EXPECT_GT(met, 50) << "probes that meet nothing test nothing";
  }
  std::vector<ccl::track::Candidate> pairs;
  std::vector<ccl::track::Detection> one(1);
  search.find({}, one.data(), {}, 0.2f, &pairs);
  EXPECT_FALSE(search.ready()) << "no detection: no grid";
  search.find({}, one.data(), {0}, 0.2f, &pairs);
  EXPECT_TRUE(search.ready()) << "no query, yet a grid";
  EXPECT_TRUE(pairs.empty());
  std::vector<int> got;
  search.near({0, 0, 1, 1}, &got);
  EXPECT_EQ(got, std::vector<int>({0}));
}

// The least total cost over every one-to-one matching, by enumeration (small cases).
double brute_best(const std::vector<double>& cost, int rows, int cols, int row, std::vector<bool>& used) {
  if (row == rows) return 0;
  double best = 1e300;
  for (int c = 0; c < cols; ++c) {
    if (used[std::size_t(c)]) continue;
    used[std::size_t(c)] = true;
    best = std::min(best, cost[std::size_t(row * cols + c)] + brute_best(cost, rows, cols, row + 1, used));
    used[std::size_t(c)] = false;
  }
  return best;
}

TEST(Assignment, HungarianFindsTheLeastCost) {
  std::mt19937 rng(5);
  for (int round = 0; round < 300; ++round) {
    const int rows = 1 + int(rng() % 5), cols = rows + int(rng() % 3);
    std::vector<double> cost(std::size_t(rows * cols));
    for (double& c : cost) c = double(rng() % 8) / 4;  // coarse: many ties
    std::vector<int> col_of_row;
    ccl::track::hungarian(cost, rows, cols, &col_of_row);
    std::set<int> cols_used(col_of_row.begin(), col_of_row.end());
    ASSERT_EQ(cols_used.size(), std::size_t(rows)) << "not one-to-one";
    double total = 0;
    for (int r = 0; r < rows; ++r) total += cost[std::size_t(r * cols + col_of_row[std::size_t(r)])];
    std::vector<bool> used(static_cast<std::size_t>(cols));
    EXPECT_DOUBLE_EQ(total, brute_best(cost, rows, cols, 0, used)) << "round " << round;
  }
}

// Sparse pairs in clusters: the matching has the least cost where every pair costs less than
// leaving a track unmatched, and the most matches.
TEST(Assignment, ClustersMatchAsOneHungarianWould) {
  std::mt19937 rng(9);
  ccl::track::Assignment assignment;
  for (int round = 0; round < 300; ++round) {
    const int nt = 1 + int(rng() % 6), nd = 1 + int(rng() % 6);
    std::vector<ccl::track::Candidate> pairs;
    for (int t = 0; t < nt; ++t)
      for (int j = 0; j < nd; ++j)
        if (rng() % 3 == 0) pairs.push_back({float(rng() % 8) / 8, t, j});
    std::vector<int> match;
    assignment.solve(pairs, nt, nd, 2.0, &match);
    // Brute force over the dense matrix with "unmatched" = 2 for missing pairs, padded with columns
    // meaning "no detection" (cost 2 each).
    const int cols = nd + nt;
    std::vector<double> dense(std::size_t(nt * cols), 2.0);
    for (const auto& p : pairs) dense[std::size_t(p.track * cols + p.detection)] = p.cost;
    std::vector<bool> used(static_cast<std::size_t>(cols));
    const double best = brute_best(dense, nt, cols, 0, used);
    double total = 0;
    std::set<int> taken;
    for (int t = 0; t < nt; ++t) {
      const int j = match[std::size_t(t)];
      if (j < 0) {
        total += 2.0;
        continue;
      }
      EXPECT_TRUE(taken.insert(j).second) << "detection taken twice";
      bool is_pair = false;
      for (const auto& p : pairs)
        if (p.track == t && p.detection == j) is_pair = true, total += p.cost;
      EXPECT_TRUE(is_pair) << "a match that is no candidate";
    }
    EXPECT_NEAR(total, best, 1e-9) << "round " << round;
  }
}

// A long, dense sequence (the bench's moving boxes, with dropped components, noise components and
// ids over several option sets) hashed over every id, event, and live track. Integers from
// splitmix64 only, so the input is the same with any standard library.
std::uint64_t splitmix(std::uint64_t* s) {
  std::uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t fingerprint(const ccl::track::Options& options, int n, int frames, std::uint64_t seed) {
  struct B {
    int x, y, side, vx, vy;  // position in 1/4 px, speed in 1/4 px per frame
  };
  constexpr int kW4 = 1920 * 4, kH4 = 1080 * 4;
  std::uint64_t s = seed, h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) {
    for (int k = 0; k < 8; ++k) h = (h ^ ((v >> (8 * k)) & 0xff)) * 1099511628211ull;
  };
  std::vector<B> boxes(static_cast<std::size_t>(n));
  for (B& b : boxes)
    b = {int(splitmix(&s) % (kW4 - 80)), int(splitmix(&s) % (kH4 - 80)), 6 + int(splitmix(&s) % 11),
         int(splitmix(&s) % 25) - 12, int(splitmix(&s) % 25) - 12};
  Tracker tracker(options);
  std::vector<ccl::track::Detection> d;
  std::vector<std::uint32_t> ids;
  for (int f = 0; f < frames; ++f) {
    d.clear();
    for (B& b : boxes) {
      b.x += b.vx, b.y += b.vy;
      if (b.x < 0 || b.x + 4 * b.side > kW4) b.vx = -b.vx, b.x += 2 * b.vx;
      if (b.y < 0 || b.y + 4 * b.side > kH4) b.vy = -b.vy, b.y += 2 * b.vy;
      if (splitmix(&s) % 100 < 3) continue;  // a missed component: tracks coast
      ccl::track::Detection x;
      x.box = {float(b.x / 4), float(b.y / 4), float(b.side), float(b.side)};
      x.area = std::uint32_t(b.side * b.side);
      x.centroid_x = x.box.x + (x.box.width - 1) / 2, x.centroid_y = x.box.y + (x.box.height - 1) / 2;
      d.push_back(x);
    }
    for (int k = int(splitmix(&s) % 20); k > 0; --k) {  // noise: tentative tracks that end
      ccl::track::Detection x;
      const int side = 2 + int(splitmix(&s) % 30);
      x.box = {float(splitmix(&s) % 1880), float(splitmix(&s) % 1040), float(side), float(side / 2 + 1)};
      x.area = std::uint32_t(x.box.width * x.box.height);
      x.centroid_x = x.box.x + x.box.width / 3, x.centroid_y = x.box.y + x.box.height / 2;
      d.push_back(x);
    }
    std::sort(d.begin(), d.end(), [](const auto& a, const auto& b) {
      return a.box.y != b.box.y ? a.box.y < b.box.y : a.box.x < b.box.x;
    });
    ids.assign(d.size(), 7);
    tracker.update(d.data(), d.size(), f, ids.data());
    for (std::uint32_t id : ids) mix(id);
    for (const auto& e : tracker.events())
      mix(std::uint64_t(e.kind)), mix(e.id), mix(std::uint64_t(e.first_time)), mix(std::uint64_t(e.last_time));
    mix(tracker.tracks().size());
  }
  for (const auto& t : tracker.tracks()) {
    mix(t.id), mix(t.hits), mix(t.misses), mix(std::uint64_t(t.first_time)), mix(std::uint64_t(t.last_time));
    mix(std::uint64_t(t.state)), mix(t.hidden), mix(t.grouped);
    const float floats[5] = {t.velocity_x(), t.velocity_y(), t.estimate().x, t.centroid_y, t.shown.x};
    std::uint32_t bits[5];
    std::memcpy(bits, floats, sizeof bits);
    for (std::uint32_t b : bits) mix(b);
  }
  return h;
}

// Same input, same ids: two Trackers over the same long dense sequences agree on every id, event
// and track, for several option sets.
// Pinned: these hashes were recorded from this tracker (the rebuild of issue 34, Kalman + staged
// Hungarian association) on x86-64 on 2026-11-26, not from the previous one, whose ids a new
// design does not keep. They catch an unintended change of any id, and the aarch64 run
// (tools/test-tracker-aarch64.sh) checks that another CPU gives the same ids. A deliberate change
// of the tracker's behaviour re-records them, saying so. Re-recorded 2026-11-26 when tracks hidden
// in a merged blob began to outlive max_misses (Options::hidden_share), and 2026-11-27 when the
// tracks in a merged blob were placed at their parts of it (Track::shown, also hashed now), and
// again 2026-11-27 when a tentative track inside a detection an established track took stopped
// being confirmed (Tracker::inside_another), and when a track going hidden took its steady
// velocity (Tracker::steady_velocity), and when the track taking a merged blob did too, and when
// a hidden track stayed hidden while its prediction's centre stays in the blob, and when a track
// inside a detection the overlap pass gave another was no longer offered to the gate, and again
// when lost tracks stopped taking pieces far smaller than themselves, pieces half inside a tracked
// object's box stopped being confirmed, the track taking a merged blob was measured at its part no
// smaller than its usual size, and a track out of a merge alone in a far larger detection stayed
// measured at its part; the second once more when that least size went from 0.8 to 0.9 x usual;
// the first and third when the piece check read the tracks established at the frame's start, not
// tracks_ while the lifecycle moved them (a bug: see PieceStaysUnconfirmedWhileAnEarlierTrackEnds).
TEST(Tracker, PinnedIdsOfALongSequence) {
  ccl::track::Options o;
  EXPECT_EQ(fingerprint(o, 2000, 400, 1), 61018418899717379ull) << "default options";
  o.min_hits = 1, o.max_misses = 3, o.gate = 2.0f, o.min_iou = 0.3f;
  EXPECT_EQ(fingerprint(o, 1500, 300, 2), 6370657094937736289ull) << "min-hits 1, wide gate";
  o.min_hits = 5, o.max_misses = 30, o.gate = 0.5f, o.min_iou = 0.05f;
  EXPECT_EQ(fingerprint(o, 3000, 300, 3), 5534592605955021948ull) << "dense, narrow gate";
}

TEST(Tracker, DeterministicOverLongSequences) {
  ccl::track::Options o;
  EXPECT_EQ(fingerprint(o, 2000, 400, 1), fingerprint(o, 2000, 400, 1)) << "default options";
  o.min_hits = 1, o.max_misses = 3, o.gate = 2.0f, o.min_iou = 0.3f;
  EXPECT_EQ(fingerprint(o, 1500, 300, 2), fingerprint(o, 1500, 300, 2)) << "min-hits 1, wide gate";
  o.min_hits = 5, o.max_misses = 30, o.gate = 0.5f, o.min_iou = 0.05f;
  EXPECT_EQ(fingerprint(o, 3000, 300, 3), fingerprint(o, 3000, 300, 3)) << "dense, narrow gate";
}

}  // namespace
