// Synthetic sequences for the tracker tests: rectangles moving at constant velocity in a frame;
// what a labeller would report of them (overlapping rectangles merge into one component, parts
// outside the frame are clipped away), and their truth.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "mot_score.hpp"
#include "tracker/tracker.hpp"

namespace synth {

struct Mover {
  std::uint32_t id;
  float x, y, width, height;  // at frame 0
  float vx, vy;               // pixels per frame
  ccl::track::Box at(int frame) const { return {x + vx * frame, y + vy * frame, width, height}; }
};

struct Frame {
  std::vector<mot::Truth> truth;                  // objects at least partly in view, clipped
  std::vector<ccl::track::Detection> detections;  // connected components of their union
};

inline bool clip(ccl::track::Box* b, float w, float h) {
  const float x0 = std::max(b->x, 0.0f), y0 = std::max(b->y, 0.0f);
  const float x1 = std::min(b->x + b->width, w), y1 = std::min(b->y + b->height, h);
  if (x1 <= x0 || y1 <= y0) return false;
  *b = {x0, y0, x1 - x0, y1 - y0};
  return true;
}

inline bool touch(const ccl::track::Box& a, const ccl::track::Box& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// The frame as a labeller sees it: touching rectangles form one component (box = union, area and
// centroid from the rectangles' areas, overlap counted twice: close enough for tracking).
inline Frame render(const std::vector<Mover>& movers, int frame, float w, float h) {
  Frame f;
  for (const Mover& m : movers) {
    ccl::track::Box b = m.at(frame);
    if (clip(&b, w, h)) f.truth.push_back({m.id, b});
  }
  const std::size_t n = f.truth.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = i + 1; k < n; ++k)
      if (touch(f.truth[i].box, f.truth[k].box)) parent[root(k)] = root(i);
  for (std::size_t i = 0; i < n; ++i) {
    if (root(i) != i) continue;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f, area = 0, sx = 0, sy = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (root(k) != i) continue;
      const ccl::track::Box& b = f.truth[k].box;
      x0 = std::min(x0, b.x), y0 = std::min(y0, b.y), x1 = std::max(x1, b.x + b.width), y1 = std::max(y1, b.y + b.height);
      const float a = b.width * b.height;
      area += a, sx += a * (b.x + (b.width - 1) / 2), sy += a * (b.y + (b.height - 1) / 2);
    }
    ccl::track::Detection d;
    d.box = {x0, y0, x1 - x0, y1 - y0};
    d.area = std::uint32_t(area);
    d.centroid_x = sx / area, d.centroid_y = sy / area;
    f.detections.push_back(d);
  }
  return f;
}

// Runs `tracker` over frames 0..n-1 and scores it; `ids_of` gets every frame's ids when given.
// What is scored: the detections' boxes under their track ids, or the tracker's located tracks at
// Track::shown (those hidden in a merged detection at their part of it).
enum class Output { Detections, LocatedTracks };

inline mot::Score run(ccl::track::Tracker& tracker, const std::vector<Mover>& movers, int n, float w, float h,
                      mot::Scorer* scorer, std::vector<std::vector<std::uint32_t>>* ids_of = nullptr,
                      Output output = Output::Detections) {
  for (int i = 0; i < n; ++i) {
    const Frame f = render(movers, i, w, h);
    std::vector<std::uint32_t> ids(f.detections.size());
    tracker.update(f.detections.data(), f.detections.size(), i, ids.data());
    std::vector<mot::Reported> reported;
    if (output == Output::Detections)
      for (std::size_t k = 0; k < ids.size(); ++k) reported.push_back({ids[k], f.detections[k].box});
    else
      for (const ccl::track::Track& t : tracker.tracks())
        if (t.located()) reported.push_back({t.id, t.shown});
    scorer->add_frame(f.truth, reported);
    if (ids_of) ids_of->push_back(ids);
  }
  return scorer->score();
}

}  // namespace synth
