// Statistics kept at each component's root while the runs are added up, so the features need no
// ranks yet and one pass over the runs both ranks the roots and adds the features. A root is a
// run start, and run starts of a row are at least two pixels apart, so (row, x / 2) is a slot of
// its own: ceil(width / 2) slots a row. Every statistic has 0 for identity (left is kept
// complemented and taken with atomicMax), so no frame readies the slots: they are zeroed when
// allocated, and the gather that reads a slot zeroes it again.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ccl::cuda {

// One root's statistics in one 32-byte sector, so a run's atomics, and the gather's read and
// zeroing, touch one sector per component (six arrays made that six, which cost 2.5x at millions
// of components).
struct alignas(32) RootSlot {
  std::uint32_t area;
  std::uint32_t not_left;  // ~left
  std::uint32_t right;
  std::uint32_t bottom;
  unsigned long long sum_x;
  unsigned long long sum_y;
};
static_assert(sizeof(RootSlot) == 32, "a slot is one sector");

struct RootStats {
  RootSlot* slots;
  std::uint16_t* row_root_x;  // x of each root of row y, in order, at slots y * slots_per_row(width) on
};

__host__ __device__ inline std::uint32_t slots_per_row(int width) { return std::uint32_t(width + 1) / 2; }

// Slots a frame of `pixels` pixels and `height` rows may use: height * ceil(width / 2).
inline std::size_t root_slots(std::size_t pixels, int height) { return (pixels + std::size_t(height) + 1) / 2; }

// One run's features, or those of several runs of one component added up.
struct RunFeatures {
  std::uint32_t area, left, right, bottom;
  unsigned long long sum_x, sum_y;
};

__device__ inline void add_at_root(const RootStats& stats, std::uint32_t slot, const RunFeatures& f) {
  RootSlot& r = stats.slots[slot];
  atomicAdd(&r.area, f.area);
  atomicMax(&r.not_left, ~f.left);
  atomicMax(&r.right, f.right);
  atomicMax(&r.bottom, f.bottom);
  atomicAdd(&r.sum_x, f.sum_x);
  atomicAdd(&r.sum_y, f.sum_y);
}

// The features at `slot`, which is zeroed for the next frame (each slot is read by one thread).
__device__ inline RunFeatures take_at_root(const RootStats& stats, std::uint32_t slot) {
  uint4* sector = reinterpret_cast<uint4*>(stats.slots + slot);
  const uint4 counts = sector[0], sums = sector[1];
  sector[0] = uint4{0, 0, 0, 0};
  sector[1] = uint4{0, 0, 0, 0};
  return RunFeatures{counts.x, ~counts.y, counts.z, counts.w, (unsigned long long)sums.y << 32 | sums.x,
                     (unsigned long long)sums.w << 32 | sums.z};
}

}  // namespace ccl::cuda
