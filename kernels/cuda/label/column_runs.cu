#include "label/column_runs.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kColumnThreads = 128;
constexpr int kMergeThreads = 256;
constexpr int kRelabelThreads = 256;

// Kang's vertLabel, top-down: each foreground pixel points at the top pixel of its vertical run,
// the smallest index of the run, so the forest already obeys union by minimum (parent <= child).
// Background pixels are not written (no later stage reads them).
__global__ void __launch_bounds__(kColumnThreads) ColumnRunsKernel(DeviceMask mask, std::uint32_t* labels) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= mask.width) return;
  bool above = false;
  std::uint32_t top = 0;
  for (int y = 0; y < mask.height; ++y) {
    const bool fg = mask.foreground(x, y);
    if (fg) {
      const std::uint32_t p = mask.index(x, y);
      if (!above) top = p;
      labels[p] = top;
    }
    above = fg;
  }
}

// One merge round: the boundaries between column groups of width `span` that pair up in this
// round lie at x = span * (2k + 1) < width (the last group may be partial or missing). One thread
// per (boundary, row) joins pixel (x, y) with its left neighbours (x - 1, y) and, in
// 8-connectivity, (x - 1, y -+ 1). Every x in 1..width-1 is a boundary of exactly one round (its
// lowest set bit), so every horizontal and diagonal contact is joined once. A contact is skipped
// only where the two pixels are already joined through pixels of the same two columns (the
// vertical runs plus the same boundary in the row above or below), so no connection is lost.
template <int Connectivity>
__global__ void __launch_bounds__(kMergeThreads)
    MergeKernel(DeviceMask mask, std::uint32_t* labels, std::uint32_t span, std::uint32_t n_boundaries,
                std::uint32_t n_total) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n_total) return;
  const int y = int(t / n_boundaries);
  const int x = int(span * (2u * (t % n_boundaries) + 1u));
  if (!mask.foreground(x, y)) return;
  const int w = mask.width, h = mask.height;
  const std::uint32_t p = mask.index(x, y);
  const bool left = mask.foreground(x - 1, y);
  const bool up = y > 0 && mask.foreground(x, y - 1);
  const bool up_left = y > 0 && mask.foreground(x - 1, y - 1);
  // (x, y - 1) and (x - 1, y - 1) were joined by this round's thread of row y - 1.
  if (left && !(up && up_left)) unite(labels, p, p - 1);
  if (Connectivity == 8) {
    // joined through (x - 1, y) or (x, y - 1) otherwise
    if (up_left && !left && !up) unite(labels, p, p - w - 1);
    const bool down = y + 1 < h && mask.foreground(x, y + 1);
    const bool down_left = y + 1 < h && mask.foreground(x - 1, y + 1);
    // joined through (x - 1, y) or (x, y + 1) otherwise
    if (down_left && !left && !down) unite(labels, p, p + w - 1);
  }
}

// Kang's relabel: every foreground pixel gets its root. Other threads overwrite entries with
// their roots meanwhile, which are ancestors of what they replace, so volatile reads of a
// half-relabelled forest still end at the same root.
__global__ void __launch_bounds__(kRelabelThreads) RelabelKernel(DeviceMask mask, std::uint32_t* labels) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y);
  if (x >= mask.width || !mask.foreground(x, y)) return;
  const std::uint32_t p = mask.index(x, y);
  const volatile std::uint32_t* fresh = labels;
  labels[p] = find_root(fresh, p);
}

}  // namespace

template <int Connectivity>
void label_column_runs(const DeviceMask& mask, std::uint32_t* labels, cudaStream_t stream, StageTimer* timer) {
  const std::uint32_t w = std::uint32_t(mask.width), h = std::uint32_t(mask.height);
  ColumnRunsKernel<<<(w + kColumnThreads - 1) / kColumnThreads, kColumnThreads, 0, stream>>>(mask, labels);
  check_launch("ColumnRunsKernel");
  mark(timer, "ColumnRunsKernel", stream);

  for (std::uint32_t span = 1; span < w; span *= 2) {
    const std::uint32_t n_boundaries = (w - span + 2 * span - 1) / (2 * span);  // x = span, 3 span, ... < w
    const std::uint32_t n_total = n_boundaries * h;  // < w * h / span: fits 32 bits
    MergeKernel<Connectivity><<<(n_total + kMergeThreads - 1) / kMergeThreads, kMergeThreads, 0, stream>>>(
        mask, labels, span, n_boundaries, n_total);
    check_launch("MergeKernel (column runs)");
  }
  mark(timer, "MergeKernel", stream);

  const dim3 relabel_grid((w + kRelabelThreads - 1) / kRelabelThreads, h);
  RelabelKernel<<<relabel_grid, kRelabelThreads, 0, stream>>>(mask, labels);
  check_launch("RelabelKernel (column runs)");
  mark(timer, "RelabelKernel", stream);
}
template void label_column_runs<4>(const DeviceMask&, std::uint32_t*, cudaStream_t, StageTimer*);
template void label_column_runs<8>(const DeviceMask&, std::uint32_t*, cudaStream_t, StageTimer*);

}  // namespace ccl::cuda
