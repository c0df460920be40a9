#include "analyze/naive.cuh"

#include "analyze/flsl_cd.cuh"
#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/tile_runs.cuh"

namespace ccl::cuda {
namespace {

constexpr int kPixelThreads = 256;  // a warp per 32 pixels of a row, 8 rows a block

// A pixel's component is found as LabelMapKernel finds it: through the start of its tile-local
// run (the labeling contract keeps a parent chain there), then the root's raster rank. Every
// foreground pixel then updates every feature of that component with its own atomics.
__global__ void __launch_bounds__(kPixelThreads)
    PixelFeaturesKernel(DeviceMask mask, const std::uint32_t* labels, const std::uint32_t* root_rank,
                        const std::uint32_t* row_offset, ComponentStatsArrays stats) {
  const int lane = lane_id(), x0 = int(blockIdx.x) * 32, x = x0 + lane;
  const int y = int(blockIdx.y) * (kPixelThreads / 32) + int(threadIdx.x / 32);
  if (y >= mask.height) return;  // the whole warp
  const bool fg = x < mask.width && mask.foreground(x, y);
  const unsigned row = __ballot_sync(kFullWarp, fg);
  if (!row) return;  // the whole warp
  const int entering = run_entering_warp(mask, x0, y, row);
  if (!fg) return;
  const std::uint32_t root = pixel_root(mask, labels, x0, y, row, entering);
  const std::uint32_t id = row_offset[root / std::uint32_t(mask.width)] + root_rank[root];
  const std::uint32_t ux = std::uint32_t(x), uy = std::uint32_t(y);
  if (root == mask.index(x, y)) stats.top[id] = uy;  // the root is the component's first pixel
  atomicAdd(stats.area + id, 1u);
  atomicMin(stats.left + id, ux);
  atomicMax(stats.right + id, ux);
  atomicMax(stats.bottom + id, uy);
  atomicAdd(stats.sum_x + id, (unsigned long long)ux);
  atomicAdd(stats.sum_y + id, (unsigned long long)uy);
}

}  // namespace

void analyze_naive(const DeviceMask& mask, std::uint32_t* labels, const RowBlockScan& scan, const AnalysisOutput& out,
                   cudaStream_t stream, StageTimer* timer) {
  link_and_rank_roots(mask, labels, scan, out, stream, timer);
  const int rows_per_block = kPixelThreads / 32;
  const dim3 grid((mask.width + 31) / 32, (mask.height + rows_per_block - 1) / rows_per_block);
  PixelFeaturesKernel<<<grid, kPixelThreads, 0, stream>>>(mask, labels, out.root_rank, out.row_offset, out.stats);
  check_launch("PixelFeaturesKernel");
  mark(timer, "PixelFeaturesKernel", stream);
}

}  // namespace ccl::cuda
