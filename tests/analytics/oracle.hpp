// A brute-force reading of kernels/analytics/README.md for integer coordinates, sharing no code with
// the engine: per-track std::maps, exact 64-bit integer geometry (boxes with integer corners and
// even sizes, so every anchor is an integer point), each rule checked on every sighting.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "analytics/rules.hpp"
#include "analytics/scene.hpp"

namespace oracle {

using I = long long;
struct P {
  I x, y;
};

inline I orient(P a, P b, P c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

// p on the closed segment a-b.
inline bool on_seg(P a, P b, P p) {
  if (orient(a, b, p) != 0) return false;
  return (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0;
}

inline bool seg_seg(P a, P b, P c, P d) {
  if (on_seg(a, b, c) || on_seg(a, b, d) || on_seg(c, d, a) || on_seg(c, d, b)) return true;
  const I o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

inline bool in_poly(P p, const std::vector<P>& poly) {
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i)
    if (on_seg(poly[i], poly[(i + 1) % n], p)) return true;
  int crossings = 0;
  for (std::size_t i = 0; i < n; ++i) {
    P a = poly[i], b = poly[(i + 1) % n];
    if (a.y > b.y) std::swap(a, b);  // a below b (smaller y)
    if (!(a.y <= p.y && p.y < b.y)) continue;
    // With a -> b going down the image, the edge's x at p.y is right of p when orient > 0.
    if (orient(a, b, p) > 0) ++crossings;
  }
  return crossings % 2 == 1;
}

// p is at least h from every point of the polygon's edges: the nearest point of an edge is one of
// its ends or, when it falls strictly between them, the foot of the perpendicular from p.
inline bool far_from_edges(P p, const std::vector<P>& poly, I h) {
  for (P v : poly)
    if ((p.x - v.x) * (p.x - v.x) + (p.y - v.y) * (p.y - v.y) < h * h) return false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const P a = poly[i], b = poly[(i + 1) % n];
    const I len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
    const I t = (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);  // the foot at t / len2 along a -> b
    if (t <= 0 || t >= len2) continue;
    const I c = orient(a, b, p);  // perpendicular distance^2 = c^2 / len2
    if (c * c < h * h * len2) return false;
  }
  return true;
}

struct R {
  I x0, y0, x1, y1;
};

inline bool in_rect(P p, R r) { return p.x >= r.x0 && p.x <= r.x1 && p.y >= r.y0 && p.y <= r.y1; }

inline bool rect_seg(R r, P a, P b) {
  if (in_rect(a, r) || in_rect(b, r)) return true;
  const P c[4] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}};
  for (int i = 0; i < 4; ++i)
    if (seg_seg(a, b, c[i], c[(i + 1) % 4])) return true;
  return false;
}

inline bool rect_poly(R r, const std::vector<P>& poly) {
  for (P v : poly)
    if (in_rect(v, r)) return true;
  const P c[4] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}};
  for (P v : c)
    if (in_poly(v, poly)) return true;
  for (std::size_t i = 0; i < poly.size(); ++i)
    if (rect_seg(r, poly[i], poly[(i + 1) % poly.size()])) return true;
  return false;
}

// An event as the oracle sees it (the engine's Event without its layout).
struct Ev {
  int type, rule;
  std::uint32_t track;
  int direction;
  std::int64_t time, at;
  unsigned occupancy;
  bool operator==(const Ev& o) const {
    return type == o.type && rule == o.rule && track == o.track && direction == o.direction && time == o.time &&
           at == o.at && occupancy == o.occupancy;
  }
};

class Oracle {
 public:
  // Pixel rules with integer coordinates; hysteresis an integer number of pixels.
  Oracle(const ccl::scene::Rules& rules, I hysteresis, unsigned forget_after)
      : rules_(rules), h_(hysteresis), forget_(forget_after) {
    for (const auto& z : rules.zones) {
      std::vector<P> poly;
      for (const auto& p : z.polygon) poly.push_back({I(p.x), I(p.y)});
      polys_.push_back(poly);
    }
    fwd_.assign(rules.lines.size(), 0), bwd_.assign(rules.lines.size(), 0);
    count_.assign(rules.zones.size(), 0), crowded_.assign(rules.zones.size(), false);
    timer_on_.assign(rules.zones.size(), false), timer_since_.assign(rules.zones.size(), 0);
  }

  struct Box {
    std::int64_t time;
    I x, y, w, h;  // integers, w and h even
  };

  // One frame: objects (id, box), started histories by id, ended ids.
  std::vector<Ev> frame(std::int64_t now, const std::vector<std::pair<std::uint32_t, Box>>& objects,
                        const std::map<std::uint32_t, std::vector<Box>>& started, const std::vector<std::uint32_t>& ended) {
    events_.clear();
    std::set<std::uint32_t> seen, ending;
    for (const auto& o : objects) seen.insert(o.first);
    for (std::uint32_t id : ended)
      if (tracks_.count(id)) ending.insert(id);
    for (auto& [id, t] : tracks_)
      if (!seen.count(id) && ++t.misses >= std::max(1u, forget_)) ending.insert(id);
    for (std::uint32_t id : ending) end(id, now);  // std::set: by id

    for (const auto& [id, box] : objects) {
      const bool is_new = !tracks_.count(id);
      Track& t = tracks_[id];
      if (is_new) t.init(rules_.lines.size(), rules_.zones.size());
      std::vector<Box> path;
      auto st = started.find(id);
      if (st != started.end())
        for (const Box& b : st->second)
          if (!t.has || b.time > t.last_time) path.push_back(b);
      path.push_back(box);
      path.back().time = now;
      for (std::size_t l = 0; l < rules_.lines.size(); ++l) {
        bool has = t.has;
        Box prev = t.last;
        for (const Box& b : path) {
          line_step(l, t, has ? &prev : nullptr, b, id, now);
          has = true, prev = b;
        }
      }
      for (std::size_t z = 0; z < rules_.zones.size(); ++z) {
        for (const Box& b : path) {
          if (!t.member[z] && inside(z, b)) {
            t.member[z] = true, t.enter[z] = b.time, t.dwelt[z] = false;
            ++count_[z];
            events_.push_back({1, int(z), id, 0, now, b.time, 0});
          } else if (t.member[z] && out_by_h(z, b)) {
            t.member[z] = false;
            --count_[z];
            events_.push_back({2, int(z), id, 0, now, b.time, 0});
          }
        }
        dwell(z, t, id, now);
      }
      t.last = path.back(), t.has = true, t.last_time = now, t.misses = 0;
    }
    for (auto& [id, t] : tracks_)
      if (!seen.count(id))
        for (std::size_t z = 0; z < rules_.zones.size(); ++z) dwell(z, t, id, now);
    crowding(now);
    return finish();
  }

  std::vector<Ev> end_all(std::int64_t now) {
    events_.clear();
    std::vector<std::uint32_t> ids;
    for (const auto& kv : tracks_) ids.push_back(kv.first);
    for (std::uint32_t id : ids) end(id, now);
    crowding(now);
    return finish();
  }

  std::vector<std::uint64_t> fwd_, bwd_;
  std::vector<unsigned> count_;

 private:
  struct Track {
    Box last{};
    bool has = false;
    std::int64_t last_time = 0;
    unsigned misses = 0;
    std::vector<int> side;  // -1 left, 0 unknown, 1 right
    std::vector<bool> touched, member, dwelt;
    std::vector<std::int64_t> enter;
    void init(std::size_t nl, std::size_t nz) {
      side.assign(nl, 0), touched.assign(nl, false);
      member.assign(nz, false), dwelt.assign(nz, false), enter.assign(nz, 0);
    }
  };

  static P bottom(const Box& b) { return {b.x + b.w / 2, b.y + b.h}; }
  static P centre(const Box& b) { return {b.x + b.w / 2, b.y + b.h / 2}; }
  static R rect(const Box& b) { return {b.x, b.y, b.x + b.w, b.y + b.h}; }
  static P anchor(const Box& b, ccl::scene::Anchor a) { return a == ccl::scene::Anchor::Center ? centre(b) : bottom(b); }

  // -1, 0, 1 for a point against line l with the hysteresis: |d| >= h, d = orient / length.
  int side_of(std::size_t l, P p) const {
    const auto& r = rules_.lines[l];
    const P a{I(r.from.x), I(r.from.y)}, b{I(r.to.x), I(r.to.y)};
    const I c = orient(a, b, p);
    const I len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
    if (c == 0 || c * c < h_ * h_ * len2) return 0;
    return c > 0 ? 1 : -1;
  }

  void line_step(std::size_t l, Track& t, const Box* prev, const Box& b, std::uint32_t id, std::int64_t now) {
    const auto& r = rules_.lines[l];
    const P a{I(r.from.x), I(r.from.y)}, e{I(r.to.x), I(r.to.y)};
    int s;
    if (r.anchor == ccl::scene::Anchor::Box) {
      const R q = rect(b);
      const int s0 = side_of(l, {q.x0, q.y0}), s1 = side_of(l, {q.x1, q.y0}), s2 = side_of(l, {q.x1, q.y1}),
                s3 = side_of(l, {q.x0, q.y1});
      s = (s0 == s1 && s1 == s2 && s2 == s3) ? s0 : 0;
      if (rect_seg(q, a, e)) t.touched[l] = true;
      if (prev && seg_seg(centre(*prev), centre(b), a, e)) t.touched[l] = true;
    } else {
      s = side_of(l, anchor(b, r.anchor));
      if (prev && seg_seg(anchor(*prev, r.anchor), anchor(b, r.anchor), a, e)) t.touched[l] = true;
    }
    if (s == 0) return;
    if (t.touched[l] && t.side[l] == -s) {
      (s > 0 ? fwd_ : bwd_)[l]++;
      events_.push_back({0, int(l), id, s > 0 ? 1 : 2, now, b.time, 0});
    }
    t.side[l] = s;
    t.touched[l] = false;
  }

  bool inside(std::size_t z, const Box& b) const {
    const auto a = rules_.zones[z].anchor;
    if (a == ccl::scene::Anchor::Box) return rect_poly(rect(b), polys_[z]);
    return in_poly(anchor(b, a), polys_[z]);
  }

  // A member exits: its point anchor outside and at least h from the edges; its box grown by h on
  // every side not meeting the polygon.
  bool out_by_h(std::size_t z, const Box& b) const {
    const auto a = rules_.zones[z].anchor;
    if (a == ccl::scene::Anchor::Box) {
      const R r = rect(b);
      return !rect_poly({r.x0 - h_, r.y0 - h_, r.x1 + h_, r.y1 + h_}, polys_[z]);
    }
    const P p = anchor(b, a);
    return !in_poly(p, polys_[z]) && far_from_edges(p, polys_[z], h_);
  }

  void dwell(std::size_t z, Track& t, std::uint32_t id, std::int64_t now) {
    const double d = rules_.zones[z].dwell;
    if (d < 0 || !t.member[z] || t.dwelt[z]) return;
    if (double(now - t.enter[z]) >= d * 1e9) {
      t.dwelt[z] = true;
      events_.push_back({3, int(z), id, 0, now, now, 0});
    }
  }

  void end(std::uint32_t id, std::int64_t now) {
    Track& t = tracks_.at(id);
    for (std::size_t z = 0; z < rules_.zones.size(); ++z)
      if (t.member[z]) {
        --count_[z];
        events_.push_back({2, int(z), id, 0, now, now, 0});
      }
    tracks_.erase(id);
  }

  void crowding(std::int64_t now) {
    for (std::size_t z = 0; z < rules_.zones.size(); ++z) {
      const auto& r = rules_.zones[z];
      if (r.max_objects == 0) continue;
      if (count_[z] >= r.max_objects) {
        if (!timer_on_[z]) timer_on_[z] = true, timer_since_[z] = now;
        if (!crowded_[z] && double(now - timer_since_[z]) >= r.overcrowd_time * 1e9) {
          crowded_[z] = true;
          events_.push_back({4, int(z), 0, 0, now, now, 0});
        }
      } else {
        if (crowded_[z]) events_.push_back({5, int(z), 0, 0, now, now, 0});
        crowded_[z] = false, timer_on_[z] = false;
      }
    }
  }

  std::vector<Ev> finish() {
    for (Ev& e : events_)
      if (e.type != 0) e.occupancy = count_[std::size_t(e.rule)];
    return events_;
  }

  ccl::scene::Rules rules_;
  I h_;
  unsigned forget_;
  std::vector<std::vector<P>> polys_;
  std::map<std::uint32_t, Track> tracks_;
  std::vector<bool> crowded_, timer_on_;
  std::vector<std::int64_t> timer_since_;
  std::vector<Ev> events_;
};

}  // namespace oracle
