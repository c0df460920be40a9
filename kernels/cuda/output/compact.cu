#include "output/compact.cuh"

#include <algorithm>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "output/label_map.cuh"
#include "primitives/dependent_launch.cuh"

namespace ccl::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kCountBlocks = 512;

unsigned blocks_for(std::size_t n) { return unsigned((n + kThreads - 1) / kThreads); }

// n_in_range starts at n (the kernel that numbers the components writes both), so counting the ones
// outside needs no memset.
__global__ void __launch_bounds__(kThreads) CountInRangeKernel(const std::uint32_t* n_components, const std::uint32_t* area,
                                                              std::uint32_t min_area, std::uint32_t max_area,
                                                              FrameCounts* counts) {
  const std::uint32_t n = *n_components;
  std::uint32_t outside = 0;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    outside += area[i] < min_area || area[i] > max_area;
  outside = warp_sum(outside);
  if (lane_id() == 0 && outside) atomicSub(&counts->n_in_range, outside);
}

__global__ void __launch_bounds__(kThreads) IotaKernel(std::uint32_t n, std::uint32_t* out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

// final_label[component] = 1 + its position in the area order (for the label map).
__global__ void __launch_bounds__(kThreads) InvertOrderKernel(std::uint32_t n, const std::uint32_t* order,
                                                             std::uint32_t* final_label) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) final_label[order[i]] = i + 1;
}

// Area filter on positions of the chosen order (`order` null = raster order).
struct InRange {
  const std::uint32_t* area;
  const std::uint32_t* order;
  std::uint32_t min_area, max_area;
  __device__ bool operator()(std::uint32_t rank) const {
    const std::uint32_t a = area[order ? order[rank] : rank];
    return a >= min_area && a <= max_area;
  }
};

// The j-th kept component for j in first..end-1, if the frame keeps that many (n_out, known on the
// device only): `kept` (null = no filter) gives its position in the chosen order, `order` (null =
// raster) the component at that position; its label is the position + 1. Each block stages its
// components in shared memory and stores them as contiguous 8-byte words: into host memory a
// store costs a bus write however few of its bytes it carries.
__global__ void __launch_bounds__(kThreads) GatherKernel(std::uint32_t first, std::uint32_t end, const FrameCounts* counts,
                                                        std::uint32_t max_objects, const std::uint32_t* kept,
                                                        const std::uint32_t* order, ComponentStatsArrays stats, ComponentList out) {
  static_assert(sizeof(Component) % 8 == 0 && alignof(Component) == 8, "components are copied as 8-byte words");
  __shared__ Component staged[kThreads];
  wait_for_previous_kernel();
  const FrameCounts frame = *counts;
  if (out.counts && blockIdx.x == 0 && threadIdx.x == 0) *out.counts = frame;
  const std::uint32_t block_first = first + blockIdx.x * blockDim.x;
  const std::uint32_t block_end = min(min(end, min(frame.n_in_range, max_objects)), block_first + blockDim.x);
  if (block_first >= block_end) return;  // the whole block
  const std::uint32_t j = block_first + threadIdx.x;
  if (j < block_end) {
    const std::uint32_t rank = kept ? kept[j] : j;
    const std::uint32_t id = order ? order[rank] : rank;
    staged[threadIdx.x] = make_component(stats.load(id), rank + 1);
  }
  __syncthreads();
  constexpr std::uint32_t kWords = sizeof(Component) / 8;
  const auto* from = reinterpret_cast<const unsigned long long*>(staged);
  auto* to = reinterpret_cast<unsigned long long*>(out.components + block_first);
  for (std::uint32_t i = threadIdx.x; i < (block_end - block_first) * kWords; i += blockDim.x) to[i] = from[i];
}

int key_bits(std::size_t max_area) {
  int bits = 1;
  while (bits < 32 && (std::size_t(1) << bits) <= max_area) ++bits;
  return bits;
}

// Always one block at least: it writes the counts.
void gather(const AnalysisOutput& analysis, const Options& options, std::uint32_t first, std::uint32_t end,
            const std::uint32_t* kept, const std::uint32_t* order, const ComponentList& out, cudaStream_t stream,
            StageTimer* timer) {
  check(launch_dependent(GatherKernel, std::max(1u, blocks_for(end > first ? end - first : 0)), kThreads, stream,
                         first, end, analysis.counts, options.max_objects, kept, order, analysis.stats, out),
        "GatherKernel");
  mark(timer, "GatherKernel", stream);
}

}  // namespace

std::size_t compact_temp_bytes(std::size_t max_components) {
  const auto n = std::uint32_t(max_components);
  std::size_t sort_bytes = 0, select_bytes = 0;
  check(cub::DeviceRadixSort::SortPairsDescending(nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
                                                  static_cast<std::uint32_t*>(nullptr),
                                                  static_cast<const std::uint32_t*>(nullptr),
                                                  static_cast<std::uint32_t*>(nullptr), n),
        "cub::DeviceRadixSort::SortPairsDescending (size query)");
  check(cub::DeviceSelect::If(nullptr, select_bytes, thrust::counting_iterator<std::uint32_t>(0),
                              static_cast<std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), n,
                              InRange{}),
        "cub::DeviceSelect::If (size query)");
  return std::max(sort_bytes, select_bytes);
}

bool filters_area(const Options& o) { return o.min_area > 0 || o.max_area != kUnlimited; }

bool keeps_without_counts(const Options& options) { return options.order == Order::Raster && !filters_area(options); }

void count_in_range(const AnalysisOutput& analysis, int height, const Options& options, cudaStream_t stream,
                    StageTimer* timer) {
  if (!filters_area(options)) return;
  CountInRangeKernel<<<kCountBlocks, kThreads, 0, stream>>>(analysis.row_offset + height, analysis.stats.area,
                                                           options.min_area, options.max_area, analysis.counts);
  check_launch("CountInRangeKernel");
  mark(timer, "CountInRangeKernel", stream);
}

void gather_in_raster_order(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
                            const Options& options, std::uint32_t first, std::uint32_t end, const ComponentList& out,
                            const LabelView* map, cudaStream_t stream, StageTimer* timer) {
  gather(analysis, options, first, end, nullptr, nullptr, out, stream, timer);
  if (map) write_label_map(mask, labels, analysis, nullptr, *map, stream, timer);
}

void compact(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
             const CompactionWork& w, const Options& options, const FrameCounts& counts, std::uint32_t n_out,
             const ComponentList& out, const LabelView* map, cudaStream_t stream, StageTimer* timer) {
  const std::uint32_t n = counts.n_components;
  const bool by_area = options.order == Order::Area && n > 1;
  if (by_area) {
    IotaKernel<<<blocks_for(n), kThreads, 0, stream>>>(n, w.ranks);
    check_launch("IotaKernel");
    std::size_t bytes = w.cub_temp_bytes;
    check(cub::DeviceRadixSort::SortPairsDescending(w.cub_temp, bytes, analysis.stats.area, w.sort_keys, w.ranks,
                                                    w.order, n, 0, key_bits(std::size_t(mask.width) * mask.height),
                                                    stream),
          "cub::DeviceRadixSort::SortPairsDescending (areas)");
    mark(timer, "SortByArea", stream);
  }
  const std::uint32_t* order = by_area ? w.order : nullptr;

  const std::uint32_t* kept = nullptr;
  if (n_out > 0 && filters_area(options)) {
    std::size_t bytes = w.cub_temp_bytes;
    check(cub::DeviceSelect::If(w.cub_temp, bytes, thrust::counting_iterator<std::uint32_t>(0), w.ranks, w.n_selected,
                                n, InRange{analysis.stats.area, order, options.min_area, options.max_area}, stream),
          "cub::DeviceSelect::If (area filter)");
    kept = w.ranks;
    mark(timer, "SelectInRange", stream);
  }
  gather(analysis, options, 0, n_out, kept, order, out, stream, timer);

  if (map) {
    std::uint32_t* final_label = nullptr;
    if (by_area) {
      final_label = w.sort_keys;  // the sorted areas are no longer needed
      InvertOrderKernel<<<blocks_for(n), kThreads, 0, stream>>>(n, w.order, final_label);
      check_launch("InvertOrderKernel");
    }
    write_label_map(mask, labels, analysis, final_label, *map, stream, timer);
  }
}

}  // namespace ccl::cuda
