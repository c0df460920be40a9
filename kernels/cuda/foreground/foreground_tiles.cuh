// The foreground stage's kernel: a tile of the mask plus a halo is built in shared memory as bits
// (one 32-bit word per 32 pixels of a row, gathered by a warp from its lanes' pixels of the source:
// threshold, Sigma-Delta, or an earlier pass's mask plane; a bit plane's words are read as they are),
// opened and closed there with word shifts, and its
// interior written as a 0/1 byte plane. The halo is the sum of the radii of the five filters, so one
// pass does mask + open + close + shrink while 2 (open + close) + shrink <= kForegroundMaxHalo.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "foreground/mask_source.cuh"

namespace ccl::cuda {

constexpr int kForegroundTileWords = 8;                         // output words (of 32 pixels) per tile row
constexpr int kForegroundTileWidth = 32 * kForegroundTileWords;  // 256 output pixels per tile row
// Output rows per tile: a 1080p frame is 8 x 30 = 240 tiles, one wave of two blocks an SM on a
// 132-SM GPU (32 rows made 272 tiles, and the last 8 a second wave: 21.6k against 25.5k frames/s).
constexpr int kForegroundTileHeight = 36;
constexpr int kForegroundMaxHalo = 30;  // < 32: one halo word each side covers it; an opening of radius 15
constexpr int kForegroundThreads = 512;  // 16 warps: a 1080p frame is 240 tiles, too few blocks to hide latency with 8

// The filters of one pass, in order: opening, closing, erosion (shrink).
struct TileFilters {
  int open_radius = 0, close_radius = 0, shrink_radius = 0;
  __host__ __device__ int halo() const { return 2 * (open_radius + close_radius) + shrink_radius; }
  // No radius below 0, and a halo a tile of `max_halo` holds.
  bool fits(int max_halo) const {
    return open_radius >= 0 && close_radius >= 0 && shrink_radius >= 0 && halo() <= max_halo;
  }
};

// Queues the mask of `source`, filtered by `filters`, into `out` (0/1 bytes, `out_pitch` bytes a
// row, source.width x source.height). Requires filters.halo() <= kForegroundMaxHalo. Model
// sources write the model's out planes, each pixel once (Adaptive also its status). Throws
// Error(DeviceFailure) when the launch fails.
void queue_foreground_tiles(const MaskSource& source, const TileFilters& filters, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream);

// Words of a bit plane a row: bit i of word w of row y is pixel (32 w + i, y).
__host__ __device__ inline int mask_words_per_row(int width) { return (width + 31) / 32; }

// The mask of `source` unfiltered, as a bit plane (mask_words_per_row(source.width) words a row,
// pixels outside the frame 0): what the colour pass reads.
void queue_foreground_tile_bits(const MaskSource& source, std::uint32_t* out, cudaStream_t stream);

}  // namespace ccl::cuda
