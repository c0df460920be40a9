// Sums of (mean, in) pairs added up a warp at a time: the light sums (ccl/foreground.hpp) that
// Adaptive's luma and chroma models keep for the next frame's light fit, in 32-bit registers per
// lane, 64-bit where a block's and the frame's add up.
#pragma once

#include <cstdint>

#include "ccl/foreground.hpp"

namespace ccl::cuda {

__device__ inline void add64(std::uint64_t* sum, unsigned long long v) {
  static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long), "64-bit atomics");
  atomicAdd(reinterpret_cast<unsigned long long*>(sum), v);
}

// The whole warp's v in lane 0; every lane must call it.
__device__ inline unsigned warp_sum(unsigned v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ inline void add_light(LightSums& to, const LightSums& from) {
  add64(&to.m, from.m);
  add64(&to.i, from.i);
  add64(&to.mm, from.mm);
  add64(&to.mi, from.mi);
}

// One lane's pairs, in 32 bits: a warp may add up to 66,051 pairs (255^2 each) before mm overflows.
struct PairSums {
  unsigned m = 0, i = 0, mm = 0, mi = 0;

  __device__ void add(unsigned in, unsigned mean) {
    m += mean;
    i += in;
    mm += mean * mean;
    mi += mean * in;
  }
  // The warp's sums, in lane 0; every lane calls it.
  __device__ LightSums warp_total(int lane) const {
    const unsigned sm = warp_sum(m), si = warp_sum(i), smm = warp_sum(mm), smi = warp_sum(mi);
    return lane == 0 ? LightSums{sm, si, smm, smi} : LightSums{};
  }
};

// A thread block's sums in shared memory, a slot a warp: 64-bit adds to one shared place are
// compare-and-swap loops that the block's warps queue on (ncu: an eighth of the colour pass's stalls).
template <int kWarps>
struct WarpSlots {
  LightSums slot[kWarps];

  // Every lane of warp `warp` calls it.
  __device__ void put(const PairSums& sums, int warp, int lane) {
    const LightSums total = sums.warp_total(lane);
    if (lane == 0) slot[warp] = total;
  }
  // After a barrier that follows every warp's put().
  __device__ LightSums total() const {
    LightSums t;
    for (int w = 0; w < kWarps; ++w) t.m += slot[w].m, t.i += slot[w].i, t.mm += slot[w].mm, t.mi += slot[w].mi;
    return t;
  }
};

}  // namespace ccl::cuda
