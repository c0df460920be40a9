#include "analyze/flsl_cd.cuh"

#include <algorithm>

#include "analyze/gather_roots.cuh"
#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/dependent_launch.cuh"
#include "primitives/row_runs.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {
namespace {

// Warp 0 of a row block whose warps found `row_roots[w]` roots in row block * kRowWarps + w: adds
// up the blocks' roots (primitives/row_block_scan.cuh) and writes its rows' offsets; the last block writes
// the frame's totals. Returns the number of components before this block's (lane 0).
__device__ std::uint32_t rank_row_block(const DeviceMask& mask, unsigned block, const std::uint32_t* row_roots,
                                        std::uint32_t* row_offset, const RowBlockScan& scan, FrameCounts* counts,
                                        std::uint32_t& block_total) {
  const int lane = lane_id();
  const std::uint32_t mine = lane < kRowWarps ? row_roots[lane] : 0u;
  const std::uint32_t inclusive = warp_inclusive_sum<kRowWarps>(mine);
  const std::uint32_t total = __shfl_sync(kFullWarp, inclusive, kRowWarps - 1);
  const std::uint32_t before = exclusive_block_prefix(scan, block, gridDim.x, total);
  const int row = int(block) * kRowWarps + lane;
  if (lane < kRowWarps && row < mask.height) row_offset[row] = before + inclusive - mine;
  if (lane == 0 && block == gridDim.x - 1) {
    row_offset[mask.height] = before + total;
    *counts = FrameCounts{before + total, before + total};  // CountInRangeKernel takes out the filtered ones
  }
  block_total = total;
  return before;
}

// The link step of a run starting at pixel p: p pointed straight at its root, which is returned.
__device__ std::uint32_t link_to_root(std::uint32_t* labels, std::uint32_t p) {
  const std::uint32_t parent = labels[p];
  const std::uint32_t root = parent == p ? p : find_root(labels, parent);
  if (root != parent) labels[p] = root;
  return root;
}

// The link step, once per run instead of once per pixel: the run's start pixel is pointed at its
// root, and a run that starts at its root (the component's first pixel) gets its rank among the
// roots of the row. The blocks add up their roots in the same launch (primitives/row_block_scan.cuh), which
// numbers the components in raster order: each block readies the statistics of its own components
// and writes its rows' offsets, and the last block the counts the host reads back. (The naive and
// flsl-otf analyses; flsl-cd and flsl link and add up features in one pass, below, and the gather
// that follows it adds up the roots.)
__global__ void __launch_bounds__(32 * kRowWarps)
    LinkRankRootsKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t* root_rank, std::uint32_t* row_offset,
                        RowBlockScan scan, ComponentStatsArrays stats, FrameCounts* counts) {
  wait_for_previous_kernel();
  __shared__ RunRing rings[kRowWarps];
  __shared__ std::uint32_t row_roots[kRowWarps];
  __shared__ std::uint32_t first_id, block_roots;
  const unsigned block = take_block_ticket(scan);
  const int warp = threadIdx.x / 32, lane = lane_id();
  const int y = int(block) * kRowWarps + warp;
  const unsigned below = lanes_below(lane);
  std::uint32_t n_roots = 0;
  if (y < mask.height) {
    for_each_run_batch(mask, y, rings[warp], [&](bool valid, std::uint32_t start, std::uint32_t) {
      const std::uint32_t p = mask.index(int(start), y);
      const bool is_root = valid && link_to_root(labels, p) == p;
      const unsigned roots = __ballot_sync(kFullWarp, is_root);
      if (is_root) root_rank[p] = n_roots + __popc(roots & below);
      n_roots += __popc(roots);
    });
  }
  if (lane == 0) row_roots[warp] = n_roots;
  __syncthreads();
  if (warp == 0) {
    const std::uint32_t before = rank_row_block(mask, block, row_roots, row_offset, scan, counts, block_roots);
    if (lane == 0) first_id = before;
  }
  __syncthreads();
  for (std::uint32_t i = first_id + threadIdx.x; i < first_id + block_roots; i += blockDim.x) {
    stats.area[i] = 0;
    stats.left[i] = 0xffffffffu;
    stats.right[i] = 0;
    stats.bottom[i] = 0;
    stats.sum_x[i] = 0;
    stats.sum_y[i] = 0;
  }
}

// Conflict detection (Lemaitre's Algorithm 3): lanes holding the same component (`key`) find each
// other with __match_any_sync and fold their features into the lowest such lane by a masked
// shuffle reduction, so only that lane touches memory: it calls add(features).
template <class Add>
__device__ void merge_features_cd(unsigned active, std::uint32_t key, RunFeatures f, Add&& add) {
  const int lane = lane_id();
  unsigned peers = __match_any_sync(active, key);
  unsigned rank = __popc(peers & lanes_below(lane));
  const bool leader = rank == 0;
  peers &= lanes_above(lane);
  while (__any_sync(active, peers)) {
    const int next = __ffs(peers);  // 1 + the next peer still holding unmerged features
    const int src = next ? next - 1 : lane;
    const std::uint32_t area = __shfl_sync(active, f.area, src), left = __shfl_sync(active, f.left, src);
    const std::uint32_t right = __shfl_sync(active, f.right, src), bottom = __shfl_sync(active, f.bottom, src);
    const unsigned long long sx = __shfl_sync(active, f.sum_x, src), sy = __shfl_sync(active, f.sum_y, src);
    if (next) {
      f.area += area;
      f.left = min(f.left, left);
      f.right = max(f.right, right);
      f.bottom = max(f.bottom, bottom);
      f.sum_x += sx;
      f.sum_y += sy;
    }
    peers &= __ballot_sync(active, (rank & 1u) == 0);  // odd ranks were just absorbed
    rank >>= 1;
  }
  if (leader) add(f);
}

// The link step and the features in one pass over the runs. Each run's start is pointed at its
// root and the run's features are added at the root's slot (analyze/root_stats.cuh), which needs no rank;
// a run that starts at its root (the component's first pixel) gets its rank among the roots of its
// row and is listed there. The block leaves each row's count of roots in row_offset and its own in
// block_roots: GatherRootsKernel, launched next, adds those up into ranks, so the blocks here never
// wait for each other. ConflictDetection = false is plain FLSL: every run's lane does its own atomics.
template <bool ConflictDetection>
__global__ void __launch_bounds__(32 * kRowWarps)
    LinkRankFeaturesKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t* root_rank,
                           std::uint32_t* row_offset, std::uint32_t* block_roots, RootStats roots) {
  wait_for_previous_kernel();
  __shared__ RunRing rings[kRowWarps];
  __shared__ std::uint32_t row_roots[kRowWarps];
  const int warp = threadIdx.x / 32, lane = lane_id();
  const int y = int(blockIdx.x) * kRowWarps + warp;
  const unsigned below = lanes_below(lane);
  const std::uint32_t width = std::uint32_t(mask.width), row_slots = slots_per_row(mask.width);
  std::uint32_t n_roots = 0;
  if (y < mask.height) {
    std::uint16_t* listed = roots.row_root_x + std::size_t(y) * row_slots;
    for_each_run_batch(mask, y, rings[warp], [&](bool valid, std::uint32_t start, std::uint32_t end) {
      const std::uint32_t p = mask.index(int(start), y);
      const std::uint32_t root = valid ? link_to_root(labels, p) : p;
      const bool is_root = valid && root == p;
      const unsigned roots_here = __ballot_sync(kFullWarp, is_root);
      if (is_root) {
        const std::uint32_t k = n_roots + __popc(roots_here & below);
        root_rank[p] = k;
        listed[k] = std::uint16_t(start);
      }
      n_roots += __popc(roots_here);
      const unsigned active = __ballot_sync(kFullWarp, valid);
      if (!valid) return;
      const std::uint32_t root_y = root / width;
      const std::uint32_t slot = root_slot(root - root_y * width, root_y, row_slots);
      const std::uint32_t length = end - start;
      const RunFeatures f{length, start, end - 1, std::uint32_t(y),
                          (unsigned long long)(start + end - 1) * length / 2, (unsigned long long)y * length};
      if constexpr (ConflictDetection) {
        merge_features_cd(active, slot, f, [&](const RunFeatures& merged) { add_at_root(roots, slot, merged); });
      } else {
        (void)active;
        add_at_root(roots, slot, f);
      }
    });
    if (lane == 0) row_offset[y] = n_roots;
  }
  if (lane == 0) row_roots[warp] = n_roots;
  __syncthreads();
  if (warp == 0) {
    const std::uint32_t n = warp_sum(lane < kRowWarps ? row_roots[lane] : 0u);
    if (lane == 0) block_roots[blockIdx.x] = n;
  }
}

}  // namespace

void link_and_rank_roots(const DeviceMask& mask, std::uint32_t* labels, const RowBlockScan& scan,
                         const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer) {
  check(launch_dependent(LinkRankRootsKernel, row_blocks(mask.height), 32 * kRowWarps, stream, mask, labels,
                         out.root_rank, out.row_offset, scan, out.stats, out.counts),
        "LinkRankRootsKernel");
  mark(timer, "LinkRankRootsKernel", stream);
}

void add_features_at_roots(const DeviceMask& mask, std::uint32_t* labels, bool conflict_detection,
                           const RootSlotsView& slots, const AnalysisOutput& out, cudaStream_t stream,
                           StageTimer* timer) {
  const auto kernel = conflict_detection ? LinkRankFeaturesKernel<true> : LinkRankFeaturesKernel<false>;
  check(launch_dependent(kernel, row_blocks(mask.height), 32 * kRowWarps, stream, mask, labels, out.root_rank,
                         out.row_offset, slots.row_block_roots, slots.stats),
        "LinkRankFeaturesKernel");
  mark(timer, conflict_detection ? "LinkRankFeaturesKernel" : "LinkRankFeaturesKernel(flsl)", stream);
}

void analyze_flsl_cd(const DeviceMask& mask, std::uint32_t* labels, const RootSlotsView& slots,
                     const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer) {
  add_features_at_roots(mask, labels, true, slots, out, stream, timer);
  gather_roots_into_stats(mask, slots, out, stream, timer);
}

void analyze_flsl(const DeviceMask& mask, std::uint32_t* labels, const RootSlotsView& slots,
                  const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer) {
  add_features_at_roots(mask, labels, false, slots, out, stream, timer);
  gather_roots_into_stats(mask, slots, out, stream, timer);
}

}  // namespace ccl::cuda
