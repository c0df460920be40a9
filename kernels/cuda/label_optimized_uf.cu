#include "label_optimized_uf.cuh"

#include "cuda_check.hpp"
#include "stage_timer.cuh"
#include "union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kMergeWarps = 8;  // each warp takes every 8th row of the 32-row tile
constexpr int kBoundaryThreads = 256;

__device__ bool bit(unsigned row, int i) { return (row >> i) & 1u; }

// Local merge of one 32x32 tile. Coarse labeling: a ballot gives each row's foreground, and every
// pixel points at the start of its run in the tile row (Chen's row scan and unification in one
// step). Then local union-find joins runs of adjacent rows at the first pixel of each overlap only
// (the next pixels of that overlap would join the same two runs again).
template <int Connectivity>
__global__ void __launch_bounds__(kTileWidth * kMergeWarps) LocalMergeKernel(DeviceMask mask, std::uint32_t* labels) {
  __shared__ std::uint32_t parent[kTileHeight * kTileWidth];
  __shared__ unsigned row_fg[kTileHeight];
  const int lx = threadIdx.x;
  const int x = blockIdx.x * kTileWidth + lx;
  const int y0 = blockIdx.y * kTileHeight;

#pragma unroll
  for (int ly = threadIdx.y; ly < kTileHeight; ly += kMergeWarps) {
    const int y = y0 + ly;
    const bool fg = x < mask.width && y < mask.height && mask.foreground(x, y);
    const unsigned row = __ballot_sync(kFullWarp, fg);
    if (lx == 0) row_fg[ly] = row;
    const unsigned bg_up_to_me = ~row & (lanes_below(lx) | (1u << lx));
    const int run_start = bg_up_to_me ? 32 - __clz(bg_up_to_me) : 0;
    parent[ly * kTileWidth + lx] = ly * kTileWidth + run_start;
  }
  __syncthreads();

  for (int ly = threadIdx.y; ly < kTileHeight; ly += kMergeWarps) {
    const unsigned cur = row_fg[ly];
    if (ly == 0 || !bit(cur, lx)) continue;
    const unsigned up = row_fg[ly - 1];
    const std::uint32_t me = ly * kTileWidth + lx;
    if (bit(up, lx) && !(lx > 0 && bit(cur, lx - 1) && bit(up, lx - 1))) unite(parent, me, me - kTileWidth);
    if (Connectivity == 8) {
      if (lx > 0 && bit(up, lx - 1) && !bit(up, lx) && !bit(cur, lx - 1)) unite(parent, me, me - kTileWidth - 1);
      if (lx < kTileWidth - 1 && bit(up, lx + 1) && !bit(up, lx) && !bit(cur, lx + 1))
        unite(parent, me, me - kTileWidth + 1);
    }
  }
  __syncthreads();

  for (int ly = threadIdx.y; ly < kTileHeight; ly += kMergeWarps) {
    if (!bit(row_fg[ly], lx)) continue;
    const std::uint32_t root = find_root_compress(parent, std::uint32_t(ly * kTileWidth + lx));
    const int root_x = blockIdx.x * kTileWidth + int(root % kTileWidth);
    const int root_y = y0 + int(root / kTileWidth);
    labels[mask.index(x, y0 + ly)] = mask.index(root_x, root_y);
  }
}

// Unions across tile borders; one thread per pixel of a tile's top row (with the row above) or
// left column (with the column to the left). A pair is skipped when the pair just before it
// along the border joins the same sets: that keeps unions to about one per crossing run.
template <int Connectivity>
__global__ void __launch_bounds__(kBoundaryThreads)
    BoundaryUnionKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t n_top, std::uint32_t n_total) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n_total) return;
  const int w = mask.width, h = mask.height;
  if (t < n_top) {  // (x, y) on the top row of a tile, joined with row y - 1
    const int x = int(t % std::uint32_t(w)), y = int(t / std::uint32_t(w) + 1) * kTileHeight;
    if (!mask.foreground(x, y)) return;
    const std::uint32_t p = mask.index(x, y);
    const bool up = mask.foreground(x, y - 1);
    const bool left = x > 0 && mask.foreground(x - 1, y), up_left = x > 0 && mask.foreground(x - 1, y - 1);
    if (up && !(x % kTileWidth != 0 && left && up_left)) unite(labels, p, p - w);
    if (Connectivity == 8) {
      if (up_left && !up && !left) unite(labels, p, p - w - 1);
      const bool right = x + 1 < w && mask.foreground(x + 1, y), up_right = x + 1 < w && mask.foreground(x + 1, y - 1);
      if (up_right && !up && !right) unite(labels, p, p - w + 1);
    }
    return;
  }
  // (x, y) on the left column of a tile, joined with column x - 1; diagonals that reach into the
  // row above a tile's top row were already joined by the top-row threads.
  const std::uint32_t v = t - n_top;
  const int y = int(v % std::uint32_t(h)), x = int(v / std::uint32_t(h) + 1) * kTileWidth;
  if (!mask.foreground(x, y)) return;
  const std::uint32_t p = mask.index(x, y);
  const bool left = mask.foreground(x - 1, y);
  const bool top_row = y % kTileHeight == 0;
  const bool up = y > 0 && mask.foreground(x, y - 1), up_left = y > 0 && mask.foreground(x - 1, y - 1);
  if (left && !(!top_row && up && up_left)) unite(labels, p, p - 1);
  if (Connectivity == 8) {
    if (!top_row && up_left && !up && !left) unite(labels, p, p - w - 1);
    if (y + 1 < h && (y + 1) % kTileHeight != 0) {
      const bool down = mask.foreground(x, y + 1), down_left = mask.foreground(x - 1, y + 1);
      if (down_left && !down && !left) unite(labels, p, p + w - 1);
    }
  }
}

template <int Connectivity>
void label(const DeviceMask& mask, std::uint32_t* labels, cudaStream_t stream, StageTimer* timer) {
  const dim3 tiles((mask.width + kTileWidth - 1) / kTileWidth, (mask.height + kTileHeight - 1) / kTileHeight);
  LocalMergeKernel<Connectivity><<<tiles, dim3(kTileWidth, kMergeWarps), 0, stream>>>(mask, labels);
  check_launch("LocalMergeKernel");
  mark(timer, "LocalMergeKernel", stream);

  const std::uint32_t n_top = (tiles.y - 1) * std::uint32_t(mask.width);
  const std::uint32_t n_total = n_top + (tiles.x - 1) * std::uint32_t(mask.height);
  if (n_total > 0) {
    BoundaryUnionKernel<Connectivity><<<(n_total + kBoundaryThreads - 1) / kBoundaryThreads, kBoundaryThreads, 0, stream>>>(
        mask, labels, n_top, n_total);
    check_launch("BoundaryUnionKernel");
  }
  mark(timer, "BoundaryUnionKernel", stream);
}

}  // namespace

cudaError_t probe_kernel_image() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, LocalMergeKernel<8>);
}

void label_optimized_uf(const DeviceMask& mask, int connectivity, std::uint32_t* labels, cudaStream_t stream,
                        StageTimer* timer) {
  if (connectivity == 4)
    label<4>(mask, labels, stream, timer);
  else
    label<8>(mask, labels, stream, timer);
}

}  // namespace ccl::cuda
