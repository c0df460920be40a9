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

// A line rule in frame pixels.
struct Line {
  Point from, to;
  double length = 1;
  geom::Rect bounds;
  Anchor anchor = Anchor::BottomCenter;
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

// The three anchors of one box.
struct Anchors {
  Point bottom, center;
  geom::Rect box;
};

Anchors anchors_of(double x, double y, double w, double h) {
  return {Point{x + w / 2, y + h}, Point{x + w / 2, y + h / 2}, geom::Rect{x, y, x + w, y + h}};
}

const Point& point_of(const Anchors& a, Anchor anchor) {
  return anchor == Anchor::Center ? a.center : a.bottom;
}

// The side a signed distance d commits to with hysteresis h (never on the line itself).
Side side_of(double d, double h) {
  if (d >= h && d > 0) return kRight;
  if (d <= -h && d < 0) return kLeft;
  return kUnknown;
}

}  // namespace

struct SceneAnalytics::State {
  struct Track {
    std::uint32_t id = 0;
    bool live = false;
    bool has_box = false;  // seen at least once: box is its last sighting
    bool ending = false;
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
  IdMap slot_of;
  std::uint64_t stamp = 0;

  // Per-update scratch (sizes settle, then nothing is allocated).
  std::vector<std::pair<std::uint32_t, std::size_t>> started;  // (id, index into Frame::started), by id
  std::vector<std::uint32_t> ending;                           // slots, ordered by id
  std::vector<Sighting> sightings;
  std::vector<Anchors> anchors;
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
    }
    tracks[slot] = Track{};
    tracks[slot].id = id;
    tracks[slot].live = true;
    std::fill_n(line_states.begin() + std::ptrdiff_t(slot * lines.size()), lines.size(), LineState{});
    std::fill_n(zone_states.begin() + std::ptrdiff_t(slot * zones.size()), zones.size(), ZoneState{});
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
    l.length = std::hypot(l.to.x - l.from.x, l.to.y - l.from.y);
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
}

void SceneAnalytics::update(const Frame& frame) {
  State& s = *state_;
  events_.clear();
  if (!s.geometry_valid || s.width != frame.width || s.height != frame.height) {
    scale_geometry(rules_, options_, frame.width, frame.height, &s.lines, &s.zones, &s.hysteresis);
    s.width = frame.width, s.height = frame.height, s.geometry_valid = true;
  }
  const std::size_t nl = s.lines.size(), nz = s.zones.size();
  const std::int64_t now = frame.time;
  ++s.stamp;

  // 1. Ends: the tracker's ended tracks and those unseen for forget_after updates, by track id.
  for (std::size_t i = 0; i < frame.n_objects; ++i) {
    const std::int32_t slot = s.slot_of.find(frame.objects[i].id);
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
  s.started.clear();
  for (std::size_t i = 0; i < frame.n_started; ++i) s.started.emplace_back(frame.started[i].id, i);
  std::sort(s.started.begin(), s.started.end());  // ties (an id started twice): the first entry
  for (std::size_t i = 0; i < frame.n_objects; ++i) {
    const TrackedBox& object = frame.objects[i];
    if (object.id == 0) continue;  // not a confirmed track
    std::int32_t found = s.slot_of.find(object.id);
    const std::uint32_t slot = found == IdMap::kNone ? s.take_slot(object.id) : std::uint32_t(found);
    State::Track& track = s.tracks[slot];

    // The sightings to play: the history of a track started now (after its last sighting), then this one.
    s.sightings.clear();
    auto st = std::lower_bound(s.started.begin(), s.started.end(), std::make_pair(object.id, std::size_t(0)));
    if (st != s.started.end() && st->first == object.id) {
      const TrackStart& start = frame.started[st->second];
      for (std::size_t k = 0; k < start.n_history; ++k)
        if (!track.has_box || start.history[k].time > track.last_time) s.sightings.push_back(start.history[k]);
    }
    s.sightings.push_back(Sighting{now, object.x, object.y, object.width, object.height});
    s.anchors.resize(s.sightings.size());
    for (std::size_t k = 0; k < s.sightings.size(); ++k) {
      const Sighting& g = s.sightings[k];
      s.anchors[k] = anchors_of(g.x, g.y, g.width, g.height);
    }
    const Anchors previous = anchors_of(track.x, track.y, track.w, track.h);
    const std::size_t n_sightings = s.sightings.size();

    // Lines, by line.
    LineState* line_states = s.line_states.data() + slot * nl;
    for (std::size_t l = 0; l < nl; ++l) {
      const Line& line = s.lines[l];
      LineState& ls = line_states[l];
      const Anchors* prev = track.has_box ? &previous : nullptr;
      for (std::size_t k = 0; k < n_sightings; prev = &s.anchors[k], ++k) {
        const Anchors& cur = s.anchors[k];
        Side side;
        if (line.anchor == Anchor::Box) {
          const geom::Rect& b = cur.box;
          const Point corners[4] = {{b.x0, b.y0}, {b.x1, b.y0}, {b.x1, b.y1}, {b.x0, b.y1}};
          side = side_of(geom::cross(line.from, line.to, corners[0]) / line.length, s.hysteresis);
          for (int c = 1; c < 4 && side != kUnknown; ++c)
            if (side_of(geom::cross(line.from, line.to, corners[c]) / line.length, s.hysteresis) != side)
              side = kUnknown;
          if (b.overlaps(line.bounds) && geom::rect_intersects_segment(b, line.from, line.to)) ls.touched = true;
          if (prev && geom::bounds(prev->center, cur.center).overlaps(line.bounds) &&
              geom::segments_intersect(prev->center, cur.center, line.from, line.to))
            ls.touched = true;
        } else {
          const Point& p = point_of(cur, line.anchor);
          side = side_of(geom::cross(line.from, line.to, p) / line.length, s.hysteresis);
          if (prev) {
            const Point& q = point_of(*prev, line.anchor);
            if (geom::bounds(q, p).overlaps(line.bounds) && geom::segments_intersect(q, p, line.from, line.to))
              ls.touched = true;
          }
        }
        if (side == kUnknown) continue;  // in the band: nothing commits
        if (ls.touched && ls.side == -side) {
          const Direction d = side == kRight ? Direction::Forward : Direction::Backward;
          (d == Direction::Forward ? line_counts_[l].forward : line_counts_[l].backward)++;
          events_.push_back(Event{Event::Type::LineCross, std::uint32_t(l), object.id, d, now, s.sightings[k].time, 0});
        }
        ls.side = side;
        ls.touched = false;
      }
    }

    // Zones, by zone: enters and exits in sighting order, then the visit's dwell.
    ZoneState* zone_states = s.zone_states.data() + slot * nz;
    for (std::size_t z = 0; z < nz; ++z) {
      const Zone& zone = s.zones[z];
      ZoneState& zs = zone_states[z];
      for (std::size_t k = 0; k < n_sightings; ++k) {
        const Anchors& cur = s.anchors[k];
        bool inside;
        if (zone.anchor == Anchor::Box) {
          inside = cur.box.overlaps(zone.bounds) &&
                   geom::rect_intersects_polygon(cur.box, zone.polygon.data(), zone.polygon.size());
        } else {
          const Point& p = point_of(cur, zone.anchor);
          inside = zone.bounds.contains(p) && geom::point_in_polygon(p, zone.polygon.data(), zone.polygon.size());
        }
        if (inside == zs.member) continue;
        zs.member = inside;
        if (inside) {
          zs.enter_time = s.sightings[k].time;
          zs.dwell_done = false;
          ++zone_counts_[z].count;
          ++zone_counts_[z].entered;
        } else {
          --zone_counts_[z].count;
        }
        events_.push_back(Event{inside ? Event::Type::ZoneEnter : Event::Type::ZoneExit, std::uint32_t(z), object.id,
                                Direction::None, now, s.sightings[k].time, 0});
      }
      if (zone.dwell_on && zs.member && !zs.dwell_done && double(now - zs.enter_time) >= zone.dwell_ns) {
        zs.dwell_done = true;
        events_.push_back(Event{Event::Type::Dwell, std::uint32_t(z), object.id, Direction::None, now, now, 0});
      }
    }

    const Sighting& last = s.sightings.back();
    track.x = last.x, track.y = last.y, track.w = last.width, track.h = last.height;
    track.has_box = true;
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
      if (!track.live || track.seen == s.stamp) continue;
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
