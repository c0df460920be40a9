// Statistics kept at each component's root while the runs are added up, so the features need no
// ranks yet and one pass over the runs both ranks the roots and adds the features. A root is a
// run start, and run starts of a row are at least two pixels apart, so (row, x / 2) is a slot of
// its own: ceil(width / 2) slots a row. Every statistic has 0 for identity (left is kept
// complemented and taken with atomicMax), so no frame readies the slots: they are zeroed when
// allocated (and after a frame that failed), and the gather that reads a slot zeroes it again.
#pragma once

#include <cstdint>

#include "ccl/component_stats.hpp"

namespace ccl::cuda {

// One array per statistic: the atomics of a large component's runs then spread over six sectors.
// (One 32-byte slot per root, tried: it made them queue on one sector, and the two kernels that
// touch the slots took 1.3x as long at 8192x8192, 1.7x with giant components.)
struct RootStats {
  std::uint32_t* area;
  std::uint32_t* not_left;  // ~left
  std::uint32_t* right;
  std::uint32_t* bottom;
  unsigned long long* sum_x;
  unsigned long long* sum_y;
  std::uint16_t* row_root_x;  // x of each root of row y, in order, at slots y * slots_per_row(width) on
};

// The slot of the root at (x, y) in a frame of `row_slots` = slots_per_row(width) slots a row.
__device__ inline std::uint32_t root_slot(std::uint32_t x, std::uint32_t y, std::uint32_t row_slots) {
  return y * row_slots + x / 2;
}

// The work of the flsl-cd and flsl analyses between their two kernels: the root slots, and the
// roots counted per block of kRowWarps rows.
struct RootSlotsView {
  RootStats stats;
  std::uint32_t* row_block_roots;
};

// ComponentStats of one run, or of several runs of one component added up, without `top` (the
// row of the component's first run, known where its root is): 32 bytes, for registers and for the
// flsl-otf analysis's per-run array.
struct RunFeatures {
  std::uint32_t area, left, right, bottom;
  unsigned long long sum_x, sum_y;
};

__device__ inline ComponentStats with_top(const RunFeatures& f, std::uint32_t top) {
  return ComponentStats{f.area, f.left, top, f.right, f.bottom, f.sum_x, f.sum_y};
}

__device__ inline void add_at_root(const RootStats& stats, std::uint32_t slot, const RunFeatures& f) {
  atomicAdd(stats.area + slot, f.area);
  atomicMax(stats.not_left + slot, ~f.left);
  atomicMax(stats.right + slot, f.right);
  atomicMax(stats.bottom + slot, f.bottom);
  atomicAdd(stats.sum_x + slot, f.sum_x);
  atomicAdd(stats.sum_y + slot, f.sum_y);
}

// The features at `slot`, which is zeroed for the next frame (each slot is read by one thread).
__device__ inline RunFeatures take_at_root(const RootStats& stats, std::uint32_t slot) {
  const RunFeatures f{stats.area[slot], ~stats.not_left[slot], stats.right[slot], stats.bottom[slot],
                      stats.sum_x[slot], stats.sum_y[slot]};
  stats.area[slot] = 0;
  stats.not_left[slot] = 0;
  stats.right[slot] = 0;
  stats.bottom[slot] = 0;
  stats.sum_x[slot] = 0;
  stats.sum_y[slot] = 0;
  return f;
}

}  // namespace ccl::cuda
