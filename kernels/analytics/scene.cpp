// SceneAnalytics: per-track line sides and zone memberships in flat per-slot arrays, the rules'
// geometry in pixels. Semantics: kernels/analytics/README.md.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "analytics/geometry.hpp"
#include "analytics/id_map.hpp"
#include "analytics/scene.hpp"

namespace ccl::scene {

namespace {

enum Side : std::int8_t { kUnknown = 0, kLeft = -1, kRight = 1 };

struct LineState {
  std::int8_t side = kUnknown;
  bool touched = false;  // the anchor touched the segment since the last commit
};

struct ZoneState {
  bool member = false;
  bool dwell_done = false;  // this visit's dwell event was given
  std::int64_t enter_time = 0;
};

// How far (per axis, the larger) a point or box must move to touch r; 0 when it does.
double gap(const geom::Rect& a, const geom::Rect& r) {
  const double gx = std::max(a.x0 - r.x1, r.x0 - a.x1), gy = std::max(a.y0 - r.y1, r.y0 - a.y1);
  return std::max(0.0, std::max(gx, gy));
}

// A line rule in frame pixels.
struct Line {
  Point from, to;
  double dx = 0, dy = 0;  // to - from, so cross() below rounds as geom::cross does
  double length = 1;
  // |cross| above thr_hi surely gives |d| >= h, below thr_lo surely |d| < h (d = cross / length);
  // only between the two is the division done (rarely), so the band's edge is exactly where documented.
  double thr_hi = 0, thr_lo = 0;
  geom::Rect bounds;
  Anchor anchor = Anchor::BottomCenter;

  double cross(const Point& p) const { return dx * (p.y - from.y) - dy * (p.x - from.x); }
};

// A zone rule in frame pixels.
struct Zone {
  std::vector<Point> polygon;
  geom::Rect bounds;
  Anchor anchor = Anchor::BottomCenter;
  bool dwell_on = false;
  double dwell_ns = 0, overcrowd_ns = 0;
  unsigned max_objects = 0;
};

struct OvercrowdTimer {
  bool running = false;
  std::int64_t since = 0;
};

// One sighting of a track, with the one before it (has_prev) and the track's travel so far.
struct Step {
  std::int64_t time = 0;
  double x = 0, y = 0, w = 0, h = 0;
  bool has_prev = false;  // not the track's first sighting
  double px = 0, py = 0, pw = 0, ph = 0;  // the sighting before
  double odometer = 0;    // the track's travel so far, bounding every anchor's (L1, pixels)

  void set(std::int64_t t, double x_, double y_, double w_, double h_) {
    time = t, x = x_, y = y_, w = w_, h = h_;
    has_prev = false;
    odometer = 0;
  }
  void set_prev(const Step& prev) {
    has_prev = true;
    px = prev.x, py = prev.y, pw = prev.w, ph = prev.h;
    // Every corner, the centre and the bottom-center move by at most |dx| + |dy| + |dw| + |dh| (L1).
    odometer = prev.odometer + std::abs(x - px) + std::abs(y - py) + std::abs(w - pw) + std::abs(h - ph);
  }
  static Point anchor(double x, double y, double w, double h, Anchor a) {
    return a == Anchor::Center ? Point{x + w / 2, y + h / 2} : Point{x + w / 2, y + h};
  }
  Point point(Anchor a) const { return anchor(x, y, w, h, a); }
  Point prev_point(Anchor a) const { return anchor(px, py, pw, ph, a); }
  geom::Rect box() const { return {x, y, x + w, y + h}; }
};

// The side a signed distance d commits to with hysteresis h (never on the line itself).
Side side_of(double d, double h) {
  if (d >= h && d > 0) return kRight;
  if (d <= -h && d < 0) return kLeft;
  return kUnknown;
}

// side_of(cross / length, h) without the division away from the band's edge.
Side side_of_cross(double c, const Line& line, double h) {
  if (c > line.thr_hi) return kRight;
  if (c < -line.thr_hi) return kLeft;
  if (c < line.thr_lo && c > -line.thr_lo) return kUnknown;
  return side_of(c / line.length, h);
}

}  // namespace

struct SceneAnalytics::State {
  struct Track {
    std::uint32_t id = 0;
    bool live = false;
    bool has_box = false;  // seen at least once: box is its last sighting
    bool ending = false;
    double odometer = 0;  // travel of its box so far (Step::odometer)
    unsigned memberships = 0;  // zones it is in (0: no dwell to check)
    unsigned misses = 0;   // updates in a row without a sighting
    std::uint64_t seen = 0;  // the update (stamp) it was last seen in
    std::int64_t last_time = 0;
    double x = 0, y = 0, w = 0, h = 0;
  };

  std::vector<Line> lines;
  std::vector<Zone> zones;
  std::vector<OvercrowdTimer> timers;  // per zone
  bool geometry_valid = false;
  unsigned width = 0, height = 0;  // the frame size the geometry was scaled for
  double hysteresis = 0;           // pixels

  std::vector<Track> tracks;  // per slot
  std::vector<std::uint32_t> free_slots;
  std::vector<LineState> line_states;  // slot * lines.size() + line
  std::vector<ZoneState> zone_states;  // slot * zones.size() + zone
  // Per (slot, rule): while the track's odometer stays below this, its anchor cannot have reached
  // the line (touch it or pass to its other side) or a place where its zone membership changes
  // (a non-member: the zone; a member: out by h) since the rule was last evaluated for it, so an
  // evaluation could change nothing: skipped. -1: evaluate (members of a Box zone always are).
  std::vector<double> line_skip, zone_skip;
  IdMap slot_of;
  std::uint64_t stamp = 0;

  // Per-update scratch (sizes settle, then nothing is allocated).
  std::vector<std::pair<std::uint32_t, std::size_t>> started;  // (id, index into Frame::started), by id
  std::vector<std::uint32_t> ending;                           // slots, ordered by id
  std::vector<std::int32_t> object_slots;  // per object: its slot found before the ends, or -1
  std::vector<Step> steps;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> late_dwells;  // (track id, zone)

  std::uint32_t take_slot(std::uint32_t id) {
    std::uint32_t slot;
    if (!free_slots.empty()) {
      slot = free_slots.back();
      free_slots.pop_back();
    } else {
      slot = std::uint32_t(tracks.size());
      tracks.emplace_back();
      line_states.resize(tracks.size() * lines.size());
      zone_states.resize(tracks.size() * zones.size());
      line_skip.resize(line_states.size());
      zone_skip.resize(zone_states.size());
    }
    tracks[slot] = Track{};
    tracks[slot].id = id;
    tracks[slot].live = true;
    std::fill_n(line_states.begin() + std::ptrdiff_t(slot * lines.size()), lines.size(), LineState{});
    std::fill_n(zone_states.begin() + std::ptrdiff_t(slot * zones.size()), zones.size(), ZoneState{});
    std::fill_n(line_skip.begin() + std::ptrdiff_t(slot * lines.size()), lines.size(), -1.0);
    std::fill_n(zone_skip.begin() + std::ptrdiff_t(slot * zones.size()), zones.size(), -1.0);
    slot_of.insert(id, slot);
    return slot;
  }

  void free_slot(std::uint32_t slot) {
    slot_of.erase(tracks[slot].id);
    tracks[slot].live = false;
    free_slots.push_back(slot);
  }
};

SceneAnalytics::SceneAnalytics(const Options& options) : options_(options), state_(std::make_unique<State>()) {}

SceneAnalytics::~SceneAnalytics() = default;

void SceneAnalytics::set_options(const Options& options) {
  options_ = options;
  state_->geometry_valid = false;  // the hysteresis may change
}

void SceneAnalytics::set_rules(const Rules& rules) {
  const std::string problem = validate(rules);
  if (!problem.empty()) throw std::invalid_argument("invalid analytics rules: " + problem);
  State& s = *state_;
  // Old index of each new rule that equals an old one (same name, every field equal), else -1.
  auto match = [](const auto& old_rules, const auto& new_rules) {
    std::map<std::string, std::size_t> old_by_name;
    for (std::size_t i = 0; i < old_rules.size(); ++i) old_by_name.emplace(old_rules[i].name, i);
    std::vector<std::ptrdiff_t> kept(new_rules.size(), -1);
    for (std::size_t i = 0; i < new_rules.size(); ++i) {
      auto it = old_by_name.find(new_rules[i].name);
      if (it != old_by_name.end() && old_rules[it->second] == new_rules[i]) kept[i] = std::ptrdiff_t(it->second);
    }
    return kept;
  };
  // Normalized and pixel rules never share geometry, so a switch of units keeps nothing.
  const bool same_units = rules.normalized == rules_.normalized;
  std::vector<std::ptrdiff_t> kept_lines = match(rules_.lines, rules.lines);
  std::vector<std::ptrdiff_t> kept_zones = match(rules_.zones, rules.zones);
  if (!same_units) {
    std::fill(kept_lines.begin(), kept_lines.end(), -1);
    std::fill(kept_zones.begin(), kept_zones.end(), -1);
  }

  const std::size_t n_slots = s.tracks.size(), old_nl = rules_.lines.size(), old_nz = rules_.zones.size();
  const std::size_t nl = rules.lines.size(), nz = rules.zones.size();
  std::vector<LineState> line_states(n_slots * nl);
  std::vector<ZoneState> zone_states(n_slots * nz);
  std::vector<LineCounts> line_counts(nl);
  std::vector<ZoneCounts> zone_counts(nz);
  std::vector<OvercrowdTimer> timers(nz);
  for (std::size_t l = 0; l < nl; ++l) {
    if (kept_lines[l] < 0) continue;
    const std::size_t o = std::size_t(kept_lines[l]);
    line_counts[l] = line_counts_[o];
    for (std::size_t t = 0; t < n_slots; ++t) line_states[t * nl + l] = s.line_states[t * old_nl + o];
  }
  for (std::size_t z = 0; z < nz; ++z) {
    if (kept_zones[z] < 0) continue;
    const std::size_t o = std::size_t(kept_zones[z]);
    zone_counts[z] = zone_counts_[o];
    timers[z] = s.timers[o];
    for (std::size_t t = 0; t < n_slots; ++t) zone_states[t * nz + z] = s.zone_states[t * old_nz + o];
  }
  rules_ = rules;
  s.line_states.swap(line_states);
  s.zone_states.swap(zone_states);
  s.line_skip.assign(s.line_states.size(), -1.0);
  s.zone_skip.assign(s.zone_states.size(), -1.0);
  for (std::size_t t = 0; t < n_slots; ++t) {  // memberships of the kept zones only
    s.tracks[t].memberships = 0;
    for (std::size_t z = 0; z < nz; ++z) s.tracks[t].memberships += s.zone_states[t * nz + z].member;
  }
  s.timers.swap(timers);
  line_counts_.swap(line_counts);
  zone_counts_.swap(zone_counts);
  s.lines.assign(nl, Line{});
  s.zones.assign(nz, Zone{});
  s.geometry_valid = false;
  events_.clear();  // their indices were the old rules'
}

// Scales the rules to the frame's pixels and sets the hysteresis (when the size or rules changed).
static void scale_geometry(const Rules& rules, const Options& options, unsigned width, unsigned height,
                           std::vector<Line>* lines, std::vector<Zone>* zones, double* hysteresis) {
  const double sx = rules.normalized ? double(width) : 1.0, sy = rules.normalized ? double(height) : 1.0;
  auto scaled = [&](const Point& p) { return Point{p.x * sx, p.y * sy}; };
  for (std::size_t i = 0; i < rules.lines.size(); ++i) {
    const LineRule& r = rules.lines[i];
    Line& l = (*lines)[i];
    l.from = scaled(r.from), l.to = scaled(r.to);
    l.dx = l.to.x - l.from.x, l.dy = l.to.y - l.from.y;
    l.length = std::hypot(l.dx, l.dy);
    l.bounds = geom::bounds(l.from, l.to);
    l.anchor = r.anchor;
  }
  for (std::size_t i = 0; i < rules.zones.size(); ++i) {
    const ZoneRule& r = rules.zones[i];
    Zone& z = (*zones)[i];
    z.polygon.resize(r.polygon.size());
    for (std::size_t k = 0; k < r.polygon.size(); ++k) z.polygon[k] = scaled(r.polygon[k]);
    z.bounds = geom::bounds(z.polygon.data(), z.polygon.size());
    z.anchor = r.anchor;
    z.dwell_on = r.dwell >= 0;
    z.dwell_ns = r.dwell * 1e9;
    z.overcrowd_ns = r.overcrowd_time * 1e9;
    z.max_objects = r.max_objects;
  }
  *hysteresis = options.hysteresis >= 0 ? options.hysteresis
                                        : 0.01 * std::hypot(double(width), double(height));
  for (Line& l : *lines) {
    // 1e-9 is far above the relative rounding of h * length and of cross / length (2^-53 each).
    const double thr = *hysteresis * l.length;
    l.thr_hi = thr * (1 + 1e-9), l.thr_lo = thr * (1 - 1e-9);
  }
}

namespace {

// Where one sighting's events go.
struct Output {
  std::vector<Event>* events;
  std::vector<LineCounts>* line_counts;
  std::vector<ZoneCounts>* zone_counts;
};

// One sighting of track `id` against line l: its crossing, the track's new state, and how long
// the line can now be skipped for it.
void evaluate_line(const Line& line, double hysteresis, std::size_t l, LineState& ls, double* skip, const Step& cur,
                   std::uint32_t id, std::int64_t now, const Output& out) {
  Side side;
  double distance;  // |d| of the anchor (Box: of its nearest corner)
  if (line.anchor == Anchor::Box) {
    // The corners' cross products are y-terms minus x-terms; rounding is monotonic, so the least
    // and greatest of the four come from the extreme terms.
    const geom::Rect box = cur.box();
    const double tx0 = line.dy * (box.x0 - line.from.x), tx1 = line.dy * (box.x1 - line.from.x);
    const double ty0 = line.dx * (box.y0 - line.from.y), ty1 = line.dx * (box.y1 - line.from.y);
    const double least = std::min(ty0, ty1) - std::max(tx0, tx1);
    const double most = std::max(ty0, ty1) - std::min(tx0, tx1);
    side = side_of_cross(least, line, hysteresis) == kRight  ? kRight
           : side_of_cross(most, line, hysteresis) == kLeft ? kLeft
                                                               : kUnknown;
    distance = std::min(std::abs(least), std::abs(most)) / line.length;
    if (box.overlaps(line.bounds) && geom::rect_intersects_segment(box, line.from, line.to)) ls.touched = true;
    if (cur.has_prev) {
      const Point p = cur.point(Anchor::Center), q = cur.prev_point(Anchor::Center);
      if (geom::bounds(q, p).overlaps(line.bounds) && geom::segments_intersect(q, p, line.from, line.to))
        ls.touched = true;
    }
  } else {
    const Point p = cur.point(line.anchor);
    const double c = line.cross(p);
    side = side_of_cross(c, line, hysteresis);
    distance = std::abs(c) / line.length;
    if (cur.has_prev) {
      const Point q = cur.prev_point(line.anchor);
      if (geom::bounds(q, p).overlaps(line.bounds) && geom::segments_intersect(q, p, line.from, line.to))
        ls.touched = true;
    }
  }
  if (side == kUnknown) {  // in the band: nothing commits
    *skip = -1;
    return;
  }
  // The anchor (every corner) is `distance` from the line: until the track has travelled that far
  // it cannot touch the segment nor reach the other side, so every evaluation would at most leave
  // the side as it is (margins for rounding).
  *skip = cur.odometer + distance * (1 - 1e-9) - 1e-3;
  if (ls.touched && ls.side == -side) {
    const Direction d = side == kRight ? Direction::Forward : Direction::Backward;
    (d == Direction::Forward ? (*out.line_counts)[l].forward : (*out.line_counts)[l].backward)++;
    out.events->push_back(Event{Event::Type::LineCross, std::uint32_t(l), id, d, now, cur.time, 0});
  }
  ls.side = side;
  ls.touched = false;
}

// One sighting of track `id` against zone z: its enter or exit, the membership, and how long the
// zone can now be skipped for it. A non-member enters when its anchor is in (or on) the zone; a
// member exits only once it is out by at least the hysteresis h (README, Zones).
void evaluate_zone(const Zone& zone, double h, std::size_t z, ZoneState& zs, double* skip, unsigned* memberships,
                   const Step& cur, std::uint32_t id, std::int64_t now, const Output& out) {
  const Point* polygon = zone.polygon.data();
  const std::size_t n = zone.polygon.size();
  bool inside = zs.member;  // the membership after this sighting
  if (zone.anchor == Anchor::Box) {
    const geom::Rect box = cur.box();
    // A member stays while its box grown by h on every side still meets the polygon.
    const geom::Rect test = zs.member ? geom::Rect{box.x0 - h, box.y0 - h, box.x1 + h, box.y1 + h} : box;
    inside = test.overlaps(zone.bounds) && geom::rect_intersects_polygon(test, polygon, n);
    // A non-member is skipped until it may have reached the bounding box; a member never.
    *skip = inside ? -1 : cur.odometer + gap(box, zone.bounds) - 1e-3;
  } else {
    const Point p = cur.point(zone.anchor);
    const double g = gap(geom::Rect{p.x, p.y, p.x, p.y}, zone.bounds);  // > 0: outside the bounding box
    if (g > 0 && (!zs.member || g >= h)) {
      // Out, and a member at least g >= h from the polygon: out until it may reach the bounding box.
      inside = false;
      *skip = cur.odometer + g - 1e-3;
    } else {
      const double d2 = geom::squared_distance_to_boundary(p, polygon, n);
      const bool in = g == 0 && geom::point_in_polygon(p, polygon, n);
      if (in) inside = true;
      else if (zs.member && d2 >= h * h) inside = false;
      // The anchor's distance to the boundary changes no faster than the odometer: a member must
      // travel d + h (from inside) or h - d (from the band outside) to be out by h, a non-member d to enter.
      const double d = std::sqrt(d2), reach = !inside ? d : in ? h + d : h - d;
      *skip = cur.odometer + reach * (1 - 1e-9) - 1e-3;
    }
  }
  if (inside == zs.member) return;
  zs.member = inside;
  if (inside) {
    zs.enter_time = cur.time;
    zs.dwell_done = false;
    ++(*out.zone_counts)[z].count;
    ++(*out.zone_counts)[z].entered;
    ++*memberships;
  } else {
    --(*out.zone_counts)[z].count;
    --*memberships;
  }
  out.events->push_back(Event{inside ? Event::Type::ZoneEnter : Event::Type::ZoneExit, std::uint32_t(z), id,
                              Direction::None, now, cur.time, 0});
}

}  // namespace

void SceneAnalytics::update(const Frame& frame) {
  State& s = *state_;
  events_.clear();
  if (!s.geometry_valid || s.width != frame.width || s.height != frame.height) {
    scale_geometry(rules_, options_, frame.width, frame.height, &s.lines, &s.zones, &s.hysteresis);
    std::fill(s.line_skip.begin(), s.line_skip.end(), -1.0);  // the lines or the band moved
    std::fill(s.zone_skip.begin(), s.zone_skip.end(), -1.0);
    s.width = frame.width, s.height = frame.height, s.geometry_valid = true;
  }
  const std::size_t nl = s.lines.size(), nz = s.zones.size();
  const std::int64_t now = frame.time;
  ++s.stamp;

  // 1. Ends: the tracker's ended tracks and those unseen for forget_after updates, by track id.
  s.object_slots.resize(frame.n_objects);
  for (std::size_t i = 0; i < frame.n_objects; ++i) {
    const std::int32_t slot = frame.objects[i].id == 0 ? IdMap::kNone : s.slot_of.find(frame.objects[i].id);
    s.object_slots[i] = slot;
    if (slot != IdMap::kNone) s.tracks[std::size_t(slot)].seen = s.stamp;
  }
  s.ending.clear();
  for (std::size_t i = 0; i < frame.n_ended; ++i) {
    const std::int32_t slot = s.slot_of.find(frame.ended[i]);
    if (slot != IdMap::kNone && !s.tracks[std::size_t(slot)].ending) {
      s.tracks[std::size_t(slot)].ending = true;
      s.ending.push_back(std::uint32_t(slot));
    }
  }
  const unsigned forget_after = std::max(1u, options_.forget_after);
  for (std::size_t t = 0; t < s.tracks.size(); ++t) {
    State::Track& track = s.tracks[t];
    if (!track.live || track.seen == s.stamp) continue;
    if (++track.misses >= forget_after && !track.ending) {
      track.ending = true;
      s.ending.push_back(std::uint32_t(t));
    }
  }
  end_slots(now);

  // 2. The objects, in input order.
  const Output out{&events_, &line_counts_, &zone_counts_};
  s.started.clear();
  for (std::size_t i = 0; i < frame.n_started; ++i) s.started.emplace_back(frame.started[i].id, i);
  std::sort(s.started.begin(), s.started.end());  // ties (an id started twice): the first entry
  for (std::size_t i = 0; i < frame.n_objects; ++i) {
    const TrackedBox& object = frame.objects[i];
    if (object.id == 0) continue;  // not a confirmed track
    // The slot found before the ends, unless that track ended (its slot may have gone to another id).
    std::int32_t found = s.object_slots[i];
    if (found == IdMap::kNone || !s.tracks[std::size_t(found)].live || s.tracks[std::size_t(found)].id != object.id)
      found = s.slot_of.find(object.id);
    const std::uint32_t slot = found == IdMap::kNone ? s.take_slot(object.id) : std::uint32_t(found);
    State::Track& track = s.tracks[slot];

    // The sightings to play: the history of a track started now (after its last sighting), then this one.
    std::size_t n_steps = 0;
    auto add_step = [&](std::int64_t t, double x, double y, double w, double h) {
      if (s.steps.size() < n_steps + 2) s.steps.resize(n_steps + 2);
      Step& step = s.steps[n_steps + 1];  // steps[0] is the track's last sighting
      step.set(t, x, y, w, h);
      if (n_steps > 0 || track.has_box) step.set_prev(s.steps[n_steps]);
      ++n_steps;
    };
    if (s.steps.empty()) s.steps.resize(2);
    if (track.has_box) {
      s.steps[0].set(track.last_time, track.x, track.y, track.w, track.h);
      s.steps[0].odometer = track.odometer;
    }
    if (!s.started.empty()) {
      auto st = std::lower_bound(s.started.begin(), s.started.end(), std::make_pair(object.id, std::size_t(0)));
      if (st != s.started.end() && st->first == object.id) {
        const TrackStart& start = frame.started[st->second];
        for (std::size_t k = 0; k < start.n_history; ++k) {
          const Sighting& g = start.history[k];
          if (!track.has_box || g.time > track.last_time) add_step(g.time, g.x, g.y, g.width, g.height);
        }
      }
    }
    add_step(now, object.x, object.y, object.width, object.height);
    const Step* steps = s.steps.data() + 1;

    // Lines, by line.
    LineState* line_states = s.line_states.data() + slot * nl;
    double* line_skip = s.line_skip.data() + slot * nl;
    if (n_steps == 1) {  // the usual case: one flat pass, most lines skipped at one comparison
      const double odometer = steps[0].odometer;
      for (std::size_t l = 0; l < nl; ++l)
        if (odometer >= line_skip[l])
          evaluate_line(s.lines[l], s.hysteresis, l, line_states[l], &line_skip[l], steps[0], object.id, now, out);
    } else {
      for (std::size_t l = 0; l < nl; ++l)
        for (std::size_t k = 0; k < n_steps; ++k)
          if (steps[k].odometer >= line_skip[l])
            evaluate_line(s.lines[l], s.hysteresis, l, line_states[l], &line_skip[l], steps[k], object.id, now, out);
    }

    // Zones, by zone: enters and exits in sighting order, then the visit's dwell.
    ZoneState* zone_states = s.zone_states.data() + slot * nz;
    double* zone_skip = s.zone_skip.data() + slot * nz;
    const double odometer = steps[0].odometer;
    for (std::size_t z = 0; z < nz; ++z) {
      if (n_steps == 1 && odometer < zone_skip[z] && track.memberships == 0) continue;  // the usual case
      for (std::size_t k = 0; k < n_steps; ++k)
        if (steps[k].odometer >= zone_skip[z])
          evaluate_zone(s.zones[z], s.hysteresis, z, zone_states[z], &zone_skip[z], &track.memberships, steps[k], object.id, now, out);
      if (track.memberships == 0) continue;  // nothing to dwell in
      ZoneState& zs = zone_states[z];
      if (zs.member && s.zones[z].dwell_on && !zs.dwell_done &&
          double(now - zs.enter_time) >= s.zones[z].dwell_ns) {
        zs.dwell_done = true;
        events_.push_back(Event{Event::Type::Dwell, std::uint32_t(z), object.id, Direction::None, now, now, 0});
      }
    }

    track.x = object.x, track.y = object.y, track.w = object.width, track.h = object.height;
    track.has_box = true;
    track.odometer = steps[n_steps - 1].odometer;
    track.last_time = now;
    track.misses = 0;
    track.seen = s.stamp;
  }

  // 3. Dwells of members not seen now (occluded), by track id then zone.
  s.late_dwells.clear();
  bool any_dwell = false;
  for (const Zone& z : s.zones) any_dwell = any_dwell || z.dwell_on;
  if (any_dwell) {
    for (std::size_t t = 0; t < s.tracks.size(); ++t) {
      const State::Track& track = s.tracks[t];
      if (!track.live || track.seen == s.stamp || track.memberships == 0) continue;
      for (std::size_t z = 0; z < nz; ++z) {
        ZoneState& zs = s.zone_states[t * nz + z];
        if (s.zones[z].dwell_on && zs.member && !zs.dwell_done && double(now - zs.enter_time) >= s.zones[z].dwell_ns) {
          zs.dwell_done = true;
          s.late_dwells.emplace_back(track.id, std::uint32_t(z));
        }
      }
    }
    std::sort(s.late_dwells.begin(), s.late_dwells.end());
    for (const auto& [id, z] : s.late_dwells)
      events_.push_back(Event{Event::Type::Dwell, z, id, Direction::None, now, now, 0});
  }

  // 4. Overcrowding, by zone.
  overcrowd(now);
  fill_occupancy();
}

void SceneAnalytics::end_tracks(std::int64_t time) {
  State& s = *state_;
  events_.clear();
  s.ending.clear();
  for (std::size_t t = 0; t < s.tracks.size(); ++t)
    if (s.tracks[t].live) {
      s.tracks[t].ending = true;
      s.ending.push_back(std::uint32_t(t));
    }
  end_slots(time);
  overcrowd(time);
  fill_occupancy();
}

void SceneAnalytics::end_slots(std::int64_t time) {
  State& s = *state_;
  const std::size_t nz = s.zones.size();
  std::sort(s.ending.begin(), s.ending.end(),
            [&s](std::uint32_t a, std::uint32_t b) { return s.tracks[a].id < s.tracks[b].id; });
  for (std::uint32_t slot : s.ending) {
    for (std::size_t z = 0; z < nz; ++z) {
      ZoneState& zs = s.zone_states[slot * nz + z];
      if (!zs.member) continue;
      zs.member = false;
      --zone_counts_[z].count;
      s.zone_skip[slot * nz + z] = -1;
      events_.push_back(Event{Event::Type::ZoneExit, std::uint32_t(z), s.tracks[slot].id, Direction::None, time, time, 0});
    }
    s.free_slot(slot);
  }
  s.ending.clear();
}

void SceneAnalytics::overcrowd(std::int64_t time) {
  State& s = *state_;
  for (std::size_t z = 0; z < zone_counts_.size(); ++z) {
    const ZoneRule& rule = rules_.zones[z];
    if (rule.max_objects == 0) continue;
    ZoneCounts& counts = zone_counts_[z];
    OvercrowdTimer& timer = s.timers[z];
    if (counts.count >= rule.max_objects) {
      if (!timer.running) timer.running = true, timer.since = time;
      if (!counts.overcrowded && double(time - timer.since) >= rule.overcrowd_time * 1e9) {
        counts.overcrowded = true;
        events_.push_back(Event{Event::Type::OvercrowdStart, std::uint32_t(z), 0, Direction::None, time, time, 0});
      }
    } else {
      if (counts.overcrowded) {
        counts.overcrowded = false;
        events_.push_back(Event{Event::Type::OvercrowdEnd, std::uint32_t(z), 0, Direction::None, time, time, 0});
      }
      timer.running = false;
    }
  }
}

void SceneAnalytics::fill_occupancy() {
  for (Event& e : events_)
    if (e.type != Event::Type::LineCross) e.occupancy = zone_counts_[e.rule].count;
}

}  // namespace ccl::scene
