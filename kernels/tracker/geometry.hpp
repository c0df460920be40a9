// What the tracker associates, a frame's detection (a component, or a detector's box with a score),
// and its overlap measure (IoU).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ccl::track {

// Axis-aligned box, left/top inclusive, width/height in pixels (the GstCclComponent convention).
struct Box {
  float x = 0, y = 0, width = 0, height = 0;
  float center_x() const { return x + width / 2; }
  float center_y() const { return y + height / 2; }
};

// One detection of a frame, as the tracker needs it.
struct Detection {
  Box box;
  std::uint32_t area = 0;
  float centroid_x = 0, centroid_y = 0;
  // Optional detector confidence in [0, 1]. Connected components have none: left at 1, every
  // detection is strong (Options::high_score), which makes the tracker single-stage for them.
  float score = 1.0f;
};

inline float area_of(const Box& b) { return b.width * b.height; }

inline float intersection(const Box& a, const Box& b) {
  const float w = std::max(0.0f, std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x));
  const float h = std::max(0.0f, std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y));
  return w * h;
}

// 0 for boxes without area (no division by zero).
inline float iou(const Box& a, const Box& b) {
  const float both = intersection(a, b);
  const float either = area_of(a) + area_of(b) - both;
  return either > 0 ? both / either : 0.0f;
}

}  // namespace ccl::track
