#include "output/label_map.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/tile_runs.cuh"

namespace ccl::cuda {
namespace {

constexpr int kLabelMapThreads = 256;  // a warp per 32 pixels of a row

// Label map: 0 for background, else the component's label in the chosen order. Labeling left a
// parent at tile-local run starts only, so each pixel goes through the start of its run; a warp
// takes 32 pixels of a row and walks left (within the tile) for the run entering them.
__global__ void __launch_bounds__(kLabelMapThreads)
    LabelMapKernel(DeviceMask mask, const std::uint32_t* labels, const std::uint32_t* root_rank,
                   const std::uint32_t* row_offset, const std::uint32_t* final_label, LabelView out) {
  const int lane = lane_id(), x0 = blockIdx.x * 32, x = x0 + lane;
  const int y = blockIdx.y * (kLabelMapThreads / 32) + int(threadIdx.x / 32);
  if (y >= mask.height) return;  // the whole warp
  const bool fg = x < mask.width && mask.foreground(x, y);
  const unsigned row = __ballot_sync(kFullWarp, fg);
  const int entering = run_entering_warp(mask, x0, y, row);
  if (x >= mask.width) return;
  std::uint32_t label = 0;
  if (fg) {
    const std::uint32_t root = pixel_root(mask, labels, x0, y, row, entering);
    const std::uint32_t id = row_offset[root / std::uint32_t(mask.width)] + root_rank[root];
    label = final_label ? final_label[id] : id + 1;
  }
  out.data[std::ptrdiff_t(y) * out.stride + x] = label;
}

}  // namespace

void write_label_map(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
                     const std::uint32_t* final_label, const LabelView& map, cudaStream_t stream, StageTimer* timer) {
  const int rows_per_block = kLabelMapThreads / 32;
  const dim3 grid((mask.width + 31) / 32, (mask.height + rows_per_block - 1) / rows_per_block);
  LabelMapKernel<<<grid, kLabelMapThreads, 0, stream>>>(mask, labels, analysis.root_rank, analysis.row_offset,
                                                        final_label, map);
  check_launch("LabelMapKernel");
  mark(timer, "LabelMapKernel", stream);
}

}  // namespace ccl::cuda
