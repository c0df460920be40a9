// The end of the foreground tile kernels: the pass's filters on its bit tile, in order, then the
// tile's interior written out as a 0/1 byte plane or as words of a bit plane (the luma pass's and
// the colour pass's under chroma=true, which run no filters).
#pragma once

#include <cstddef>
#include <cstdint>

#include "foreground/foreground_tiles.cuh"
#include "foreground/square_filter_bits.cuh"

namespace ccl::cuda {

// Opening (erode, dilate), closing (dilate, erode), shrink (erode); neighbours of one kind as one
// filter of the summed radius (exact for squares clipped to the frame): open 1, close 2, shrink 1
// is erode 1, dilate 3, erode 3. Whole block; the caller has synchronised after writing tile.words.
__device__ inline void run_tile_filters(const BitTile& tile, const TileFilters& filters) {
  const int radii[5] = {filters.open_radius, filters.open_radius, filters.close_radius, filters.close_radius,
                        filters.shrink_radius};
  const bool erodes[5] = {true, false, false, true, true};
  int pending = 0;
  bool pending_erodes = false;
#pragma unroll  // constant indices: the arrays stay in registers
  for (int f = 0; f < 5; ++f) {
    if (radii[f] == 0) continue;
    if (pending > 0 && erodes[f] != pending_erodes) {
      square_filter_bits(tile, pending, pending_erodes);
      pending = 0;
    }
    pending += radii[f];
    pending_erodes = erodes[f];
  }
  if (pending > 0) square_filter_bits(tile, pending, pending_erodes);
}

// The output tile at (out_x0, out_y0), kTileWords words by kTileHeight rows, as bytes: rows halo..
// and words 1..kTileWords of tile.words (word 0 is the left halo). A lane writes 4 pixels as one
// 32-bit store: rows of `out` are 4-byte aligned (out_pitch a multiple of 4), so a group that
// crosses the frame's right edge writes its padding, as 0; rows below the frame are not written.
template <int kTileWords = kForegroundTileWords, int kTileHeight = kForegroundTileHeight>
__device__ void write_tile_bytes(const BitTile& tile, int halo, int out_x0, int out_y0, std::uint8_t* out,
                                 std::ptrdiff_t out_pitch) {
  constexpr int kGroupsPerRow = 8 * kTileWords;
  for (int i = int(threadIdx.x); i < kTileHeight * kGroupsPerRow; i += int(blockDim.x)) {
    const int r = i / kGroupsPerRow, group = i - r * kGroupsPerRow, j = group / 8;
    const int x = out_x0 + 4 * group, y = out_y0 + r;
    if (x >= tile.frame_width || y >= tile.frame_height) continue;
    const std::uint32_t word = tile.words[(r + halo) * tile.words_per_row + j + 1] & tile.in_frame_columns(j + 1);
    const std::uint32_t nibble = (word >> (4 * (group % 8))) & 15u;
    const std::uint32_t bytes = (nibble & 1u) | (nibble & 2u) << 7 | (nibble & 4u) << 14 | (nibble & 8u) << 21;
    *reinterpret_cast<std::uint32_t*>(out + std::ptrdiff_t(y) * out_pitch + x) = bytes;
  }
}

// The same tile as 32-pixel words of a bit plane (bit i of word w of row y is pixel 32 w + i;
// out_words_per_row words a row), pixels outside the frame 0: a thread per word.
template <int kTileWords = kForegroundTileWords, int kTileHeight = kForegroundTileHeight>
__device__ void write_tile_words(const BitTile& tile, int halo, int out_x0, int out_y0, std::uint32_t* out,
                                 int out_words_per_row) {
  for (int i = int(threadIdx.x); i < kTileHeight * kTileWords; i += int(blockDim.x)) {
    const int r = i / kTileWords, j = i - r * kTileWords;
    const int w = out_x0 / 32 + j, y = out_y0 + r;
    if (w < out_words_per_row && y < tile.frame_height)
      out[std::ptrdiff_t(y) * out_words_per_row + w] =
          tile.words[(r + halo) * tile.words_per_row + j + 1] & tile.in_frame_columns(j + 1);
  }
}

}  // namespace ccl::cuda
