// Exclusive prefix sum over the blocks of one kernel in a single pass (Merrill and Garland's
// decoupled look-back): each block publishes its own total at once, then adds up its predecessors'
// totals, stopping at the first one that has published its inclusive prefix. Blocks take their
// index from a ticket in the order they start, so a block only ever waits for blocks that are
// already running. The state is zeroed once, when it is allocated, and the last block out of its
// look-back leaves it zeroed for the next launch.
#pragma once

#include <cstdint>

#include "primitives/device_mask.cuh"

namespace ccl::cuda {

constexpr int kRowWarps = 8;  // rows per block of the kernels that rank roots by row blocks, one warp each

// Blocks of kRowWarps rows in a frame of `height` rows.
__host__ __device__ inline unsigned row_blocks(int height) { return unsigned(height + kRowWarps - 1) / kRowWarps; }

struct RowBlockScanState {
  unsigned ticket;      // next block index to hand out
  unsigned looked_back;  // blocks done reading `status`
};

// Device memory of the scan: the state, then one status word per block.
struct RowBlockScan {
  RowBlockScanState* state;
  unsigned long long* status;  // 0: nothing yet; else flag << 32 | value
};

constexpr unsigned long long kScanAggregate = 1ull << 32;  // value = this block's own total
constexpr unsigned long long kScanPrefix = 2ull << 32;     // value = total of this block and all before it

// Block-wide, first thing after the wait for the previous kernel: this block's index in start order.
__device__ inline unsigned take_block_ticket(const RowBlockScan& scan) {
  __shared__ unsigned block;
  if (threadIdx.x == 0) block = atomicAdd(&scan.state->ticket, 1u);
  __syncthreads();
  if (block >= gridDim.x) __trap();  // the state was not left clean: a CUDA error, not wrong counts
  return block;
}

// Warp-wide, one warp of block `index` (of `n_blocks`): publishes `total` and returns the sum of
// the totals of blocks 0..index-1. Values must stay below 2^32.
__device__ inline std::uint32_t exclusive_block_prefix(const RowBlockScan& scan, unsigned index, unsigned n_blocks,
                                                       std::uint32_t total) {
  const int lane = lane_id();
  volatile unsigned long long* status = scan.status;
  if (lane == 0) status[index] = (index == 0 ? kScanPrefix : kScanAggregate) | total;
  std::uint32_t before = 0;
  for (int last = int(index) - 1; last >= 0; last -= 32) {  // lane i reads block last - i
    const int j = last - lane;
    unsigned long long word = kScanPrefix;  // before block 0: a prefix of 0
    if (j >= 0)
      do word = status[j];
      while (word == 0);
    const unsigned prefixes = __ballot_sync(kFullWarp, word >= kScanPrefix);
    const int stop = prefixes ? __ffs(prefixes) - 1 : 31;  // nearest block whose prefix is known
    before += warp_sum(lane <= stop ? std::uint32_t(word) : 0u);
    if (prefixes) break;
  }
  bool last_out = false;
  if (lane == 0) {
    if (index != 0) status[index] = kScanPrefix | (before + total);
    __threadfence();  // the warp's reads of `status` were all used (ballot, shuffles) before the count says so
    last_out = atomicAdd(&scan.state->looked_back, 1u) == n_blocks - 1;
    if (last_out) __threadfence();  // and the zeroing below comes after every other block's count
  }
  if (__shfl_sync(kFullWarp, last_out, 0)) {  // every block has its ticket and nobody reads `status` any more
    for (unsigned i = unsigned(lane); i < n_blocks; i += 32) status[i] = 0;
    if (lane == 0) {
      scan.state->ticket = 0;
      scan.state->looked_back = 0;
    }
  }
  return before;
}

}  // namespace ccl::cuda
