// Clipped-square erosion and dilation of a 0/1 tile in shared memory, separably (rows, then
// columns): min or max over [x-r, x+r] x [y-r, y+r] clipped to the frame, which is a product of two
// clipped ranges, so two 1-D passes give exactly the 2-D window of ccl/foreground.hpp.
#pragma once

#include <cstdint>

namespace ccl::cuda {

// Where a shared tile lies in the frame: buffer cell (c, r) is frame pixel (x0 + c, y0 + r).
struct SharedTile {
  std::uint8_t* cells;    // width * height bytes, row-major
  std::uint8_t* scratch;  // as large: the row pass's output
  int width, height;
  int x0, y0;
  int frame_width, frame_height;
};

// The range [lo, hi] of the window of radius r around cell c that lies both in the cells computed
// (first..last) and in the frame (cell c is frame coordinate origin + c, the frame 0..extent-1).
__device__ inline void clipped_window(int c, int r, int first, int last, int origin, int extent, int& lo, int& hi) {
  lo = max(c - r, max(first, -origin));
  hi = min(c + r, min(last, extent - 1 - origin));
}

// One erosion (min) or dilation (max) of radius r, in place in tile.cells, over the cells at least
// `margin` from the buffer's edge (the earlier filters' radii: only those are still right). Whole
// block; the caller has synchronised after writing tile.cells; returns synchronised. Cells whose
// window leaves that region inside the frame come out wrong: r more cells from the edge, which the
// caller's halo absorbs. Cells outside the frame are never read by cells inside it.
__device__ inline void square_filter_shared(const SharedTile& tile, int margin, int r, bool erode) {
  const int first_c = margin, last_c = tile.width - 1 - margin;
  const int first_r = margin, last_r = tile.height - 1 - margin;
  const int inner_width = last_c - first_c + 1, n = inner_width * (last_r - first_r + 1);
  const std::uint8_t identity = erode ? 1 : 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int c = first_c + i % inner_width, row = first_r + i / inner_width;
    const std::uint8_t* cells = tile.cells + row * tile.width;
    int lo, hi;
    clipped_window(c, r, first_c, last_c, tile.x0, tile.frame_width, lo, hi);
    std::uint8_t acc = identity;
    if (erode)
      for (int k = lo; k <= hi; ++k) acc &= cells[k];
    else
      for (int k = lo; k <= hi; ++k) acc |= cells[k];
    tile.scratch[row * tile.width + c] = acc;
  }
  __syncthreads();  // the column pass reads other threads' row results
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int c = first_c + i % inner_width, row = first_r + i / inner_width;
    int lo, hi;
    clipped_window(row, r, first_r, last_r, tile.y0, tile.frame_height, lo, hi);
    std::uint8_t acc = identity;
    if (erode)
      for (int k = lo; k <= hi; ++k) acc &= tile.scratch[k * tile.width + c];
    else
      for (int k = lo; k <= hi; ++k) acc |= tile.scratch[k * tile.width + c];
    tile.cells[row * tile.width + c] = acc;
  }
  __syncthreads();  // the next pass (or the write-out) reads other threads' cells
}

}  // namespace ccl::cuda
