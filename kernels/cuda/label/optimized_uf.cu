#include "label/optimized_uf.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/dependent_launch.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kRowWords = kTileWidth / 32;
constexpr int kMergeThreads = kTileHeight * kRowWords;  // one thread per 32-pixel word of the tile
constexpr int kBoundaryThreads = 256;

// Shared slot of run-start node i: one pad word per 32 nodes, so the starts at the same bit of the
// 32 words a warp holds (aligned blocks of foreground start at the same bits) hit 32 banks.
struct TileSlot {
  __device__ std::uint32_t operator()(std::uint32_t i) const { return i + i / 32; }
};
static_assert(kMergeThreads == 2 * kTileWidth, "the border pass gives each thread one pixel of the top or bottom row");

// Tile-row position of the first pixel of the run holding foreground position `pos`.
__device__ int run_start(const unsigned* row, int pos) {
  int w = pos / 32;
  unsigned background = ~row[w] & ((2u << (pos % 32)) - 1u);
  while (background == 0 && w > 0) background = ~row[--w];
  return background ? w * 32 + 32 - __clz(background) : 0;
}

// Foreground of each pixel's left (right) neighbour within the tile row, for the word `k`.
__device__ unsigned left_bits(const unsigned* row, int k) { return row[k] << 1 | (k > 0 ? row[k - 1] >> 31 : 0u); }
__device__ unsigned right_bits(const unsigned* row, int k) {
  return row[k] >> 1 | (k + 1 < kRowWords ? row[k + 1] << 31 : 0u);
}

// Local merge of one 128x64 tile, one thread per 32-pixel word (two 16-byte loads). The union-find
// nodes are the tile row runs, indexed by their first pixel: Chen's row scan and unification give
// each pixel its run start in one step from the foreground bits, the column scan points each run
// start at the run above it (the unification then flattens those chains), and local union-find
// joins the remaining contacts between runs of adjacent rows, once each at the first pixel of a
// contact. Labels are written only for run starts and the tile border, the pixels later stages read.
template <int Connectivity>
__global__ void __launch_bounds__(kMergeThreads) LocalMergeKernel(DeviceMask mask, std::uint32_t* labels) {
  __shared__ std::uint32_t parent[kTileHeight * kTileWidth + kTileHeight * kTileWidth / 32];
  __shared__ unsigned fg_rows[kTileHeight][kRowWords];
  const TileSlot slot;
  wait_for_previous_kernel();  // launched as a dependent: the kernel before (a foreground pass) may write the mask
  const int ly = threadIdx.x / kRowWords, k = threadIdx.x % kRowWords;
  const int tile_x = blockIdx.x * kTileWidth, tile_y = blockIdx.y * kTileHeight;
  const int x = tile_x + 32 * k, y = tile_y + ly;
  const bool vector = mask.vector_rows();
  unsigned fg = 0;
  if (y < mask.height) fg = mask.foreground_bits16(x, y, vector) | mask.foreground_bits16(x + 16, y, vector) << 16;
  fg_rows[ly][k] = fg;
  __syncthreads();

  const unsigned* row = fg_rows[ly];
  const unsigned* up_row = fg_rows[ly > 0 ? ly - 1 : 0];
  const unsigned starts = fg & ~left_bits(row, k);
  const unsigned up = ly > 0 ? up_row[k] : 0u;
  const std::uint32_t base = ly * kTileWidth;
  for (unsigned s = starts; s; s &= s - 1) {  // column scan
    const int pos = 32 * k + __ffs(s) - 1;
    parent[slot(base + pos)] = (up >> (pos % 32)) & 1u ? base - kTileWidth + run_start(up_row, pos) : base + pos;
  }
  __syncthreads();

  // Chen's row-column unification: the column scan leaves a vertical chain as deep as an object is
  // tall; every linked run start halving its path at once flattens the chains before the unions
  // walk them (no barrier: a warp that reaches the unions early only walks a longer path).
  for (unsigned s = starts & up; s; s &= s - 1) find_root_compress(parent, base + 32 * k + __ffs(s) - 1, slot);

  if (ly > 0) {
    const unsigned left = left_bits(row, k), up_left = left_bits(up_row, k);
    const unsigned vertical = fg & left & up & ~up_left;  // contacts not at a run start: those had the column scan
    unsigned diagonal_left = 0, diagonal_right = 0;
    if (Connectivity == 8) {
      diagonal_left = fg & up_left & ~up & ~left;
      diagonal_right = fg & right_bits(up_row, k) & ~up & ~right_bits(row, k);
    }
    // a pixel can touch two runs above it diagonally, so each kind of contact has its own loop
    auto join = [&](unsigned contacts, int dx) {
      for (; contacts; contacts &= contacts - 1) {
        const int pos = 32 * k + __ffs(contacts) - 1;
        unite(parent, base + run_start(row, pos), base - kTileWidth + run_start(up_row, pos + dx), slot);
      }
    };
    join(vertical, 0);
    join(diagonal_left, -1);
    join(diagonal_right, 1);
  }
  __syncthreads();

  // Every run start learns its root (kept in parent, so the border pass below reads it in one step).
  const auto global = [&](std::uint32_t local) {
    return mask.index(tile_x + int(local % kTileWidth), tile_y + int(local / kTileWidth));
  };
  const bool border_row = ly == 0 || ly == kTileHeight - 1;
  for (unsigned s = starts; s; s &= s - 1) {
    const int bit = __ffs(s) - 1;
    const std::uint32_t root = find_root_compress(parent, base + 32 * k + bit, slot);
    atomicMin(parent + slot(base + 32 * k + bit), root);
    if (!border_row) labels[mask.index(x + bit, y)] = global(root);
  }
  __syncthreads();

  // Tile border pixels, for BoundaryUnionKernel: the top and bottom rows one pixel a thread (so
  // the stores coalesce), the right column by the threads of its words.
  const int border_ly = threadIdx.x < kTileWidth ? 0 : kTileHeight - 1;
  const int border_pos = threadIdx.x % kTileWidth;
  const unsigned* border = fg_rows[border_ly];
  if ((border[border_pos / 32] >> (border_pos % 32)) & 1u) {
    const std::uint32_t root = parent[slot(border_ly * kTileWidth + run_start(border, border_pos))];
    labels[mask.index(tile_x + border_pos, tile_y + border_ly)] = global(root);
  }
  if (k == kRowWords - 1 && !border_row && (fg & ~starts) >> 31)
    labels[mask.index(x + 31, y)] = global(parent[slot(base + run_start(row, kTileWidth - 1))]);
}

// Unions across tile borders; one thread per pixel of a tile's top row (with the row above) or
// left column (with the column to the left). A pair is skipped when the pair just before it
// along the border joins the same sets: that keeps unions to about one per crossing run.
template <int Connectivity>
__global__ void __launch_bounds__(kBoundaryThreads)
    BoundaryUnionKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t n_top, std::uint32_t n_total) {
  wait_for_previous_kernel();
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

}  // namespace

template <int Connectivity>
void label_optimized_uf(const DeviceMask& mask, std::uint32_t* labels, cudaStream_t stream, StageTimer* timer) {
  const dim3 tiles((mask.width + kTileWidth - 1) / kTileWidth, (mask.height + kTileHeight - 1) / kTileHeight);
  check(launch_dependent(LocalMergeKernel<Connectivity>, tiles, kMergeThreads, stream, mask, labels),
        "LocalMergeKernel");
  mark(timer, "LocalMergeKernel", stream);

  const std::uint32_t n_top = (tiles.y - 1) * std::uint32_t(mask.width);
  const std::uint32_t n_total = n_top + (tiles.x - 1) * std::uint32_t(mask.height);
  if (n_total > 0) {
    check(launch_dependent(BoundaryUnionKernel<Connectivity>, (n_total + kBoundaryThreads - 1) / kBoundaryThreads,
                           kBoundaryThreads, stream, mask, labels, n_top, n_total),
          "BoundaryUnionKernel");
  }
  mark(timer, "BoundaryUnionKernel", stream);
}
template void label_optimized_uf<4>(const DeviceMask&, std::uint32_t*, cudaStream_t, StageTimer*);
template void label_optimized_uf<8>(const DeviceMask&, std::uint32_t*, cudaStream_t, StageTimer*);

cudaError_t probe_kernel_image() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, LocalMergeKernel<8>);
}

}  // namespace ccl::cuda
