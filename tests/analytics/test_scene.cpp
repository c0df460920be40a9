// The scene analytics engine on synthetic trajectories whose crossings, enters, exits, dwells and
// overcrowdings are counted by hand (the expected values are in the tests), and on random
// trajectories against a brute-force oracle written here (oracle.hpp), sharing no code with the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "analytics/rules.hpp"
#include "analytics/scene.hpp"

namespace {

using namespace ccl::scene;
using Type = Event::Type;

constexpr std::int64_t kSecond = 1000000000;
constexpr std::int64_t kFrame = kSecond / 10;  // 10 frames per second

// A 10x20 box whose bottom-center is (px, py) (its center is (px, py - 10)).
TrackedBox at(std::uint32_t id, float px, float py) { return TrackedBox{id, px - 5, py - 20, 10, 20}; }
Sighting sighting_at(std::int64_t time, float px, float py) { return Sighting{time, px - 5, py - 20, 10, 20}; }

Options options(double hysteresis = 2, unsigned forget_after = 30) {
  Options o;
  o.hysteresis = hysteresis;
  o.forget_after = forget_after;
  return o;
}

LineRule line(const std::string& name, Point from, Point to, Anchor anchor = Anchor::BottomCenter) {
  LineRule l;
  l.name = name, l.from = from, l.to = to, l.anchor = anchor;
  return l;
}

ZoneRule zone(const std::string& name, std::vector<Point> polygon, double dwell = -1, unsigned max_objects = 0,
              double overcrowd_time = 0, Anchor anchor = Anchor::BottomCenter) {
  ZoneRule z;
  z.name = name, z.polygon = std::move(polygon), z.anchor = anchor;
  z.dwell = dwell, z.max_objects = max_objects, z.overcrowd_time = overcrowd_time;
  return z;
}

std::vector<Point> square(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// Feeds frames to one engine and keeps every event.
struct Scene {
  explicit Scene(const Rules& rules, const Options& o = options()) : engine(o) { engine.set_rules(rules); }

  // One frame at index n (time n * kFrame).
  const std::vector<Event>& frame(int n, std::vector<TrackedBox> objects, std::vector<TrackStart> started = {},
                                  std::vector<std::uint32_t> ended = {}, unsigned width = 1000, unsigned height = 1000) {
    Frame f;
    f.time = n * kFrame;
    f.width = width, f.height = height;
    f.objects = objects.data(), f.n_objects = objects.size();
    f.started = started.data(), f.n_started = started.size();
    f.ended = ended.data(), f.n_ended = ended.size();
    engine.update(f);
    all.insert(all.end(), engine.events().begin(), engine.events().end());
    return engine.events();
  }

  std::size_t count(Type type, std::uint32_t rule = ~0u, Direction d = Direction::None) const {
    return std::size_t(std::count_if(all.begin(), all.end(), [&](const Event& e) {
      return e.type == type && (rule == ~0u || e.rule == rule) && (type != Type::LineCross || e.direction == d);
    }));
  }

  SceneAnalytics engine;
  std::vector<Event> all;
};

Rules one_line(Point from, Point to, Anchor anchor = Anchor::BottomCenter) {
  Rules r;
  r.lines.push_back(line("door", from, to, anchor));
  return r;
}

// ---- Lines ----

// Horizontal line y = 500 from x = 0 to 1000, directed +x: "right" is y > 500 (down the image).
TEST(Lines, ForwardAndBackwardThroughTheSegment) {
  Scene s(one_line({0, 500}, {1000, 500}));
  int n = 0;
  for (float y = 400; y <= 600; y += 10) s.frame(n++, {at(1, 300, y)});  // down: left -> right
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 0u);
  for (float y = 600; y >= 400; y -= 10) s.frame(n++, {at(1, 300, y)});  // back up
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);
  ASSERT_EQ(s.all.size(), 2u);
  // y = 510 at frame 11 is the first sighting at d >= 2 below the line; back at 490 on frame 21 + 11.
  EXPECT_EQ(s.all[0].type, Type::LineCross);
  EXPECT_EQ(s.all[0].direction, Direction::Forward);
  EXPECT_EQ(s.all[0].track_id, 1u);
  EXPECT_EQ(s.all[0].time, 11 * kFrame);
  EXPECT_EQ(s.all[0].at, 11 * kFrame);
  EXPECT_EQ(s.all[1].direction, Direction::Backward);
  EXPECT_EQ(s.all[1].time, (21 + 11) * kFrame);
}

TEST(Lines, JitterWithinTheBandNeverCounts) {
  Scene s(one_line({0, 500}, {1000, 500}), options(2));
  int n = 0;
  s.frame(n++, {at(1, 300, 490)});  // left
  for (int k = 0; k < 20; ++k) s.frame(n++, {at(1, 300, k % 2 ? 501.5f : 498.5f)});  // |d| < 2: in the band
  EXPECT_EQ(s.all.size(), 0u);
  s.frame(n++, {at(1, 300, 503)});  // right: the band was touched, one crossing
  for (int k = 0; k < 20; ++k) s.frame(n++, {at(1, 300, k % 2 ? 501 : 499)});
  s.frame(n++, {at(1, 300, 502)});  // d = 2 exactly: commits to the same side, no crossing
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 0u);
}

TEST(Lines, JitterJustOutsideTheBandCountsEachPass) {
  Scene s(one_line({0, 500}, {1000, 500}), options(2));
  int n = 0;
  // 497 (left, first sighting: no crossing), 503 F, 497 B, 503 F, 497 B, 503 F
  for (int k = 0; k < 6; ++k) s.frame(n++, {at(1, 300, k % 2 ? 503 : 497)});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 3u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 2u);
}

TEST(Lines, APassBesideTheFiniteSegmentNeverCounts) {
  Scene s(one_line({400, 500}, {600, 500}));
  int n = 0;
  for (float y = 400; y <= 600; y += 10) s.frame(n++, {at(1, 700, y)});    // beside, right of the end
  for (float y = 600; y >= 400; y -= 10) s.frame(n++, {at(2, 399, y)});    // 1 px left of the start
  EXPECT_EQ(s.all.size(), 0u);
  for (float y = 400; y <= 600; y += 10) s.frame(n++, {at(3, 600, y)});    // through the end point itself
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  // Beside the segment, then onto the left side, then through it: the touch comes after the commit.
  s.frame(n++, {at(4, 700, 600)});
  s.frame(n++, {at(4, 700, 400)});  // left, through the extension
  s.frame(n++, {at(4, 500, 600)});  // right, through the segment
  EXPECT_EQ(s.engine.line_counts()[0].forward, 2u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 0u);
}

TEST(Lines, DiagonalLineBothDirections) {
  // from (100,100) to (300,300): right of it is below-left (x < y).
  Scene s(one_line({100, 100}, {300, 300}));
  int n = 0;
  s.frame(n++, {at(1, 250, 150)});  // x > y: left
  s.frame(n++, {at(1, 150, 250)});  // right: forward
  s.frame(n++, {at(1, 250, 150)});  // backward
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);
}

TEST(Lines, CenterAnchorAndBoxAnchor) {
  Rules r;
  r.lines.push_back(line("center", {0, 500}, {1000, 500}, Anchor::Center));
  r.lines.push_back(line("box", {0, 500}, {1000, 500}, Anchor::Box));
  Scene s(r, options(2));
  // Bottom-center y: 480 (box 460..480, centre 470): left for both.
  s.frame(0, {at(1, 300, 480)});
  // Box 490..510 straddles the line: the box anchor commits nothing; centre 500: in the band.
  s.frame(1, {at(1, 300, 510)});
  EXPECT_EQ(s.all.size(), 0u);
  // Box 495..515, centre 505: the centre line counts; the box still straddles.
  s.frame(2, {at(1, 300, 515)});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[1].forward, 0u);
  // Box 502..522: all corners >= 2 below: the box line counts (it touched the line on the way).
  s.frame(3, {at(1, 300, 522)});
  EXPECT_EQ(s.engine.line_counts()[1].forward, 1u);
  // A box jumping over the line between two sightings counts through its centre's motion.
  s.frame(4, {at(2, 300, 470)});
  s.frame(5, {at(2, 300, 560)});
  EXPECT_EQ(s.engine.line_counts()[1].forward, 2u);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 2u);
}

TEST(Lines, CrossingWhileTentativeIsReportedOnceConfirmed) {
  Scene s(one_line({0, 500}, {1000, 500}));
  // Tentative sightings at frames 0..3 (y 480, 495, 505, 520), confirmed at frame 4 (y 530).
  const std::vector<Sighting> history = {sighting_at(0 * kFrame, 300, 480), sighting_at(1 * kFrame, 300, 495),
                                         sighting_at(2 * kFrame, 300, 505), sighting_at(3 * kFrame, 300, 520)};
  const std::vector<Event>& e = s.frame(4, {at(7, 300, 530)}, {TrackStart{7, history.data(), history.size()}});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].direction, Direction::Forward);
  EXPECT_EQ(e[0].time, 4 * kFrame);
  EXPECT_EQ(e[0].at, 2 * kFrame);  // y 505: the first sighting on the right
  for (int n = 5; n < 10; ++n) s.frame(n, {at(7, 300, 540)});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  // Without the started entry the same track would start at 530, already right: no crossing.
  Scene t(one_line({0, 500}, {1000, 500}));
  t.frame(4, {at(7, 300, 530)});
  EXPECT_EQ(t.all.size(), 0u);
}

TEST(Lines, LostAndReacquiredTrackCountsItsMotionSinceItsLastSighting) {
  Scene s(one_line({0, 500}, {1000, 500}), options(2, 30));
  s.frame(0, {at(1, 300, 450)});
  for (int n = 1; n < 10; ++n) s.frame(n, {});  // occluded 9 frames (< forget_after)
  s.frame(10, {at(1, 320, 560)});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  // Forgotten tracks start over: lost longer than forget_after, it comes back as a new track.
  Scene t(one_line({0, 500}, {1000, 500}), options(2, 5));
  t.frame(0, {at(1, 300, 450)});
  for (int n = 1; n < 10; ++n) t.frame(n, {});
  t.frame(10, {at(1, 320, 560)});
  EXPECT_EQ(t.engine.line_counts()[0].forward, 0u);
}

TEST(Lines, ObjectsEnteringFromOutsideTheFrame) {
  // A vertical door at the left edge, directed down: its right is x < 10 (outside the frame).
  Scene s(one_line({10, 0}, {10, 200}), options(2));
  int n = 0;
  // An object walking in from x = -40 (box partly or wholly outside the frame) to x = 100.
  for (float x = -40; x <= 100; x += 15) s.frame(n++, {at(1, x, 150)});
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 0u);
  // An object first seen already inside: nothing.
  s.frame(n++, {at(2, 60, 150)});
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);
}

TEST(Lines, MergeAndSplitAtALineNeverDoubleCount) {
  Scene s(one_line({0, 500}, {1000, 500}), options(2));
  int n = 0;
  // Two people side by side walk down to the line as tracks 1 and 2.
  for (float y = 440; y < 490; y += 10) s.frame(n++, {at(1, 300, y), at(2, 330, y)});
  // They merge into one blob: the blob keeps id 1, track 2 coasts (unseen). The blob crosses.
  for (float y = 490; y <= 540; y += 10) s.frame(n++, {TrackedBox{1, 295 - 5, y - 20, 40, 20}});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  // It splits after the line: one piece keeps id 1, the other is a new track 3 starting where it is.
  for (float y = 550; y <= 600; y += 10) s.frame(n++, {at(1, 300, y), at(3, 330, y)});
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  // And splitting on the line itself: track 3 walks back across, splits into 3 and 4 in the band.
  s.frame(n++, {at(3, 330, 501)});
  s.frame(n++, {at(3, 330, 499), at(4, 360, 500)});
  s.frame(n++, {at(3, 330, 480), at(4, 360, 480)});
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);  // track 3 only: track 4 began in the band
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
}

// ---- Zones ----

Rules one_zone(const ZoneRule& z) {
  Rules r;
  r.zones.push_back(z);
  return r;
}

TEST(Zones, EnterAndExitWithOccupancy) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400))));
  s.frame(0, {at(1, 150, 300), at(2, 250, 300)});  // 2 starts inside: enter
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  s.frame(1, {at(1, 210, 300), at(2, 260, 300)});  // 1 enters
  EXPECT_EQ(s.engine.zone_counts()[0].count, 2u);
  s.frame(2, {at(1, 210, 300), at(2, 410, 300)});  // 2 exits
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].entered, 2u);
  ASSERT_EQ(s.all.size(), 3u);
  EXPECT_EQ(s.all[0].type, Type::ZoneEnter);
  EXPECT_EQ(s.all[0].track_id, 2u);
  EXPECT_EQ(s.all[0].occupancy, 1u);
  EXPECT_EQ(s.all[1].type, Type::ZoneEnter);
  EXPECT_EQ(s.all[1].track_id, 1u);
  EXPECT_EQ(s.all[1].occupancy, 2u);
  EXPECT_EQ(s.all[2].type, Type::ZoneExit);
  EXPECT_EQ(s.all[2].track_id, 2u);
  EXPECT_EQ(s.all[2].occupancy, 1u);
}

TEST(Zones, BoundaryPointsAreInside) {
  // A triangle and a square; bottom-center anchors exactly on edges and corners count as inside.
  Rules r;
  r.zones.push_back(zone("square", square(200, 200, 400, 400)));
  r.zones.push_back(zone("triangle", {{600, 200}, {800, 400}, {600, 400}}));
  Scene s(r);
  s.frame(0, {at(1, 200, 300), at(2, 400, 400), at(3, 300, 200), at(4, 700, 300), at(5, 600, 200),
              at(6, 700, 299), at(7, 401, 300), at(8, 199, 300), at(9, 300, 401), at(10, 601, 200)});
  // Inside: 1 (left edge), 2 (corner), 3 (top edge); 4 (the hypotenuse), 5 (a corner);
  // outside: 6 (just above the hypotenuse), 7, 8, 9 (1 px off the square), 10 (1 px off the apex).
  EXPECT_EQ(s.engine.zone_counts()[0].count, 3u);
  EXPECT_EQ(s.engine.zone_counts()[1].count, 2u);
}

TEST(Zones, EvenOddRuleForSelfIntersectingPolygons) {
  // A bow tie (self-intersecting): the crossing point region counts per even-odd.
  // A "C"-shaped (concave) zone: the notch is outside.
  Rules r;
  r.zones.push_back(zone("c", {{0, 0}, {300, 0}, {300, 100}, {100, 100}, {100, 200}, {300, 200}, {300, 300}, {0, 300}}));
  Scene s(r);
  s.frame(0, {at(1, 200, 150), at(2, 50, 150), at(3, 200, 50), at(4, 200, 250), at(5, 100, 150)});
  // 1 in the notch: outside; 2, 3, 4 inside; 5 on the notch's edge: inside.
  EXPECT_EQ(s.engine.zone_counts()[0].count, 4u);
}

TEST(Zones, BoxAnchorCountsAnyOverlap) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), -1, 0, 0, Anchor::Box)));
  // Boxes 10x20: touching the left edge from outside (x1 = 200), 1 px away, containing the corner.
  s.frame(0, {TrackedBox{1, 190, 300, 10, 20}, TrackedBox{2, 189, 300, 10, 20}, TrackedBox{3, 395, 390, 10, 20},
              TrackedBox{4, 100, 100, 400, 400}});  // 4 contains the whole zone
  EXPECT_EQ(s.engine.zone_counts()[0].count, 3u);
}

TEST(Zones, OcclusionInsideKeepsMembershipUntilForgotten) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400))), options(2, 5));
  s.frame(0, {at(1, 300, 300)});
  for (int n = 1; n <= 4; ++n) {
    s.frame(n, {});  // occluded: still in
    EXPECT_EQ(s.engine.zone_counts()[0].count, 1u) << n;
  }
  s.frame(5, {});  // the 5th update in a row without it: it ends, its exit is reported
  EXPECT_EQ(s.engine.zone_counts()[0].count, 0u);
  ASSERT_EQ(s.all.size(), 2u);
  EXPECT_EQ(s.all[1].type, Type::ZoneExit);
  EXPECT_EQ(s.all[1].time, 5 * kFrame);
  // Seen again at frame 4 instead, it would have stayed one visit.
  Scene t(one_zone(zone("lot", square(200, 200, 400, 400))), options(2, 5));
  t.frame(0, {at(1, 300, 300)});
  for (int n = 1; n <= 3; ++n) t.frame(n, {});
  t.frame(4, {at(1, 310, 300)});
  for (int n = 5; n <= 8; ++n) t.frame(n, {});
  EXPECT_EQ(t.engine.zone_counts()[0].entered, 1u);
  EXPECT_EQ(t.all.size(), 1u);
}

TEST(Zones, EndedTracksExitInTrackIdOrder) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400))));
  s.frame(0, {at(9, 300, 300), at(4, 250, 300), at(6, 260, 300)});
  const std::vector<Event>& e = s.frame(1, {at(4, 250, 300)}, {}, {9, 6, 77});  // 77: unknown, ignored
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].type, Type::ZoneExit);
  EXPECT_EQ(e[0].track_id, 6u);
  EXPECT_EQ(e[1].track_id, 9u);
  EXPECT_EQ(e[1].occupancy, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  const std::size_t before = s.all.size();
  s.engine.end_tracks(5 * kFrame);
  ASSERT_EQ(s.engine.events().size(), 1u);
  EXPECT_EQ(s.engine.events()[0].track_id, 4u);
  EXPECT_EQ(s.engine.events()[0].time, 5 * kFrame);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 0u);
  EXPECT_EQ(s.engine.zone_counts()[0].entered, 3u);
  (void)before;
}

TEST(Zones, DwellOncePerVisit) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), 1.0)));  // 1 s = 10 frames
  int n = 0;
  for (; n < 25; ++n) s.frame(n, {at(1, 300, 300)});  // enter at 0, dwell at frame 10, once
  for (; n < 30; ++n) s.frame(n, {at(1, 500, 300)});  // out
  for (; n < 45; ++n) s.frame(n, {at(1, 300, 300)});  // second visit from 30: dwell at 40
  for (; n < 47; ++n) s.frame(n, {at(1, 500, 300)});
  for (; n < 52; ++n) s.frame(n, {at(1, 300, 300)});  // third visit, 5 frames: no dwell
  ASSERT_EQ(s.count(Type::Dwell), 2u);
  std::vector<std::int64_t> times;
  for (const Event& e : s.all)
    if (e.type == Type::Dwell) times.push_back(e.time);
  EXPECT_EQ(times[0], 10 * kFrame);
  EXPECT_EQ(times[1], 40 * kFrame);
  EXPECT_EQ(s.count(Type::ZoneEnter), 3u);
  EXPECT_EQ(s.count(Type::ZoneExit), 2u);
}

TEST(Zones, DwellWhileOccluded) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), 0.5)));
  s.frame(0, {at(1, 300, 300)});
  for (int n = 1; n <= 6; ++n) s.frame(n, {at(2, 700, 700)});  // 1 unseen from frame 1
  ASSERT_EQ(s.count(Type::Dwell), 1u);
  const Event& d = s.all.back();
  EXPECT_EQ(d.type, Type::Dwell);
  EXPECT_EQ(d.time, 5 * kFrame);
  EXPECT_EQ(d.track_id, 1u);
}

TEST(Zones, OvercrowdStartAndEndWithTiming) {
  // At or above 2 members for at least 0.3 s (3 frames).
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), -1, 2, 0.3)));
  auto inside = [](std::uint32_t id) { return at(id, 300, 300); };
  auto outside = [](std::uint32_t id) { return at(id, 600, 300); };
  s.frame(0, {inside(1), outside(2)});
  s.frame(1, {inside(1), inside(2)});  // 2 members from frame 1
  s.frame(2, {inside(1), inside(2)});
  s.frame(3, {inside(1), inside(2)});
  EXPECT_EQ(s.count(Type::OvercrowdStart), 0u);
  s.frame(4, {inside(1), inside(2)});  // 0.3 s held: start
  EXPECT_EQ(s.count(Type::OvercrowdStart), 1u);
  EXPECT_TRUE(s.engine.zone_counts()[0].overcrowded);
  EXPECT_EQ(s.all.back().type, Type::OvercrowdStart);
  EXPECT_EQ(s.all.back().time, 4 * kFrame);
  EXPECT_EQ(s.all.back().occupancy, 2u);
  EXPECT_EQ(s.all.back().track_id, 0u);
  s.frame(5, {inside(1), outside(2)});  // drops below: end
  EXPECT_EQ(s.count(Type::OvercrowdEnd), 1u);
  EXPECT_FALSE(s.engine.zone_counts()[0].overcrowded);
  // A short peak (2 frames) never starts one; the timer restarts.
  s.frame(6, {inside(1), inside(2)});
  s.frame(7, {inside(1), inside(2)});
  s.frame(8, {inside(1), outside(2)});
  s.frame(9, {inside(1), inside(2)});
  s.frame(10, {inside(1), inside(2)});
  s.frame(11, {inside(1), inside(2)});
  EXPECT_EQ(s.count(Type::OvercrowdStart), 1u);
  s.frame(12, {inside(1), inside(2)});
  EXPECT_EQ(s.count(Type::OvercrowdStart), 2u);
  // end_tracks ends it.
  s.engine.end_tracks(13 * kFrame);
  ASSERT_EQ(s.engine.events().size(), 3u);  // two exits, then the overcrowd end
  EXPECT_EQ(s.engine.events()[2].type, Type::OvercrowdEnd);
  EXPECT_EQ(s.engine.events()[2].occupancy, 0u);
}

TEST(Zones, OvercrowdWithZeroTimeStartsAtOnce) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), -1, 1, 0)));
  s.frame(0, {at(1, 300, 300)});
  EXPECT_EQ(s.count(Type::OvercrowdStart), 1u);
}

TEST(Zones, EnterWhileTentative) {
  Scene s(one_zone(zone("lot", square(200, 200, 400, 400), 0.2)));
  const std::vector<Sighting> history = {sighting_at(0, 150, 300), sighting_at(kFrame, 210, 300),
                                         sighting_at(2 * kFrame, 250, 300)};
  const std::vector<Event>& e = s.frame(3, {at(5, 280, 300)}, {TrackStart{5, history.data(), history.size()}});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].type, Type::ZoneEnter);
  EXPECT_EQ(e[0].at, kFrame);
  EXPECT_EQ(e[0].time, 3 * kFrame);
  EXPECT_EQ(e[1].type, Type::Dwell);  // entered 0.2 s before this frame
}

// ---- Rules ----

TEST(Rules, NormalizedRulesFollowTheFrameSize) {
  Rules r;
  r.normalized = true;
  r.lines.push_back(line("mid", {0, 0.5}, {1, 0.5}));
  r.zones.push_back(zone("left", square(0, 0, 0.5, 1)));
  Scene s(r, options(2));
  s.frame(0, {at(1, 100, 90)}, {}, {}, 400, 200);  // line y = 100, zone x <= 200
  s.frame(1, {at(1, 100, 110)}, {}, {}, 400, 200);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  // The frame doubles: line y = 200, zone x <= 400. The same box is now above the line, still in.
  s.frame(2, {at(1, 300, 190)}, {}, {}, 800, 400);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 0u);  // left now, but its motion did not touch y = 200
  s.frame(3, {at(1, 300, 210)}, {}, {}, 800, 400);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 2u);  // left -> right through the scaled line
  s.frame(4, {at(1, 300, 150)}, {}, {}, 800, 400);
  EXPECT_EQ(s.engine.line_counts()[0].backward, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  s.frame(5, {at(1, 500, 150)}, {}, {}, 800, 400);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 0u);
}

TEST(Rules, DefaultHysteresisIsOnePercentOfTheDiagonal) {
  Options o;  // hysteresis < 0: 1 % of hypot(300, 400) = 5 px
  Scene s(one_line({0, 100}, {300, 100}), o);
  s.frame(0, {at(1, 50, 90)}, {}, {}, 300, 400);
  s.frame(1, {at(1, 50, 104.9f)}, {}, {}, 300, 400);  // in the band
  EXPECT_EQ(s.engine.line_counts()[0].forward, 0u);
  s.frame(2, {at(1, 50, 105)}, {}, {}, 300, 400);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
}

TEST(Rules, SetRulesKeepsUnchangedRulesAndZeroesChangedOnes) {
  Rules r;
  r.lines.push_back(line("a", {0, 500}, {1000, 500}));
  r.lines.push_back(line("b", {0, 600}, {1000, 600}));
  r.zones.push_back(zone("z", square(0, 0, 1000, 550)));
  Scene s(r);
  s.frame(0, {at(1, 300, 450)});
  s.frame(1, {at(1, 300, 520)});  // crosses a
  EXPECT_EQ(s.engine.line_counts()[0].forward, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  // New rules: b moved (same name: starts at 0), a kept but now second, a new line c, the zone kept.
  Rules r2;
  r2.lines.push_back(line("c", {0, 530}, {1000, 530}));
  r2.lines.push_back(line("a", {0, 500}, {1000, 500}));
  r2.lines.push_back(line("b", {0, 610}, {1000, 610}));
  r2.zones = r.zones;
  s.engine.set_rules(r2);
  EXPECT_EQ(s.engine.rules().lines[1].name, "a");
  EXPECT_EQ(s.engine.line_counts()[1].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[0].forward, 0u);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  EXPECT_EQ(s.engine.zone_counts()[0].entered, 1u);
  const std::vector<Event>& e = s.frame(2, {at(1, 300, 620)});  // crosses c, b; a's side kept (right)
  EXPECT_EQ(s.engine.line_counts()[1].forward, 1u);
  EXPECT_EQ(s.engine.line_counts()[1].backward, 0u);
  // c and b are new: the track's side there is unknown until now, so no crossing yet.
  EXPECT_EQ(s.engine.line_counts()[0].forward, 0u);
  EXPECT_EQ(s.engine.line_counts()[2].forward, 0u);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].type, Type::ZoneExit);
  EXPECT_EQ(e[0].rule, 0u);
  s.frame(3, {at(1, 300, 450)});  // back up through all three: indices of the new rules
  ASSERT_EQ(s.engine.events().size(), 4u);
  EXPECT_EQ(s.engine.events()[0].rule, 0u);
  EXPECT_EQ(s.engine.events()[1].rule, 1u);
  EXPECT_EQ(s.engine.events()[2].rule, 2u);
  EXPECT_EQ(s.engine.events()[3].type, Type::ZoneEnter);
  // A changed zone (same name, other polygon) starts empty: the member enters it again.
  Rules r3 = r2;
  r3.zones[0].polygon = square(0, 0, 1000, 560);
  s.engine.set_rules(r3);
  EXPECT_EQ(s.engine.zone_counts()[0].count, 0u);
  EXPECT_EQ(s.engine.zone_counts()[0].entered, 0u);
  s.frame(4, {at(1, 300, 450)});
  EXPECT_EQ(s.engine.zone_counts()[0].count, 1u);
  EXPECT_EQ(s.engine.line_counts()[1].backward, 1u);
  // Removing every rule gives no events.
  s.engine.set_rules(Rules{});
  s.frame(5, {at(1, 300, 900)});
  EXPECT_TRUE(s.engine.events().empty());
}

TEST(Rules, ValidateNamesTheRuleAndTheField) {
  auto check = [](const Rules& r) { return validate(r); };
  Rules ok;
  ok.lines.push_back(line("door", {0, 0}, {10, 0}));
  ok.zones.push_back(zone("lot", square(0, 0, 10, 10), 2.0, 3, 1.0));
  EXPECT_EQ(check(ok), "");
  Rules r = ok;
  r.lines[0].to = r.lines[0].from;
  EXPECT_EQ(check(r), "line \"door\": \"to\" equals \"from\"");
  r = ok;
  r.lines[0].name = "";
  EXPECT_EQ(check(r), "line #1: \"name\" is empty");
  r = ok;
  r.lines.push_back(line("door", {0, 5}, {10, 5}));
  EXPECT_EQ(check(r), "line \"door\": \"name\" is used by another line");
  r = ok;
  r.lines[0].from.x = std::nan("");
  EXPECT_EQ(check(r), "line \"door\": \"from\" is not finite");
  r = ok;
  r.zones[0].polygon.resize(2);
  EXPECT_EQ(check(r), "zone \"lot\": \"polygon\" needs at least 3 points");
  r = ok;
  r.zones[0].polygon = {{0, 0}, {5, 5}, {10, 10}};
  EXPECT_EQ(check(r), "zone \"lot\": \"polygon\" has all its points on one line (no area)");
  r = ok;
  r.zones[0].polygon[2].y = INFINITY;
  EXPECT_EQ(check(r), "zone \"lot\": \"polygon\" point 3 is not finite");
  r = ok;
  r.zones[0].dwell = INFINITY;
  EXPECT_EQ(check(r), "zone \"lot\": \"dwell\" is not finite");
  r = ok;
  r.zones[0].overcrowd_time = -1;
  EXPECT_EQ(check(r), "zone \"lot\": \"overcrowd-time\" is negative");
  r = ok;
  r.zones.push_back(zone("lot", square(0, 0, 5, 5)));
  EXPECT_EQ(check(r), "zone \"lot\": \"name\" is used by another zone");
  r = ok;
  r.zones.push_back(zone("lot2", square(0, 0, 5, 5)));
  r.lines.push_back(line("lot2", {0, 5}, {10, 5}));  // a line and a zone may share a name
  EXPECT_EQ(check(r), "");
  r = ok;
  r.normalized = true;
  EXPECT_EQ(check(r), "line \"door\": \"to\" is outside 0..1 (the rules are normalized)");
  r.lines[0].to = {1, 0};
  EXPECT_EQ(check(r), "zone \"lot\": \"polygon\" point 2 is outside 0..1 (the rules are normalized)");
  SceneAnalytics engine;
  r = ok;
  r.zones[0].polygon.resize(2);
  EXPECT_THROW(engine.set_rules(r), std::invalid_argument);
}

}  // namespace
