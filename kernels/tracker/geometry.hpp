// What the tracker associates, a frame's component and a track's prediction, and its two measures:
// box overlap (IoU) and centroid distance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ccl::track {

// Axis-aligned box, left/top inclusive, width/height in pixels (the GstCclComponent convention).
struct Box {
  float x = 0, y = 0, width = 0, height = 0;
};

// One component of a frame, as the tracker needs it.
struct Detection {
  Box box;
  std::uint32_t area = 0;
  float centroid_x = 0, centroid_y = 0;
};

// One track's prediction as the Tracker hands it over (32 bytes).
struct Predicted {
  Box box;
  float centroid_x, centroid_y;
  float gate;     // largest centroid distance that still pairs
  float penalty;  // added to the cost of the track's pairs
};

inline float area_of(const Box& b) { return b.width * b.height; }

inline float intersection(const Box& a, const Box& b) {
  const float w = std::max(0.0f, std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x));
  const float h = std::max(0.0f, std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y));
  return w * h;
}

// Boxes have positive areas.
inline float iou(const Box& a, const Box& b) {
  const float both = intersection(a, b);
  return both / (area_of(a) + area_of(b) - both);
}

// sqrt of the sum, not std::hypot: hypot's overflow care costs more than the rest of a pair's test.
inline float distance(float ax, float ay, float bx, float by) {
  const float dx = ax - bx, dy = ay - by;
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace ccl::track
