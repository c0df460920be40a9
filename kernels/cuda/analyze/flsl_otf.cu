#include "analyze/flsl_otf.cuh"

#include "analyze/flsl_cd.cuh"
#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/row_runs.cuh"
#include "primitives/union_find.cuh"

namespace ccl::cuda {
namespace {

constexpr int kLabelThreads = 256;  // labels of one row per block in the merge and root kernels

// Run k of row y becomes label y * cap + k: labels grow in raster order, so with union by
// minimum the label left standing is the component's first run. Each starts as its own root with
// its own features; its bounds and the row's run count let the merge find the runs next to it.
__global__ void __launch_bounds__(32 * kRowWarps)
    RunLabelsKernel(DeviceMask mask, std::uint32_t cap, std::uint16_t* bounds, std::uint32_t* parent,
                    RunFeatures* features, std::uint32_t* count) {
  __shared__ RunRing rings[kRowWarps];
  const int warp = threadIdx.x / 32, lane = lane_id();
  const int y = blockIdx.x * kRowWarps + warp;
  if (y >= mask.height) return;
  std::uint32_t n_runs = 0;
  for_each_run_batch(mask, y, rings[warp], [&](bool valid, std::uint32_t start, std::uint32_t end) {
    if (valid) {  // the valid lanes of a batch are its first ones, in run order
      const std::uint32_t label = std::uint32_t(y) * cap + n_runs + std::uint32_t(lane);
      const std::uint32_t length = end - start;
      bounds[2 * std::size_t(label)] = std::uint16_t(start);
      bounds[2 * std::size_t(label) + 1] = std::uint16_t(end - 1);
      parent[label] = label;
      features[label] = RunFeatures{length, start, end - 1, std::uint32_t(y),
                                            (unsigned long long)(start + end - 1) * length / 2,
                                            (unsigned long long)y * length};
    }
    n_runs += __popc(__ballot_sync(kFullWarp, valid));
  });
  if (lane == 0) count[y] = n_runs;
}

// Takes the features out of label `from`, leaving the neutral ones, and adds them to label `to`:
// Algorithm 2's atomicExch then atomicAdd, field by field, so each value moves exactly once.
__device__ void move_features(RunFeatures* features, std::uint32_t from, std::uint32_t to) {
  RunFeatures& f = features[from];
  RunFeatures& t = features[to];
  const std::uint32_t area = atomicExch(&f.area, 0u), left = atomicExch(&f.left, 0xffffffffu);
  const std::uint32_t right = atomicExch(&f.right, 0u), bottom = atomicExch(&f.bottom, 0u);
  const unsigned long long sum_x = atomicExch(&f.sum_x, 0ull), sum_y = atomicExch(&f.sum_y, 0ull);
  if (area) atomicAdd(&t.area, area);  // neutral values would change nothing: no atomic for them
  if (left != 0xffffffffu) atomicMin(&t.left, left);
  if (right) atomicMax(&t.right, right);
  if (bottom) atomicMax(&t.bottom, bottom);
  if (sum_x) atomicAdd(&t.sum_x, sum_x);
  if (sum_y) atomicAdd(&t.sum_y, sum_y);
}

// Algorithm 2 (otf_merge): the larger current root is hung under the smaller label and its
// features moved there; when another thread had re-linked it first, atomicMin says to whom, and
// the merge goes on with that label. The features may then sit on a label that stopped being a
// root meanwhile, so they are carried on until they reach one. The fences order each link before
// the features leave, and each move before the check that its target is still a root, so a
// concurrent linker either takes the features along or leaves them to this thread.
__device__ void otf_merge(std::uint32_t* parent, RunFeatures* features, std::uint32_t l1, std::uint32_t l2) {
  l1 = find_root_compress(parent, l1);
  l2 = find_root_compress(parent, l2);
  while (l1 != l2) {
    if (l2 < l1) {
      const std::uint32_t t = l1;
      l1 = l2;
      l2 = t;
    }
    const std::uint32_t l = atomicMin(parent + l2, l1);
    __threadfence();
    move_features(features, l2, l1);
    __threadfence();
    if (l == l2) break;
    l2 = l;
  }
  for (std::uint32_t root = find_root_compress(parent, l1); root != l1; root = find_root_compress(parent, l1)) {
    move_features(features, l1, root);
    __threadfence();
    l1 = root;
  }
}

// How many of the n runs of a row (labels from `first` on) start at or before x.
__device__ std::uint32_t runs_starting_by(const std::uint16_t* bounds, std::uint32_t first, std::uint32_t n, int x) {
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (int(bounds[2 * std::size_t(first + mid)]) <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Two touching runs of rows y - 1 and y are merged once, by the one that starts later (the lower
// one on a tie): the other is then the last run of its row starting by that start (any run after
// it would lie past the gap), and they touch when that start is at most its end (+1 in
// 8-connectivity). So a run merges at most twice, upwards and downwards, however long it is.
template <int Connectivity>
__global__ void __launch_bounds__(kLabelThreads)
    MergeRunLabelsKernel(int height, std::uint32_t cap, const std::uint16_t* bounds, std::uint32_t* parent,
                         RunFeatures* features, const std::uint32_t* count) {
  constexpr int d = Connectivity == 8 ? 1 : 0;
  const std::uint32_t y = blockIdx.y;
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count[y]) return;
  const std::uint32_t label = y * cap + k;
  const int start = bounds[2 * std::size_t(label)];
  if (y > 0) {
    const std::uint32_t first = (y - 1) * cap, before = runs_starting_by(bounds, first, count[y - 1], start);
    if (before && start <= int(bounds[2 * std::size_t(first + before - 1) + 1]) + d)
      otf_merge(parent, features, label, first + before - 1);
  }
  if (y + 1 < std::uint32_t(height)) {
    const std::uint32_t first = (y + 1) * cap, before = runs_starting_by(bounds, first, count[y + 1], start - 1);
    if (before && start <= int(bounds[2 * std::size_t(first + before - 1) + 1]) + d)
      otf_merge(parent, features, label, first + before - 1);
  }
}

// Each component ends with one root label, its first run, whose start is the labeling's root
// pixel: that pixel's raster rank says where the component's statistics go, and `top` is its row.
__global__ void __launch_bounds__(kLabelThreads)
    RootFeaturesKernel(DeviceMask mask, std::uint32_t cap, const std::uint16_t* bounds, const std::uint32_t* parent,
                       const RunFeatures* features, const std::uint32_t* count,
                       const std::uint32_t* root_rank, const std::uint32_t* row_offset, ComponentStatsArrays stats) {
  const std::uint32_t y = blockIdx.y;
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count[y]) return;
  const std::uint32_t label = y * cap + k;
  if (parent[label] != label) return;
  const std::uint32_t id = row_offset[y] + root_rank[mask.index(bounds[2 * std::size_t(label)], int(y))];
  stats.store(id, with_top(features[label], y));
}

}  // namespace

template <int Connectivity>
void analyze_flsl_otf(const DeviceMask& mask, std::uint32_t* labels, const OtfWork& work, const AnalysisOutput& out,
                      cudaStream_t stream, StageTimer* timer) {
  link_and_rank_roots(mask, labels, work.scan, out, stream, timer);  // the ranks that number the components
  const std::uint32_t cap = slots_per_row(mask.width);  // most runs a row holds
  const SegmentsView& runs = work.runs;
  RunLabelsKernel<<<row_blocks(mask.height), 32 * kRowWarps, 0, stream>>>(mask, cap, runs.bounds, runs.parent,
                                                                         work.features, runs.count);
  check_launch("RunLabelsKernel");
  mark(timer, "RunLabelsKernel", stream);

  const dim3 grid((cap + kLabelThreads - 1) / kLabelThreads, unsigned(mask.height));
  MergeRunLabelsKernel<Connectivity><<<grid, kLabelThreads, 0, stream>>>(mask.height, cap, runs.bounds, runs.parent,
                                                                         work.features, runs.count);
  check_launch("MergeRunLabelsKernel");
  mark(timer, "MergeRunLabelsKernel", stream);

  RootFeaturesKernel<<<grid, kLabelThreads, 0, stream>>>(mask, cap, runs.bounds, runs.parent, work.features,
                                                         runs.count, out.root_rank, out.row_offset, out.stats);
  check_launch("RootFeaturesKernel");
  mark(timer, "RootFeaturesKernel", stream);
}
template void analyze_flsl_otf<4>(const DeviceMask&, std::uint32_t*, const OtfWork&, const AnalysisOutput&,
                                  cudaStream_t, StageTimer*);
template void analyze_flsl_otf<8>(const DeviceMask&, std::uint32_t*, const OtfWork&, const AnalysisOutput&,
                                  cudaStream_t, StageTimer*);

}  // namespace ccl::cuda
