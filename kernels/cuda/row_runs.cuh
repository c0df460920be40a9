// FLSL's full-row runs on a GPU: one warp walks a row 32 pixels a step, finds run edges with one
// ballot, and compress-stores run starts and ends (ballot + popc) into a per-warp ring, so each
// batch hands exactly one whole run [start, end) to each lane, however long the run is.
#pragma once

#include <cstdint>

#include "device_mask.cuh"

namespace ccl::cuda {

constexpr int kRunRing = 64;  // < 32 runs wait after a batch, and a step adds at most 16
constexpr int kStepsPerLoad = 16;  // 32-pixel steps whose loads are in flight at once (512 B a warp)

struct RunRing {
  std::uint32_t start[kRunRing];
  std::uint32_t end[kRunRing];
};

// Calls on_runs(valid, start, end) with the whole warp for every batch of up to 32 runs of row y;
// lanes with valid == false hold no run (only in the row's last batch).
template <class OnRuns>
__device__ void for_each_run_batch(const DeviceMask& mask, int y, RunRing& ring, OnRuns&& on_runs) {
  __syncwarp();  // the ring may still be read by the previous row's last batch
  const int lane = lane_id();
  const unsigned below = lanes_below(lane);
  unsigned previous_fg = 0;  // bit 0: foreground of the pixel left of this step
  std::uint32_t n_starts = 0, n_ends = 0, n_done = 0;
  for (int x0 = 0; x0 < mask.width; x0 += 32 * kStepsPerLoad) {
    bool fg_of[kStepsPerLoad];  // loaded together so their latencies overlap
#pragma unroll
    for (int k = 0; k < kStepsPerLoad; ++k) {
      const int x = x0 + 32 * k + lane;
      fg_of[k] = x < mask.width && mask.foreground(x, y);
    }
#pragma unroll
    for (int k = 0; k < kStepsPerLoad; ++k) {
      const int x = x0 + 32 * k + lane;
      const unsigned fg = __ballot_sync(kFullWarp, fg_of[k]);
      const unsigned edges = fg ^ ((fg << 1) | previous_fg);
      previous_fg = fg >> 31;
      const unsigned starts = edges & fg, ends = edges & ~fg;  // an end is the first pixel after a run
      if ((starts >> lane) & 1u) ring.start[(n_starts + __popc(starts & below)) % kRunRing] = x;
      if ((ends >> lane) & 1u) ring.end[(n_ends + __popc(ends & below)) % kRunRing] = x;
      n_starts += __popc(starts);
      n_ends += __popc(ends);
      __syncwarp();
      if (n_ends - n_done >= 32) {
        const std::uint32_t slot = (n_done + lane) % kRunRing;
        on_runs(true, ring.start[slot], ring.end[slot]);
        n_done += 32;
        __syncwarp();
      }
    }
  }
  if (n_starts != n_ends) {  // a run reaching the last pixel of a row whose width is a multiple of 32
    if (lane == 0) ring.end[n_ends % kRunRing] = mask.width;
    ++n_ends;
    __syncwarp();
  }
  if (n_ends != n_done) {
    const bool valid = std::uint32_t(lane) < n_ends - n_done;
    const std::uint32_t slot = (n_done + lane) % kRunRing;
    on_runs(valid, valid ? ring.start[slot] : 0u, valid ? ring.end[slot] : 0u);
  }
}

}  // namespace ccl::cuda
