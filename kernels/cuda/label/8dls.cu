// 8DLS / M8DLS (Soh, Ashraf, Hae, Kim 2014), made to converge in few passes on any shape.
//
// Labels start at each foreground pixel's raster index and only ever decrease; every value stored is
// the raster index of a foreground pixel of the same component, and labels[i] <= i, so following
// labels from any pixel strictly descends and ends at a root (labels[r] == r). One pass (SelectKernel,
// one thread per pixel) does, at each foreground pixel p with label l:
//   1. M8DLS only, not on the first pass: skip p when l is still its own root (labels[l] == l, the
//      paper's "smallest so far" test);
//   2. r = the root reached from l (path compression: a chain of any length collapses in one pass);
//   3. m = min(r, labels along each of the 8 directions -- 4 for 4-connectivity -- up to the first
//      background pixel, at most kReach steps: the paper's directional label selection);
//   4. labels[p] = min(labels[p], m) and, the label-equivalence step, labels[r] = min(labels[r], m),
//      so every pixel that resolves through r takes m on its next pass however far away it is.
// Both writes are atomicMin and only lower labels; reads of labels other threads write are volatile
// and may see an older value, which is still a valid (larger) label of the same component.
//
// Convergence. A pixel writes only if m < l or m < r, and then sets the changed flag; every such pass
// strictly lowers some label, so the passes terminate. A full (non-skipping) pass with no write saw a
// static state in which every foreground pixel's label is a root and no larger than any neighbour's
// label: labels are constant on each component, equal to a pixel index l with labels[l] == l inside
// it, and the component's first pixel f has labels[f] <= f, so the constant is f. The host therefore
// runs batches of kBatch passes whose last pass never skips and carries the flag, and stops after a
// batch whose last pass wrote nothing; M8DLS skips in the other passes only, so a wrong "smallest so
// far" guess (two adjacent regions whose labels are both roots) costs passes, never correctness.
//
// Bound. Hooking roots to the smaller label they touch plus full path compression is label
// equivalence (union-find with min-hooking): the number of distinct roots in a component drops by a
// constant factor per pass in practice, so passes grow about logarithmically with the component's
// extent, also on a one-pixel spiral (no guarantee is proven; pure neighbour propagation would need a
// pass per kReach pixels of path). A CPU model of these passes in which no write is seen before the
// next pass (the slowest case) converged on spirals of 257x255, 512x512 and 2048x2048, both
// connectivities and both variants, in 2 batches (8 passes) with the exact labels; its compression
// chains reached about width/4 links (508 at 2048), so a 16384 spiral costs ~4000 reads per pixel in
// its early passes. Work per pass is at most (1 + kDirections * kReach) label reads
// per foreground pixel plus the compression chains. A generous cap (kMaxPasses) turns a
// non-converging run into Error(DeviceFailure) rather than a hang.
#include "label/8dls.cuh"

#include <string>

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"

namespace ccl::cuda {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kReach = 16;        // steps searched in each direction per pass (the paper: to the background)
constexpr int kBatch = 4;         // passes between host reads of the changed flag
constexpr int kMaxPasses = 1 << 14;

__device__ inline std::uint32_t load(const std::uint32_t* p) { return *reinterpret_cast<const volatile std::uint32_t*>(p); }

__global__ void __launch_bounds__(kBlockX * kBlockY) InitLabelsKernel(DeviceMask mask, std::uint32_t* labels) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= mask.width || y >= mask.height || !mask.foreground(x, y)) return;
  const std::uint32_t p = mask.index(x, y);
  labels[p] = p;
}

// One 8DLS pass (see the top of the file); `changed` (may be null) is set when a label was lowered.
template <int Connectivity>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    SelectKernel(DeviceMask mask, std::uint32_t* labels, bool skip_roots, unsigned* changed) {
  const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= mask.width || y >= mask.height || !mask.foreground(x, y)) return;
  const std::uint32_t p = mask.index(x, y);
  const std::uint32_t l = load(labels + p);
  if (skip_roots && load(labels + l) == l) return;  // M8DLS: the label is the smallest so far
  std::uint32_t r = l;
  for (;;) {  // strictly descending (labels[i] <= i), so it ends
    const std::uint32_t next = load(labels + r);
    if (next == r) break;
    r = next;
  }
  std::uint32_t m = r;
  // E, W, S, N, then the diagonals SE, SW, NE, NW (8-connectivity only)
  constexpr int kDirections = Connectivity == 8 ? 8 : 4;
  constexpr int dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
  constexpr int dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};
#pragma unroll
  for (int d = 0; d < kDirections; ++d) {
    int qx = x, qy = y;
    for (int k = 0; k < kReach; ++k) {
      qx += dx[d];
      qy += dy[d];
      if (qx < 0 || qy < 0 || qx >= mask.width || qy >= mask.height || !mask.foreground(qx, qy)) break;
      m = min(m, load(labels + mask.index(qx, qy)));
    }
  }
  bool lowered = false;
  if (m < l) {
    atomicMin(labels + p, m);
    lowered = true;
  }
  if (m < r) {  // hook the root: every pixel resolving through r follows
    atomicMin(labels + r, m);
    lowered = true;
  }
  if (lowered && changed) *changed = 1u;
}

}  // namespace

template <int Connectivity>
void label_8dls(const DeviceMask& mask, std::uint32_t* labels, bool modified, unsigned* changed_flag,
                cudaStream_t stream, StageTimer* timer) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((mask.width + kBlockX - 1) / kBlockX, (mask.height + kBlockY - 1) / kBlockY);
  InitLabelsKernel<<<grid, block, 0, stream>>>(mask, labels);
  check_launch("InitLabelsKernel (8DLS)");
  const char* name = modified ? "M8DLS" : "8DLS";
  for (int passes = 0;;) {
    for (int j = 0; j < kBatch; ++j, ++passes) {
      const bool last = j == kBatch - 1;
      if (last) check(cudaMemsetAsync(changed_flag, 0, sizeof(unsigned), stream), "cudaMemsetAsync (8DLS flag)");
      // M8DLS skips from the second pass on, except in the checking pass that ends each batch
      SelectKernel<Connectivity><<<grid, block, 0, stream>>>(mask, labels, modified && passes > 0 && !last,
                                                              last ? changed_flag : nullptr);
      check_launch("SelectKernel (8DLS)");
    }
    unsigned changed = 1;
    check(cudaMemcpyAsync(&changed, changed_flag, sizeof(unsigned), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (8DLS flag)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (8DLS pass)");
    if (!changed) break;
    if (passes >= kMaxPasses)
      throw Error(Error::Kind::DeviceFailure, std::string(name) + " labeling did not converge within " +
                                                  std::to_string(kMaxPasses) + " passes");
  }
  mark(timer, modified ? "M8DLSKernel" : "8DLSKernel", stream);
}
template void label_8dls<4>(const DeviceMask&, std::uint32_t*, bool, unsigned*, cudaStream_t, StageTimer*);
template void label_8dls<8>(const DeviceMask&, std::uint32_t*, bool, unsigned*, cudaStream_t, StageTimer*);

}  // namespace ccl::cuda
