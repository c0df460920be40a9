// FLSL's full-row runs on a GPU: one warp walks a row 512 pixels a step (16 a lane, one 16-byte
// load where rows are aligned), finds run edges with bit operations, and compress-stores run
// starts and ends (popc + warp prefix sum) into a per-warp ring, so each batch hands exactly one
// whole run [start, end) to each lane, however long the run is. Steps without an edge cost a vote.
#pragma once

#include <cstdint>

#include "primitives/device_mask.cuh"

namespace ccl::cuda {

constexpr int kRunStep = 16 * 32;  // pixels a warp takes per step
constexpr int kRunRing = 512;      // < 32 runs wait after a batch, and a step adds at most 256
constexpr int kStepsPerLoad = 4;   // steps whose loads are in flight at once (2 KiB a warp)

struct RunRing {  // positions fit 16 bits: rows are at most 65535 pixels (kMaxSide)
  std::uint16_t start[kRunRing];
  std::uint16_t end[kRunRing];
};

// Calls on_runs(valid, start, end) with the whole warp for every batch of up to 32 runs of row y;
// lanes with valid == false hold no run (only in the row's last batch).
template <class OnRuns>
__device__ void for_each_run_batch(const DeviceMask& mask, int y, RunRing& ring, OnRuns&& on_runs) {
  __syncwarp();  // the ring may still be read by the previous row's last batch
  const int lane = lane_id();
  const bool vector = mask.vector_rows();
  unsigned previous_fg = 0;  // foreground of the pixel left of this step
  std::uint32_t n_starts = 0, n_ends = 0, n_done = 0;
  for (int x0 = 0; x0 < mask.width; x0 += kRunStep * kStepsPerLoad) {
    unsigned fg_of[kStepsPerLoad];  // loaded together so their latencies overlap
#pragma unroll
    for (int k = 0; k < kStepsPerLoad; ++k) fg_of[k] = mask.foreground_bits16(x0 + kRunStep * k + 16 * lane, y, vector);
#pragma unroll
    for (int k = 0; k < kStepsPerLoad; ++k) {
      const int x = x0 + kRunStep * k + 16 * lane;
      const unsigned fg = fg_of[k];
      const unsigned from_left = __shfl_up_sync(kFullWarp, fg >> 15, 1);
      const unsigned before = fg << 1 | (lane > 0 ? from_left : previous_fg);  // foreground of each left neighbour
      previous_fg = __shfl_sync(kFullWarp, fg >> 15, 31);
      const unsigned starts = fg & ~before, ends = ~fg & before & 0xffffu;  // an end is the first pixel after a run
      if (!__any_sync(kFullWarp, starts | ends)) continue;
      // starts in the low half, ends in the high half: one inclusive scan places both
      const unsigned counts = __popc(starts) | __popc(ends) << 16;
      const unsigned scan = warp_inclusive_sum(counts);
      const unsigned total = __shfl_sync(kFullWarp, scan, 31);
      const unsigned first = scan - counts;
      std::uint32_t put = n_starts + (first & 0xffffu);
      for (unsigned s = starts; s; s &= s - 1) ring.start[put++ % kRunRing] = std::uint16_t(x + __ffs(s) - 1);
      put = n_ends + (first >> 16);
      for (unsigned e = ends; e; e &= e - 1) ring.end[put++ % kRunRing] = std::uint16_t(x + __ffs(e) - 1);
      n_starts += total & 0xffffu;
      n_ends += total >> 16;
      __syncwarp();
      while (n_ends - n_done >= 32) {
        const std::uint32_t slot = (n_done + lane) % kRunRing;
        on_runs(true, std::uint32_t(ring.start[slot]), std::uint32_t(ring.end[slot]));
        n_done += 32;
        __syncwarp();
      }
    }
  }
  if (n_starts != n_ends) {  // a run reaching the last pixel of a row whose width is a multiple of 2048
    if (lane == 0) ring.end[n_ends % kRunRing] = std::uint16_t(mask.width);
    ++n_ends;
    __syncwarp();
  }
  if (n_ends != n_done) {
    const bool valid = std::uint32_t(lane) < n_ends - n_done;
    const std::uint32_t slot = (n_done + lane) % kRunRing;
    on_runs(valid, valid ? std::uint32_t(ring.start[slot]) : 0u, valid ? std::uint32_t(ring.end[slot]) : 0u);
  }
}

}  // namespace ccl::cuda
