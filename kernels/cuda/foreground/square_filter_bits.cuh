// Clipped-square erosion and dilation of a bit tile in shared memory (bit i of word j of a row is
// pixel 32 j + i of the tile's row), separably: rows with word shifts, then columns with word ANDs
// or ORs. Pixels outside the frame take the filter's identity (1 for erosion, 0 for dilation), which
// is the same as clipping the square to the frame.
#pragma once

#include <cstdint>

namespace ccl::cuda {

// Where a bit tile lies: bit i of word (row, j) is frame pixel (x0 + 32 j + i, y0 + row).
struct BitTile {
  std::uint32_t* words;    // rows * words_per_row
  std::uint32_t* scratch;  // as large: the row pass's output
  int words_per_row, rows;
  int x0, y0;
  int frame_width, frame_height;

  // The bits of word j that are pixels inside the frame's columns.
  __device__ std::uint32_t in_frame_columns(int j) const {
    const int first = x0 + 32 * j;  // frame column of bit 0
    const int lo = max(0, -first), hi = min(32, frame_width - first);  // bits [lo, hi) are inside
    if (hi <= lo) return 0u;
    const std::uint32_t upto_hi = hi >= 32 ? ~0u : ((1u << hi) - 1u);
    return upto_hi & ~((1u << lo) - 1u);
  }
  __device__ bool row_in_frame(int row) const { return y0 + row >= 0 && y0 + row < frame_height; }
};

// Word j of `row` with the pixels outside the frame set to `identity`'s bits.
__device__ inline std::uint32_t word_with_identity(const BitTile& t, const std::uint32_t* plane, int row, int j,
                                                   std::uint32_t identity) {
  if (j < 0 || j >= t.words_per_row) return identity;  // beyond the buffer: its results are discarded
  const std::uint32_t inside = t.row_in_frame(row) ? t.in_frame_columns(j) : 0u;
  return (plane[row * t.words_per_row + j] & inside) | (identity & ~inside);
}

// One erosion (AND) or dilation (OR) of radius r (1..31) in place in t.words. Whole block; the
// caller has synchronised after writing t.words; returns synchronised. The r pixels (and rows)
// nearest the buffer's edges come out wrong, which the caller's halo absorbs.
__device__ inline void square_filter_bits(const BitTile& t, int r, bool erode) {
  const std::uint32_t identity = erode ? ~0u : 0u;
  const int n = t.rows * t.words_per_row;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int row = i / t.words_per_row, j = i - row * t.words_per_row;
    const std::uint32_t w = word_with_identity(t, t.words, row, j, identity);
    const std::uint32_t left = word_with_identity(t, t.words, row, j - 1, identity);
    const std::uint32_t right = word_with_identity(t, t.words, row, j + 1, identity);
    std::uint32_t acc = w;
    for (int k = 1; k <= r; ++k) {
      const std::uint32_t from_right = (w >> k) | (right << (32 - k));  // bit i: pixel i + k
      const std::uint32_t from_left = (w << k) | (left >> (32 - k));   // bit i: pixel i - k
      acc = erode ? (acc & from_right & from_left) : (acc | from_right | from_left);
    }
    t.scratch[i] = acc;
  }
  __syncthreads();  // the column pass reads other threads' row results
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int row = i / t.words_per_row, j = i - row * t.words_per_row;
    std::uint32_t acc = identity;
    for (int k = max(0, row - r); k <= min(t.rows - 1, row + r); ++k)
      if (t.row_in_frame(k)) acc = erode ? (acc & t.scratch[k * t.words_per_row + j]) : (acc | t.scratch[k * t.words_per_row + j]);
    t.words[i] = acc;
  }
  __syncthreads();  // the next filter (or the write-out) reads other threads' words
}

}  // namespace ccl::cuda
