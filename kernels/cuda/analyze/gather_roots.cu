#include "analyze/gather_roots.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/dependent_launch.cuh"
#include "primitives/row_block_scan.cuh"

namespace ccl::cuda {
namespace {

constexpr int kThreads = 256;

// Where the components go: dense statistics by rank, or component lists.
struct Destination {
  ComponentStatsArrays stats;  // Dense
  FrameCounts* counts;         // lists: the counts (null: not written)
  Component* host;             // lists: ranks below on_host
  Component* rest;             // lists: ranks from on_host on
  std::uint32_t on_host, max_objects;
};

// The roots of a block's rows in raster order, each warp holding the running count at the end of
// every row (row r's roots are those from ends[r - 1] to ends[r]): from the rows' counts alone, so
// a thread can load its root before the block knows where its components start.
struct BlockRows {
  std::uint32_t ends[kRowWarps];
  int y0;
  // Row (within the block) and x of the t-th root (t < ends[kRowWarps - 1]).
  __device__ void root(const RootStats& roots, std::uint32_t row_slots, std::uint32_t t, int& r, std::uint32_t& x) const {
    r = 0;
    std::uint32_t start = 0;
#pragma unroll
    for (int k = 0; k < kRowWarps - 1; ++k)
      if (ends[k] <= t) {
        r = k + 1;
        start = ends[k];
      }
    x = roots.row_root_x[std::uint32_t(y0 + r) * row_slots + (t - start)];
  }
};

// Block b takes the roots of rows b * kRowWarps on and numbers them itself. Each thread first loads
// its root's statistics, which needs only the counts of the block's rows; meanwhile the block adds
// up the roots of the row blocks before it, read by all its threads at once (a look-back across the
// blocks would be a chain of waits; these reads grow with the height squared: reading every block's
// count in every block took 28 us at 65536 rows on the H100, and this reads half of that), and
// writes its rows' offsets over their counts. Block 0 adds up the whole frame instead and writes the
// counts: it starts first (the counts written by the last block instead made the gather 0.3-0.6 us
// longer on the H100). The components go out in chunks of one per thread. Lists: each chunk is
// staged in shared memory and stored as contiguous 8-byte words (into host memory a store costs a
// bus write however few of its bytes it carries).
template <bool Dense>
__global__ void __launch_bounds__(kThreads)
    GatherRootsKernel(DeviceMask mask, std::uint32_t* row_offset, const std::uint32_t* block_roots, RootStats roots,
                      FrameCounts* counts, Destination to) {
  static_assert(sizeof(Component) % 8 == 0 && alignof(Component) == 8, "components are copied as 8-byte words");
  __shared__ Component staged[Dense ? 1 : kThreads];
  __shared__ std::uint32_t warp_sums[kThreads / 32];
  wait_for_previous_kernel();
  const int lane = lane_id();
  const bool block_zero = blockIdx.x == 0;
  BlockRows rows_of{{}, int(blockIdx.x) * kRowWarps};
  const int rows = min(kRowWarps, mask.height - rows_of.y0);
  std::uint32_t sum = 0;
  for (unsigned i = threadIdx.x; i < (block_zero ? gridDim.x : blockIdx.x); i += kThreads) sum += block_roots[i];
  const std::uint32_t count = lane < rows ? row_offset[rows_of.y0 + lane] : 0u;  // every warp: the same words
  const std::uint32_t inclusive = warp_inclusive_sum<kRowWarps>(count);
#pragma unroll
  for (int k = 0; k < kRowWarps; ++k) rows_of.ends[k] = __shfl_sync(kFullWarp, inclusive, k);
  const std::uint32_t n_roots = rows_of.ends[kRowWarps - 1];
  const std::uint32_t row_slots = slots_per_row(mask.width);

  // The t-th root of the block's rows: its row within the block, and its statistics.
  int r = 0;
  std::uint32_t x = 0;
  RunFeatures f{};
  const auto load_root = [&](std::uint32_t t) {
    rows_of.root(roots, row_slots, t, r, x);
    f = take_at_root(roots, root_slot(x, std::uint32_t(rows_of.y0 + r), row_slots));
  };
  if (threadIdx.x < n_roots) load_root(threadIdx.x);  // the first chunk's, before the barrier the offset waits for
  sum = warp_sum(sum);
  if (lane == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();  // also: every warp has read the rows' counts that warp 0 overwrites below
  std::uint32_t added = 0;
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) added += warp_sums[w];
  const std::uint32_t before = block_zero ? 0u : added;
  if (threadIdx.x < std::uint32_t(rows)) row_offset[rows_of.y0 + int(threadIdx.x)] = before + inclusive - count;
  if (block_zero && threadIdx.x == 0) {
    row_offset[mask.height] = added;
    *counts = FrameCounts{added, added};  // CountInRangeKernel takes out the filtered ones
    if (!Dense && to.counts) *to.counts = FrameCounts{added, added};
  }

  for (std::uint32_t first = 0; first < n_roots; first += kThreads) {
    const std::uint32_t t = first + threadIdx.x;
    if (t < n_roots) {
      if (first > 0) load_root(t);  // the first chunk's were loaded above
      const std::uint32_t j = before + t, y = std::uint32_t(rows_of.y0 + r);
      if constexpr (Dense)
        to.stats.store(j, with_top(f, y));
      else
        staged[threadIdx.x] = make_component(with_top(f, y), j + 1);
    }
    if constexpr (!Dense) {
      __syncthreads();
      constexpr std::uint32_t kWords = sizeof(Component) / 8;
      const std::uint32_t chunk = before + first;  // the chunk's first component
      const std::uint32_t end = min(min(before + n_roots, to.max_objects), chunk + kThreads);  // the first max_objects
      const auto* from = reinterpret_cast<const unsigned long long*>(staged);
      for (std::uint32_t i = threadIdx.x; chunk + i / kWords < end; i += kThreads) {
        const std::uint32_t component = chunk + i / kWords;
        Component* list = component < to.on_host ? to.host : to.rest;
        reinterpret_cast<unsigned long long*>(list + chunk)[i] = from[i];
      }
      __syncthreads();  // staged is refilled by the next chunk
    }
  }
}

void launch(const DeviceMask& mask, const RootSlotsView& slots, const AnalysisOutput& out, bool dense,
            const Destination& to, cudaStream_t stream, StageTimer* timer) {
  const auto kernel = dense ? GatherRootsKernel<true> : GatherRootsKernel<false>;
  check(launch_dependent(kernel, row_blocks(mask.height), kThreads, stream, mask, out.row_offset,
                         slots.row_block_roots, slots.stats, out.counts, to),
        "GatherRootsKernel");
  mark(timer, "GatherRootsKernel", stream);
}

}  // namespace

void gather_roots_into_stats(const DeviceMask& mask, const RootSlotsView& slots, const AnalysisOutput& out,
                             cudaStream_t stream, StageTimer* timer) {
  launch(mask, slots, out, true, Destination{out.stats, nullptr, nullptr, nullptr, 0, 0}, stream, timer);
}

void gather_roots_into_lists(const DeviceMask& mask, const RootSlotsView& slots, const AnalysisOutput& out,
                             std::uint32_t max_objects, std::uint32_t on_host, const ComponentList& host,
                             Component* rest, cudaStream_t stream, StageTimer* timer) {
  launch(mask, slots, out, false,
         Destination{ComponentStatsArrays{}, host.counts, host.components, rest, on_host, max_objects}, stream,
         timer);
}

}  // namespace ccl::cuda
