// "A global threshold separates the objects": the criterion test_daylight_scene.cpp applies to
// every threshold. Threshold t separates when plane0 > t keeps at least half of every sizeable
// object's box AND marks at most 2 % of the pixels outside all boxes (a mask one could clean up).
#pragma once

#include <array>
#include <vector>

#include "daylight_frames.hpp"

namespace scene {

constexpr double kMinObjectShare = 0.5;    // of each sizeable box's pixels above t, to count as found
constexpr double kMaxOutsideShare = 0.02;  // of the pixels outside all boxes above t, to count as clean

struct ThresholdVerdict {
  double worst_object_share = 1;  // the least-covered sizeable object's share of pixels above t
  double outside_share = 0;       // share of the pixels outside all boxes above t
  bool separates() const { return worst_object_share >= kMinObjectShare && outside_share <= kMaxOutsideShare; }
};

// Grey-level histograms of each sizeable box and of the pixels outside all boxes, so every
// threshold is judged from counts.
class ThresholdJudge {
 public:
  ThresholdJudge(const frames::Frame& f, const std::vector<GstCclTruthBox>& boxes) {
    for (const GstCclTruthBox& b : boxes) {
      if (!sizeable(b)) continue;
      Histogram h{};
      for (int y = b.y; y < b.y + b.height; ++y)
        for (int x = b.x; x < b.x + b.width; ++x) h[f.at(x, y)]++;
      objects_.push_back(h);
    }
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x)
        if (!inside_any(boxes, x, y)) outside_[f.at(x, y)]++;
  }

  ThresholdVerdict judge(int t) const {
    ThresholdVerdict v;
    for (const Histogram& h : objects_) v.worst_object_share = std::min(v.worst_object_share, share_above(h, t));
    v.outside_share = share_above(outside_, t);
    return v;
  }

 private:
  using Histogram = std::array<long, 256>;
  static double share_above(const Histogram& h, int t) {
    long above = 0, all = 0;
    for (int v = 0; v < 256; ++v) all += h[v], above += v > t ? h[v] : 0;
    return all ? double(above) / double(all) : 0;
  }
  std::vector<Histogram> objects_;
  Histogram outside_{};
};

// The thresholds 0..254 that separate the objects of `f`.
inline std::vector<int> separating_thresholds(const frames::Frame& f, const std::vector<GstCclTruthBox>& boxes) {
  const ThresholdJudge judge(f, boxes);
  std::vector<int> ts;
  for (int t = 0; t <= 254; ++t)
    if (judge.judge(t).separates()) ts.push_back(t);
  return ts;
}

}  // namespace scene
