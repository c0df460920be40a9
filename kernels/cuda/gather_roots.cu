#include "gather_roots.cuh"

#include "cuda_check.hpp"
#include "dependent_launch.cuh"
#include "stage_timer.cuh"

namespace ccl::cuda {
namespace {

constexpr int kThreads = 256;

// Where the components go: dense statistics by rank, or component lists.
struct Destination {
  ComponentStats stats;  // Dense
  FrameCounts* counts;   // lists: the counts (null: not written)
  Component* host;       // lists: ranks below on_host
  Component* rest;       // lists: ranks from on_host on
  std::uint32_t on_host, max_objects;
};

__device__ std::uint32_t warp_sum(std::uint32_t v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullWarp, v, offset);
  return v;
}

// Block b takes the roots of rows b * kRowWarps on and numbers them itself: it adds up the roots of
// the row blocks before it, read by all its threads at once (a look-back across the blocks would be
// a chain of waits; these reads grow with the height squared: reading every block's count in every
// block took 28 us at 65536 rows on the H100, and this reads half of that), then its rows' counts
// into their offsets, which it writes over the counts. Block 0 adds up the whole frame instead and
// writes the counts: it starts first (the counts written by the last block instead made the gather
// 0.3-0.6 us longer on the H100).
// Then the components, in chunks of one per thread. Lists: each chunk is staged in shared memory
// and stored as contiguous 8-byte words (into host memory a store costs a bus write however few of
// its bytes it carries).
template <bool Dense>
__global__ void __launch_bounds__(kThreads)
    GatherRootsKernel(DeviceMask mask, std::uint32_t* row_offset, const std::uint32_t* block_roots, RootStats roots,
                      FrameCounts* counts, Destination to) {
  static_assert(sizeof(Component) % 8 == 0 && alignof(Component) == 8, "components are copied as 8-byte words");
  __shared__ Component staged[Dense ? 1 : kThreads];
  __shared__ std::uint32_t offset[kRowWarps + 1];
  __shared__ std::uint32_t warp_sums[kThreads / 32];
  wait_for_previous_kernel();
  const int y0 = int(blockIdx.x) * kRowWarps, rows = min(kRowWarps, mask.height - y0);
  const bool block_zero = blockIdx.x == 0;
  std::uint32_t sum = 0;
  for (unsigned i = threadIdx.x; i < (block_zero ? gridDim.x : blockIdx.x); i += kThreads) sum += block_roots[i];
  sum = warp_sum(sum);
  if (lane_id() == 0) warp_sums[threadIdx.x / 32] = sum;
  if (int(threadIdx.x) < rows) offset[threadIdx.x + 1] = row_offset[y0 + int(threadIdx.x)];
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t n = 0;
    for (int w = 0; w < kThreads / 32; ++w) n += warp_sums[w];
    if (block_zero) {
      row_offset[mask.height] = n;
      *counts = FrameCounts{n, n};  // CountInRangeKernel takes out the filtered ones
      if (!Dense && to.counts) *to.counts = FrameCounts{n, n};
    }
    offset[0] = block_zero ? 0 : n;
    for (int r = 0; r < rows; ++r) offset[r + 1] += offset[r];
  }
  __syncthreads();
  if (int(threadIdx.x) < rows) row_offset[y0 + int(threadIdx.x)] = offset[threadIdx.x];
  const std::uint32_t row_slots = slots_per_row(mask.width);
  for (std::uint32_t first = offset[0]; first < offset[rows]; first += kThreads) {
    const std::uint32_t j = first + threadIdx.x;
    if (j < offset[rows]) {
      int r = 0;
      while (offset[r + 1] <= j) ++r;
      const std::uint32_t y = std::uint32_t(y0 + r);
      const std::uint32_t x = roots.row_root_x[y * row_slots + (j - offset[r])];
      const RunFeatures f = take_at_root(roots, root_slot(x, y, row_slots));
      if constexpr (Dense) {
        to.stats.area[j] = f.area;
        to.stats.left[j] = f.left;
        to.stats.right[j] = f.right;
        to.stats.top[j] = y;
        to.stats.bottom[j] = f.bottom;
        to.stats.sum_x[j] = f.sum_x;
        to.stats.sum_y[j] = f.sum_y;
      } else {
        Component c;
        c.label = j + 1;
        c.area = f.area;
        c.x = std::int32_t(f.left);
        c.y = std::int32_t(y);
        c.width = std::int32_t(f.right - f.left + 1);
        c.height = std::int32_t(f.bottom - y + 1);
        c.centroid_x = double(f.sum_x) / double(f.area);
        c.centroid_y = double(f.sum_y) / double(f.area);
        staged[threadIdx.x] = c;
      }
    }
    if constexpr (!Dense) {
      __syncthreads();
      constexpr std::uint32_t kWords = sizeof(Component) / 8;
      const std::uint32_t end = min(min(offset[rows], to.max_objects), first + kThreads);  // the first max_objects
      const auto* from = reinterpret_cast<const unsigned long long*>(staged);
      for (std::uint32_t i = threadIdx.x; first + i / kWords < end; i += kThreads) {
        const std::uint32_t component = first + i / kWords;
        Component* list = component < to.on_host ? to.host : to.rest;
        reinterpret_cast<unsigned long long*>(list + first)[i] = from[i];
      }
      __syncthreads();  // staged is refilled by the next chunk
    }
  }
}

void launch(const DeviceMask& mask, Scratch& s, bool dense, const Destination& to, cudaStream_t stream,
            StageTimer* timer) {
  const unsigned blocks = unsigned(mask.height + kRowWarps - 1) / kRowWarps;
  const auto kernel = dense ? GatherRootsKernel<true> : GatherRootsKernel<false>;
  check(launch_dependent(kernel, blocks, kThreads, stream, mask, s.row_offset, s.row_block_roots, s.root_stats,
                         s.counts, to),
        "GatherRootsKernel");
  mark(timer, "GatherRootsKernel", stream);
}

}  // namespace

void gather_roots_into_stats(const DeviceMask& mask, Scratch& s, cudaStream_t stream, StageTimer* timer) {
  launch(mask, s, true, Destination{s.stats, nullptr, nullptr, nullptr, 0, 0}, stream, timer);
}

void gather_roots_into_lists(const DeviceMask& mask, Scratch& s, std::uint32_t max_objects, std::uint32_t on_host,
                             const ComponentList& host, Component* rest, cudaStream_t stream, StageTimer* timer) {
  launch(mask, s, false, Destination{ComponentStats{}, host.counts, host.components, rest, on_host, max_objects},
         stream, timer);
}

}  // namespace ccl::cuda
