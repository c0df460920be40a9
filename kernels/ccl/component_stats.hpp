// The statistics every backend accumulates per component before numbering it, and the one way
// they become a Component of the result contract; shared by the CPU finalize and the GPU gathers.
#pragma once

#include <cstdint>

#include "ccl/types.hpp"

#if defined(__CUDACC__)
#define CCL_HOST_DEVICE __host__ __device__
#else
#define CCL_HOST_DEVICE
#endif

namespace ccl {

struct ComponentStats {
  std::uint32_t area = 0;
  std::uint32_t left = 0, top = 0, right = 0, bottom = 0;  // bounding box, inclusive
  unsigned long long sum_x = 0, sum_y = 0;                 // 64 bits: a 65535^2 frame overflows 32
};

// Centroids are sum / area in double, the same division on every backend (bit-identical results).
CCL_HOST_DEVICE inline Component make_component(const ComponentStats& s, std::uint32_t label) {
  Component c;
  c.label = label;
  c.area = s.area;
  c.x = std::int32_t(s.left);
  c.y = std::int32_t(s.top);
  c.width = std::int32_t(s.right - s.left + 1);
  c.height = std::int32_t(s.bottom - s.top + 1);
  c.centroid_x = double(s.sum_x) / double(s.area);
  c.centroid_y = double(s.sum_y) / double(s.area);
  return c;
}

}  // namespace ccl
