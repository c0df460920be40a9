#include "label/raster_segments.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kRowThreads = 256;  // one block per row, one thread per pixel of a chunk
constexpr int kRowWarps = kRowThreads / 32;
constexpr int kSegmentThreads = 256;

// Imura's per-pixel extraction of row y, kRowThreads pixels a step: a pixel starts a segment when
// it is foreground and its left neighbour is not; a warp ballot and a scan of the warps' counts
// give every pixel the number of starts at or before it (`rank`), so a foreground pixel belongs
// to the row's segment rank - 1. Calls on_pixel(x, start, rank) for every foreground pixel and
// returns the row's segment count. The whole block must call it (it synchronizes).
template <class OnPixel>
__device__ std::uint32_t scan_row(const DeviceMask& mask, int y, std::uint32_t* warp_counts, OnPixel&& on_pixel) {
  const int lane = lane_id(), warp = int(threadIdx.x / 32);
  std::uint32_t carry = 0;  // starts left of this step
  for (int x0 = 0; x0 < mask.width; x0 += kRowThreads) {
    const int x = x0 + int(threadIdx.x);
    const bool fg = x < mask.width && mask.foreground(x, y);
    const bool start = fg && !(x > 0 && mask.foreground(x - 1, y));
    const unsigned ballot = __ballot_sync(kFullWarp, start);
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    std::uint32_t before = carry, total = carry;
#pragma unroll
    for (int i = 0; i < kRowWarps; ++i) {
      const std::uint32_t c = warp_counts[i];
      if (i < warp) before += c;
      total += c;
    }
    __syncthreads();  // the next step rewrites warp_counts
    if (fg) on_pixel(x, start, before + __popc(ballot & lanes_below(lane)) + (start ? 1u : 0u));
    carry = total;
  }
  return carry;
}

// Segment extraction: the start pixel stores x^s and makes the segment its own root, the end pixel
// (right neighbour background or past the row) stores x^e; thread 0 stores the row's count.
__global__ void __launch_bounds__(kRowThreads)
    ExtractSegmentsKernel(DeviceMask mask, std::uint16_t* bounds, std::uint32_t* parent, std::uint32_t* count,
                          std::uint32_t cap) {
  __shared__ std::uint32_t warp_counts[kRowWarps];
  const int y = int(blockIdx.x);
  const std::uint32_t base = std::uint32_t(y) * cap;
  const std::uint32_t n = scan_row(mask, y, warp_counts, [&](int x, bool start, std::uint32_t rank) {
    const std::uint32_t id = base + rank - 1;
    if (start) {
      bounds[2 * std::size_t(id)] = std::uint16_t(x);
      parent[id] = id;
    }
    if (x + 1 == mask.width || !mask.foreground(x + 1, y)) bounds[2 * std::size_t(id) + 1] = std::uint16_t(x);
  });
  if (threadIdx.x == 0) count[y] = n;
}

// Segment connectivity: segment k of row y (y >= 1) unites with every segment of row y - 1 it
// touches, by Imura's conditions x1s <= x2e + d and x2s <= x1e + d (d = 0 in 4-, 1 in
// 8-connectivity). A row's segments are sorted by start and by end, so a binary search finds the
// first one whose end reaches this start and the touching ones follow it.
template <int Connectivity>
__global__ void __launch_bounds__(kSegmentThreads)
    ConnectSegmentsKernel(const std::uint16_t* bounds, std::uint32_t* parent, const std::uint32_t* count,
                          std::uint32_t cap) {
  const std::uint32_t y = blockIdx.y + 1;
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count[y]) return;
  constexpr int d = Connectivity == 8 ? 1 : 0;
  const std::uint32_t id = y * cap + k;
  const int start = bounds[2 * std::size_t(id)], end = bounds[2 * std::size_t(id) + 1];
  const std::uint32_t above = (y - 1) * cap, n = count[y - 1];
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (int(bounds[2 * std::size_t(above + mid) + 1]) + d < start)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (std::uint32_t j = lo; j < n && int(bounds[2 * std::size_t(above + j)]) <= end + d; ++j)
    unite(parent, id, above + j);
}

// Every segment's parent becomes its root. Other threads store roots meanwhile, ancestors of what
// they replace, so volatile reads still end at the same root (a root keeps pointing at itself).
__global__ void __launch_bounds__(kSegmentThreads)
    FlattenSegmentsKernel(std::uint32_t* parent, const std::uint32_t* count, std::uint32_t cap) {
  const std::uint32_t y = blockIdx.y;
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count[y]) return;
  const std::uint32_t id = y * cap + k;
  const volatile std::uint32_t* fresh = parent;
  parent[id] = find_root(fresh, id);
}

// Output: each foreground pixel finds its segment again (the same scan) and stores the raster
// index of its root segment's first pixel.
__global__ void __launch_bounds__(kRowThreads)
    WriteLabelsKernel(DeviceMask mask, const std::uint16_t* bounds, const std::uint32_t* parent,
                      std::uint32_t* labels, std::uint32_t cap) {
  __shared__ std::uint32_t warp_counts[kRowWarps];
  const int y = int(blockIdx.x);
  const std::uint32_t base = std::uint32_t(y) * cap;
  scan_row(mask, y, warp_counts, [&](int x, bool, std::uint32_t rank) {
    const std::uint32_t root = parent[base + rank - 1];
    labels[mask.index(x, y)] = (root / cap) * std::uint32_t(mask.width) + bounds[2 * std::size_t(root)];
  });
}

}  // namespace

template <int Connectivity>
void label_raster_segments(const DeviceMask& mask, std::uint32_t* labels, const SegmentsView& s,
                           cudaStream_t stream, StageTimer* timer) {
  const std::uint32_t cap = slots_per_row(mask.width);  // most segments a row holds
  const std::uint32_t h = std::uint32_t(mask.height);
  ExtractSegmentsKernel<<<h, kRowThreads, 0, stream>>>(mask, s.bounds, s.parent, s.count, cap);
  check_launch("ExtractSegmentsKernel");
  mark(timer, "ExtractSegmentsKernel", stream);

  const std::uint32_t segment_blocks = (cap + kSegmentThreads - 1) / kSegmentThreads;
  if (h > 1) {
    ConnectSegmentsKernel<Connectivity><<<dim3(segment_blocks, h - 1), kSegmentThreads, 0, stream>>>(
        s.bounds, s.parent, s.count, cap);
    check_launch("ConnectSegmentsKernel");
  }
  mark(timer, "ConnectSegmentsKernel", stream);

  FlattenSegmentsKernel<<<dim3(segment_blocks, h), kSegmentThreads, 0, stream>>>(s.parent, s.count, cap);
  check_launch("FlattenSegmentsKernel");
  WriteLabelsKernel<<<h, kRowThreads, 0, stream>>>(mask, s.bounds, s.parent, labels, cap);
  check_launch("WriteLabelsKernel");
  mark(timer, "WriteLabelsKernel", stream);
}
template void label_raster_segments<4>(const DeviceMask&, std::uint32_t*, const SegmentsView&, cudaStream_t,
                                        StageTimer*);
template void label_raster_segments<8>(const DeviceMask&, std::uint32_t*, const SegmentsView&, cudaStream_t,
                                        StageTimer*);

}  // namespace ccl::cuda
