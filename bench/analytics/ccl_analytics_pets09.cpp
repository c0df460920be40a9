// ccl-analytics-pets09: line crossings and zone visits on MOT15 PETS09-S2L1 (768x576, 7 fps), three
// lines and two zones at fixed places on the plaza, bottom-center anchor, default hysteresis
// (1 % of the diagonal, 9.6 px). Counts:
//   truth      an independent simple count here (per gt track, its rows in order; no engine code)
//   gt ids     the engine fed the gt boxes with the gt ids (rows with flag != 0)
//   tracker    the engine fed the gt boxes through the tracker core (default options, its ids;
//              each confirmed track's tentative boxes from the tracker's trail as `started`)
//   det        the engine fed det.txt through the tracker (scores as in ccl-track-mot)
// and the count error of each against the truth. Exit status 1 when gt ids or tracker differ from
// the truth. Usage: ccl-analytics-pets09 GT_TXT DET_TXT
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analytics/scene.hpp"
#include "mot_metrics.hpp"
#include "tracker/tracker.hpp"

namespace {

using namespace ccl::scene;

constexpr unsigned kW = 768, kH = 576;
constexpr std::int64_t kFrameNs = 142857143;  // 7 fps

Rules plaza_rules() {
  Rules r;
  auto line = [&](const char* name, Point from, Point to) {
    LineRule l;
    l.name = name, l.from = from, l.to = to;
    r.lines.push_back(l);
  };
  line("middle", {400, 150}, {400, 576});  // vertical, directed down: forward = walking left
  line("right", {620, 200}, {620, 450});   // vertical, directed down: forward = walking left
  line("across", {150, 300}, {700, 300});  // horizontal, directed right: forward = walking down
  auto zone = [&](const char* name, std::vector<Point> polygon) {
    ZoneRule z;
    z.name = name, z.polygon = std::move(polygon);
    r.zones.push_back(z);
  };
  zone("centre", {{300, 220}, {520, 220}, {560, 380}, {260, 380}});
  zone("east", {{560, 250}, {700, 250}, {700, 420}, {560, 420}});  // off the edge: see BENCHMARKS.md
  return r;
}

struct Counts {
  std::vector<std::uint64_t> forward, backward, visits;
  std::vector<std::uint64_t> visitors;  // distinct track ids that entered, per zone (truth, tracker runs)
};

// ---- The independent count: per track, its bottom-center points in order. ----

struct P {
  double x, y;
};
double orient(P a, P b, P c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }
bool between(double a, double b, double v) { return std::fmin(a, b) <= v && v <= std::fmax(a, b); }
bool touches(P a, P b, P c, P d) {  // closed segments a-b and c-d meet
  const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  auto on = [](P s, P e, P p) { return orient(s, e, p) == 0 && between(s.x, e.x, p.x) && between(s.y, e.y, p.y); };
  return on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b);
}
bool in_polygon(P p, const std::vector<Point>& poly) {
  bool in = false;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const P a{poly[i].x, poly[i].y}, b{poly[(i + 1) % poly.size()].x, poly[(i + 1) % poly.size()].y};
    if (orient(a, b, p) == 0 && between(a.x, b.x, p.x) && between(a.y, b.y, p.y)) return true;
    if ((a.y <= p.y) != (b.y <= p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) in = !in;
  }
  return in;
}

// The distance from p to the nearest point of the polygon's edges (the nearest point of each edge:
// the foot of the perpendicular, clamped to the edge).
double edge_distance(P p, const std::vector<Point>& poly) {
  double best = INFINITY;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const P a{poly[i].x, poly[i].y}, b{poly[(i + 1) % poly.size()].x, poly[(i + 1) % poly.size()].y};
    const double ex = b.x - a.x, ey = b.y - a.y;
    const double t = std::fmax(0.0, std::fmin(1.0, ((p.x - a.x) * ex + (p.y - a.y) * ey) / (ex * ex + ey * ey)));
    best = std::fmin(best, std::hypot(p.x - (a.x + t * ex), p.y - (a.y + t * ey)));
  }
  return best;
}

Counts truth_count(const Rules& rules, const std::map<long, std::vector<motmetrics::Row>>& tracks) {
  const double h = 0.01 * std::hypot(double(kW), double(kH));
  Counts c{std::vector<std::uint64_t>(rules.lines.size()), std::vector<std::uint64_t>(rules.lines.size()),
           std::vector<std::uint64_t>(rules.zones.size()), {}};
  std::vector<std::set<long>> visitors(rules.zones.size());
  for (const auto& [id, rows] : tracks) {
    std::vector<P> path;
    for (const motmetrics::Row& r : rows) path.push_back({r.x + r.w / 2, r.y + r.h});
    for (std::size_t l = 0; l < rules.lines.size(); ++l) {
      const P a{rules.lines[l].from.x, rules.lines[l].from.y}, b{rules.lines[l].to.x, rules.lines[l].to.y};
      const double len = std::hypot(b.x - a.x, b.y - a.y);
      int side = 0;
      bool touched = false;
      for (std::size_t k = 0; k < path.size(); ++k) {
        if (k > 0 && touches(path[k - 1], path[k], a, b)) touched = true;
        const double d = orient(a, b, path[k]) / len;
        const int now = d >= h && d > 0 ? 1 : d <= -h && d < 0 ? -1 : 0;
        if (now == 0) continue;
        if (touched && side == -now) ++(now > 0 ? c.forward : c.backward)[l];
        side = now, touched = false;
      }
    }
    for (std::size_t z = 0; z < rules.zones.size(); ++z) {
      // A visit starts in (or on) the zone and ends only once out by at least h (as the engine's README).
      bool in = false;
      for (const P& p : path) {
        const std::vector<Point>& poly = rules.zones[z].polygon;
        if (!in && in_polygon(p, poly)) {
          ++c.visits[z], in = true;
          visitors[z].insert(id);
        } else if (in && !in_polygon(p, poly) && edge_distance(p, poly) >= h) {
          in = false;
        }
      }
    }
  }
  for (const auto& v : visitors) c.visitors.push_back(v.size());
  return c;
}

Counts engine_counts(const SceneAnalytics& e) {
  Counts c;
  for (const LineCounts& l : e.line_counts()) c.forward.push_back(l.forward), c.backward.push_back(l.backward);
  for (const ZoneCounts& z : e.zone_counts()) c.visits.push_back(z.entered);
  return c;
}

// ---- The engine on gt ids ----

Counts run_gt_ids(const Rules& rules, const std::map<int, std::vector<motmetrics::Row>>& frames, int last_frame,
                  const std::map<long, std::vector<motmetrics::Row>>& tracks) {
  Options o;
  o.forget_after = 100000;  // gt tracks end at their last row (below), across the gaps of flag-0 rows
  SceneAnalytics engine(o);
  engine.set_rules(rules);
  std::map<int, std::vector<std::uint32_t>> ends;  // frame -> ids whose last row was the frame before
  for (const auto& [id, rows] : tracks) ends[rows.back().frame + 1].push_back(std::uint32_t(id));
  std::vector<TrackedBox> objects;
  for (int f = 1; f <= last_frame; ++f) {
    objects.clear();
    auto it = frames.find(f);
    if (it != frames.end())
      for (const motmetrics::Row& r : it->second)
        objects.push_back({std::uint32_t(r.id), float(r.x), float(r.y), float(r.w), float(r.h)});
    const std::vector<std::uint32_t>& ended = ends[f];
    Frame frame;
    frame.time = std::int64_t(f - 1) * kFrameNs;
    frame.width = kW, frame.height = kH;
    frame.objects = objects.data(), frame.n_objects = objects.size();
    frame.ended = ended.data(), frame.n_ended = ended.size();
    engine.update(frame);
  }
  engine.end_tracks(std::int64_t(last_frame) * kFrameNs);
  return engine_counts(engine);
}

// ---- The engine on the tracker's ids ----

Counts run_tracker(const Rules& rules, const std::map<int, std::vector<motmetrics::Row>>& frames, int last_frame,
                   bool scores) {
  std::vector<std::set<std::uint32_t>> visitors(rules.zones.size());
  ccl::track::Tracker tracker;
  Options o;
  o.forget_after = tracker.options().max_misses + 1;  // the tracker's Ended comes first
  SceneAnalytics engine(o);
  engine.set_rules(rules);
  std::vector<ccl::track::Detection> detections;
  std::vector<std::uint32_t> ids, ended;
  std::vector<TrackedBox> objects;
  std::vector<std::vector<Sighting>> histories;
  std::vector<TrackStart> started;
  std::vector<ccl::track::TrailPoint> trail;
  for (int f = 1; f <= last_frame; ++f) {
    detections.clear();
    auto it = frames.find(f);
    if (it != frames.end())
      for (const motmetrics::Row& r : it->second) {
        ccl::track::Detection d;
        d.box = {float(r.x), float(r.y), float(r.w), float(r.h)};
        d.area = std::uint32_t(r.w * r.h);
        d.centroid_x = d.box.center_x(), d.centroid_y = d.box.center_y();
        if (scores) d.score = float(r.flag);
        detections.push_back(d);
      }
    ids.assign(detections.size(), 0);
    const std::int64_t now = std::int64_t(f - 1) * kFrameNs;
    tracker.update(detections.data(), detections.size(), now, ids.data());
    objects.clear(), ended.clear(), histories.clear(), started.clear();
    // What cclanalytics reads from ccltracker's GstCclTracksMeta: every located track at its box
    // (one hidden in another's detection at its part of it).
    for (const ccl::track::Track& t : tracker.tracks())
      if (t.located()) objects.push_back({t.id, t.shown.x, t.shown.y, t.shown.width, t.shown.height});
    for (const ccl::track::Event& e : tracker.events()) {
      if (e.kind == ccl::track::Event::Kind::Ended) ended.push_back(e.id);
      if (e.kind != ccl::track::Event::Kind::Started) continue;
      // The tentative sightings: the trail's centroids before now, with the confirmed box's size.
      for (const ccl::track::Track& t : tracker.tracks())
        if (t.id == e.id) {
          tracker.trail(t, &trail);
          histories.emplace_back();
          for (const ccl::track::TrailPoint& p : trail)
            if (p.time < now)
              histories.back().push_back({p.time, p.x - t.box.width / 2, p.y - t.box.height / 2, t.box.width, t.box.height});
        }
    }
    std::size_t k = 0;
    for (const ccl::track::Event& e : tracker.events())
      if (e.kind == ccl::track::Event::Kind::Started && k < histories.size())
        started.push_back({e.id, histories[k].data(), histories[k].size()}), ++k;
    Frame frame;
    frame.time = now;
    frame.width = kW, frame.height = kH;
    frame.objects = objects.data(), frame.n_objects = objects.size();
    frame.started = started.data(), frame.n_started = started.size();
    frame.ended = ended.data(), frame.n_ended = ended.size();
    engine.update(frame);
    for (const Event& e : engine.events())
      if (e.type == Event::Type::ZoneEnter) visitors[e.rule].insert(e.track_id);
  }
  engine.end_tracks(std::int64_t(last_frame) * kFrameNs);
  Counts c = engine_counts(engine);
  for (const auto& v : visitors) c.visitors.push_back(v.size());
  return c;
}

bool same(const Counts& a, const Counts& b) {
  return a.forward == b.forward && a.backward == b.backward && a.visits == b.visits;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s GT_TXT DET_TXT\n", argv[0]);
    return 2;
  }
  std::vector<motmetrics::Row> gt_rows, det_rows;
  if (!motmetrics::read_mot(argv[1], &gt_rows) || !motmetrics::read_mot(argv[2], &det_rows)) {
    std::fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  const Rules rules = plaza_rules();
  const std::string problem = validate(rules);
  if (!problem.empty()) {
    std::fprintf(stderr, "%s\n", problem.c_str());
    return 1;
  }
  std::map<int, std::vector<motmetrics::Row>> gt_frames, det_frames;
  std::map<long, std::vector<motmetrics::Row>> gt_tracks;
  int last_frame = 0;
  for (const motmetrics::Row& r : gt_rows) {
    last_frame = std::max(last_frame, r.frame);
    if (r.flag == 0) continue;  // ignored boxes (MOT15 "consider" flag)
    gt_frames[r.frame].push_back(r);
    gt_tracks[r.id].push_back(r);
  }
  for (const motmetrics::Row& r : det_rows) {
    last_frame = std::max(last_frame, r.frame);
    det_frames[r.frame].push_back(r);
  }
  for (auto& [id, rows] : gt_tracks)
    std::stable_sort(rows.begin(), rows.end(), [](const motmetrics::Row& a, const motmetrics::Row& b) { return a.frame < b.frame; });

  const Counts truth = truth_count(rules, gt_tracks);
  const Counts by_gt = run_gt_ids(rules, gt_frames, last_frame, gt_tracks);
  const Counts by_tracker = run_tracker(rules, gt_frames, last_frame, false);
  const Counts by_det = run_tracker(rules, det_frames, last_frame, true);

  std::printf("PETS09-S2L1 (%d frames, %zu gt tracks), bottom-center anchor, hysteresis 9.6 px\n", last_frame,
              gt_tracks.size());
  std::printf("%-22s %7s %7s %9s %9s %11s\n", "rule", "truth", "gt ids", "tracker", "det", "det error");
  auto row = [&](const std::string& name, std::uint64_t t, std::uint64_t g, std::uint64_t k, std::uint64_t d) {
    std::printf("%-22s %7llu %7llu %9llu %9llu %+11lld\n", name.c_str(), (unsigned long long)t, (unsigned long long)g,
                (unsigned long long)k, (unsigned long long)d, (long long)d - (long long)t);
  };
  std::uint64_t total_truth = 0, total_abs_error = 0;
  for (std::size_t l = 0; l < rules.lines.size(); ++l) {
    row("line " + rules.lines[l].name + " forward", truth.forward[l], by_gt.forward[l], by_tracker.forward[l], by_det.forward[l]);
    row("line " + rules.lines[l].name + " backward", truth.backward[l], by_gt.backward[l], by_tracker.backward[l],
        by_det.backward[l]);
    total_truth += truth.forward[l] + truth.backward[l];
    total_abs_error += std::uint64_t(std::llabs((long long)by_det.forward[l] - (long long)truth.forward[l])) +
                       std::uint64_t(std::llabs((long long)by_det.backward[l] - (long long)truth.backward[l]));
  }
  for (std::size_t z = 0; z < rules.zones.size(); ++z) {
    row("zone " + rules.zones[z].name + " visits", truth.visits[z], by_gt.visits[z], by_tracker.visits[z], by_det.visits[z]);
    total_truth += truth.visits[z];
    total_abs_error += std::uint64_t(std::llabs((long long)by_det.visits[z] - (long long)truth.visits[z]));
  }
  std::printf("det: sum of |count error| %llu over %llu true counts\n", (unsigned long long)total_abs_error,
              (unsigned long long)total_truth);
  for (std::size_t z = 0; z < rules.zones.size(); ++z)
    std::printf("det: zone %s: %llu visits by %llu distinct track ids (truth: %llu visits by %llu of the %zu people)\n",
                rules.zones[z].name.c_str(), (unsigned long long)by_det.visits[z],
                (unsigned long long)by_det.visitors[z], (unsigned long long)truth.visits[z],
                (unsigned long long)truth.visitors[z], gt_tracks.size());
  const bool gt_ok = same(truth, by_gt), tracker_ok = same(truth, by_tracker);
  std::printf("gt ids == truth: %s; tracker on gt boxes == truth: %s\n", gt_ok ? "yes" : "NO", tracker_ok ? "yes" : "NO");
  return gt_ok && tracker_ok ? 0 : 1;
}
