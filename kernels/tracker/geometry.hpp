// Boxes and the two association measures of the tracker: box overlap (IoU) and centroid distance.
#pragma once

#include <algorithm>
#include <cmath>

namespace ccl::track {

// Axis-aligned box, left/top inclusive, width/height in pixels (the GstCclComponent convention).
struct Box {
  float x = 0, y = 0, width = 0, height = 0;
};

inline float area_of(const Box& b) { return b.width * b.height; }

inline float iou(const Box& a, const Box& b) {
  const float w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
  const float h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const float both = w * h;
  return both / (area_of(a) + area_of(b) - both);
}

inline float distance(float ax, float ay, float bx, float by) { return std::hypot(ax - bx, ay - by); }

}  // namespace ccl::track
