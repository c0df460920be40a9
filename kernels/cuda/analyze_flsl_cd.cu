#include "analyze_flsl_cd.cuh"

#include <algorithm>

#include "cuda_check.hpp"
#include "dependent_launch.cuh"
#include "row_block_scan.cuh"
#include "row_runs.cuh"
#include "stage_timer.cuh"
#include "union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kRowWarps = 8;  // rows per block in the run kernels, one warp each

// The link step, once per run instead of once per pixel: the run's start pixel is pointed at its
// root, and a run that starts at its root (the component's first pixel) gets its rank among the
// roots of the row. The blocks add up their roots in the same launch (row_block_scan.cuh), which
// numbers the components in raster order: each block readies the statistics of its own components
// and writes its rows' offsets, and the last block the counts the host reads back.
__global__ void __launch_bounds__(32 * kRowWarps)
    LinkRankRootsKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t* root_rank, std::uint32_t* row_offset,
                        RowBlockScan scan, ComponentStats stats, FrameCounts* counts) {
  wait_for_previous_kernel();
  __shared__ RunRing rings[kRowWarps];
  __shared__ std::uint32_t row_roots[kRowWarps];
  __shared__ unsigned block;
  __shared__ std::uint32_t first_id, block_roots;
  if (threadIdx.x == 0) block = take_block_ticket(scan);
  __syncthreads();
  if (block >= gridDim.x) __trap();  // the state was not left clean: a CUDA error, not wrong counts
  const int warp = threadIdx.x / 32, lane = lane_id();
  const int y = int(block) * kRowWarps + warp;
  const unsigned below = lanes_below(lane);
  std::uint32_t n_roots = 0;
  if (y < mask.height) {
    for_each_run_batch(mask, y, rings[warp], [&](bool valid, std::uint32_t start, std::uint32_t) {
      const std::uint32_t p = mask.index(int(start), y);
      bool is_root = false;
      if (valid) {
        const std::uint32_t parent = labels[p];
        const std::uint32_t root = parent == p ? p : find_root(labels, parent);
        if (root != parent) labels[p] = root;
        is_root = root == p;
      }
      const unsigned roots = __ballot_sync(kFullWarp, is_root);
      if (is_root) root_rank[p] = n_roots + __popc(roots & below);
      n_roots += __popc(roots);
    });
  }
  if (lane == 0) row_roots[warp] = n_roots;
  __syncthreads();

  if (warp == 0) {
    const std::uint32_t mine = lane < kRowWarps ? row_roots[lane] : 0u;
    std::uint32_t inclusive = mine;
    for (int d = 1; d < kRowWarps; d *= 2) {
      const std::uint32_t v = __shfl_up_sync(kFullWarp, inclusive, d);
      if (lane >= d) inclusive += v;
    }
    const std::uint32_t total = __shfl_sync(kFullWarp, inclusive, kRowWarps - 1);
    const std::uint32_t before = exclusive_block_prefix(scan, block, gridDim.x, total);
    const int row = int(block) * kRowWarps + lane;
    if (lane < kRowWarps && row < mask.height) row_offset[row] = before + inclusive - mine;
    if (lane == 0) {
      first_id = before;
      block_roots = total;
      if (block == gridDim.x - 1) {
        row_offset[mask.height] = before + total;
        *counts = FrameCounts{before + total, before + total};  // CountInRangeKernel takes out the filtered ones
      }
    }
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

struct RunFeatures {
  std::uint32_t area, left, right, bottom;
  unsigned long long sum_x, sum_y;
};

// Adds one run's (or one lane group's) features to its component; `top` is written apart, by the
// component's first run.
__device__ void add_features(const ComponentStats& stats, std::uint32_t id, const RunFeatures& f) {
  atomicAdd(stats.area + id, f.area);
  atomicMin(stats.left + id, f.left);
  atomicMax(stats.right + id, f.right);
  atomicMax(stats.bottom + id, f.bottom);
  atomicAdd(stats.sum_x + id, f.sum_x);
  atomicAdd(stats.sum_y + id, f.sum_y);
}

// Conflict detection (Lemaitre's Algorithm 3): lanes holding the same component find each other
// with __match_any_sync and fold their features into the lowest such lane by a masked shuffle
// reduction, so only that lane touches memory.
__device__ void merge_features_cd(unsigned active, std::uint32_t id, RunFeatures f, const ComponentStats& stats) {
  const int lane = lane_id();
  unsigned peers = __match_any_sync(active, id);
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
  if (leader) add_features(stats, id, f);
}

// ConflictDetection = false is plain FLSL: every run's lane does its own atomics.
template <bool ConflictDetection>
__global__ void __launch_bounds__(32 * kRowWarps)
    RunFeaturesKernel(DeviceMask mask, const std::uint32_t* labels, const std::uint32_t* root_rank,
                      const std::uint32_t* row_offset, ComponentStats stats) {
  wait_for_previous_kernel();
  __shared__ RunRing rings[kRowWarps];
  const int warp = threadIdx.x / 32;
  const int y = blockIdx.x * kRowWarps + warp;
  if (y >= mask.height) return;
  for_each_run_batch(mask, y, rings[warp], [&](bool valid, std::uint32_t start, std::uint32_t end) {
    const unsigned active = __ballot_sync(kFullWarp, valid);
    if (!valid) return;
    const std::uint32_t p = mask.index(int(start), y);
    const std::uint32_t root = labels[p];  // LinkRankRootsKernel linked every run start to its root
    const std::uint32_t id = row_offset[root / std::uint32_t(mask.width)] + root_rank[root];
    if (root == p) stats.top[id] = std::uint32_t(y);  // only the root's run knows the first row
    const std::uint32_t length = end - start;
    const RunFeatures f{length, start, end - 1, std::uint32_t(y),
                        (unsigned long long)(start + end - 1) * length / 2,
                        (unsigned long long)y * length};
    if constexpr (ConflictDetection) {
      merge_features_cd(active, id, f, stats);
    } else {
      (void)active;
      add_features(stats, id, f);
    }
  });
}

}  // namespace

void link_and_rank_roots(const DeviceMask& mask, Scratch& s, cudaStream_t stream, StageTimer* timer) {
  const unsigned row_blocks = (mask.height + kRowWarps - 1) / kRowWarps;
  check(launch_dependent(LinkRankRootsKernel, row_blocks, 32 * kRowWarps, stream, mask, s.labels, s.root_rank,
                         s.row_offset, s.row_block_scan, s.stats, s.counts),
        "LinkRankRootsKernel");
  mark(timer, "LinkRankRootsKernel", stream);
}

namespace {

// Links and ranks the roots, then the per-run features with or without conflict detection.
template <bool ConflictDetection>
void analyze_full_runs(const DeviceMask& mask, Scratch& s, cudaStream_t stream, StageTimer* timer,
                       const char* stage) {
  link_and_rank_roots(mask, s, stream, timer);
  const unsigned row_blocks = (mask.height + kRowWarps - 1) / kRowWarps;
  check(launch_dependent(RunFeaturesKernel<ConflictDetection>, row_blocks, 32 * kRowWarps, stream, mask, s.labels,
                         s.root_rank, s.row_offset, s.stats),
        stage);
  mark(timer, stage, stream);
}

}  // namespace

void analyze_flsl_cd(const DeviceMask& mask, Scratch& s, cudaStream_t stream, StageTimer* timer) {
  analyze_full_runs<true>(mask, s, stream, timer, "RunFeaturesKernel");
}

void analyze_flsl(const DeviceMask& mask, Scratch& s, cudaStream_t stream, StageTimer* timer) {
  analyze_full_runs<false>(mask, s, stream, timer, "RunFeaturesKernel(flsl)");
}

}  // namespace ccl::cuda
