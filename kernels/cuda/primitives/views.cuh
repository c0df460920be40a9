// The typed slices of device memory the stages hand each other. The host carves them out of the
// scratch arena (host/scratch.cuh); a stage takes the views it reads and writes, nothing more.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/component_stats.hpp"
#include "ccl/types.hpp"

namespace ccl::cuda {

// Most runs a row of `width` pixels holds: the segment arrays and the root slots give each row
// this many slots.
__host__ __device__ inline std::uint32_t slots_per_row(int width) { return std::uint32_t(width + 1) / 2; }

// What the host reads back of a frame, right before the kept components in its pinned list.
struct FrameCounts {
  std::uint32_t n_components;  // before filtering
  std::uint32_t n_in_range;    // with min_area <= area <= max_area
};
static_assert(sizeof(FrameCounts) % alignof(Component) == 0, "the component list follows the counts");

// ComponentStats in device layout: one array per field, indexed by the component's rank in raster
// order, so each atomic of the naive analysis touches one array.
struct ComponentStatsArrays {
  std::uint32_t* area;
  std::uint32_t* left;
  std::uint32_t* right;
  std::uint32_t* top;
  std::uint32_t* bottom;
  unsigned long long* sum_x;
  unsigned long long* sum_y;

  __device__ ComponentStats load(std::uint32_t j) const {
    return ComponentStats{area[j], left[j], top[j], right[j], bottom[j], sum_x[j], sum_y[j]};
  }
  __device__ void store(std::uint32_t j, const ComponentStats& s) const {
    area[j] = s.area;
    left[j] = s.left;
    right[j] = s.right;
    top[j] = s.top;
    bottom[j] = s.bottom;
    sum_x[j] = s.sum_x;
    sum_y[j] = s.sum_y;
  }
};

// What every analysis leaves for the outputs: each component's raster rank, found through its root
// pixel (row_offset of the root's row + root_rank at the root), its statistics by rank, and the
// counts (n_in_range = n_components, before any area filter).
struct AnalysisOutput {
  std::uint32_t* root_rank;   // at each root pixel: its rank among the roots of its row
  std::uint32_t* row_offset;  // components whose root is in an earlier row; [height] = n_components
  ComponentStatsArrays stats;
  FrameCounts* counts;
};

// Runs (segments) of each row, slots_per_row(width) slots a row: raster-segments labelling, then
// the flsl-otf analysis's runs.
struct SegmentsView {
  std::uint16_t* bounds;   // first and last x of each segment
  std::uint32_t* parent;   // union-find parent per segment
  std::uint32_t* count;    // segments per row
};

// Where a gather writes: the counts (null: not written) and room for every component it is asked
// to gather. Pinned host memory (reached through unified addressing) spares a frame's short list
// the copy and its wait; long lists go to the device list (Scratch::out) and are copied after, as
// the copy engine moves millions of components faster than the kernel's stores across the bus.
struct ComponentList {
  FrameCounts* counts;
  Component* components;
};

}  // namespace ccl::cuda
