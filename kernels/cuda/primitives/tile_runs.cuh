// The labelling contract's tiles: every labelling leaves a parent chain at least at each tile-local
// run start (a foreground pixel whose left neighbour is background or in another tile), so readers
// of the labels reach a pixel's component through the start of its run within the tile.
#pragma once

#include <cstdint>

#include "primitives/device_mask.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {

constexpr int kTileWidth = 128;  // four 32-bit foreground words a row, loaded 16 bytes at a time
constexpr int kTileHeight = 64;

// Warp-wide, for the warp holding pixels x0..x0+31 of row y (x0 a multiple of 32) with foreground
// ballot `row`: the start of the tile-local run holding pixel x0, if it is foreground.
__device__ inline int run_entering_warp(const DeviceMask& mask, int x0, int y, unsigned row) {
  const int lane = lane_id();
  int entering = x0;
  if ((row & 1u) && x0 % kTileWidth != 0) {
    for (int sx = x0 - 32;; sx -= 32) {  // sx >= 0: x0 is a multiple of 32 past a tile start
      const unsigned left = __ballot_sync(kFullWarp, mask.foreground(sx + lane, y));
      entering = ~left ? sx + 32 - __clz(~left) : sx;
      if (~left || sx % kTileWidth == 0) break;
    }
  }
  return entering;
}

// The root of foreground pixel x0 + lane of row y, through the start of its tile-local run
// (`entering`: run_entering_warp of its warp).
__device__ inline std::uint32_t pixel_root(const DeviceMask& mask, const std::uint32_t* labels, int x0, int y,
                                           unsigned row, int entering) {
  const int lane = lane_id();
  const unsigned background_up_to_me = ~row & (lanes_below(lane) | 1u << lane);
  const int start = background_up_to_me ? x0 + 32 - __clz(background_up_to_me) : entering;
  return find_root(labels, labels[mask.index(start, y)]);
}

}  // namespace ccl::cuda
