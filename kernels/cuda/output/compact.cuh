// Compaction in the contract's order: components ranked by their first pixel (raster order), or
// sorted by area (stable, so ties stay in raster order), numbered before filtering, then the
// area filter and max_objects, gathered into a dense list.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "primitives/device_mask.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// Every output reads what the analysis left (`analysis`, see primitives/views.cuh); the label
// map also reads the labels (a component's pixels reach its root through their run starts).

// The compaction's work when it sorts or filters: max_components entries each.
struct CompactionWork {
  std::uint32_t* order;      // component (raster rank) at each position of the chosen order
  std::uint32_t* sort_keys;  // sorted areas, then reused as the final label per component
  std::uint32_t* ranks;      // 0..n-1 for the sort, then the ranks that pass the area filter
  std::uint32_t* n_selected;
  void* cub_temp;
  std::size_t cub_temp_bytes;
};

// Whether min_area or max_area leaves components out.
bool filters_area(const Options& options);

// Whether the kept components follow from the counts alone (raster order, no area filter), so
// they can be gathered before the host has read the counts.
bool keeps_without_counts(const Options& options);

// Device only: takes the components outside min_area..max_area off analysis.counts->n_in_range
// (nothing to do without an area filter).
void count_in_range(const AnalysisOutput& analysis, int height, const Options& options, cudaStream_t stream,
                    StageTimer* timer);

// When keeps_without_counts(options): writes the counts and the kept components first..end-1 to
// `out` (component j at out.components[j]), as far as the frame keeps that many (the device knows
// how many), and the label map when `map` is given. Queued only.
void gather_in_raster_order(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
                            const Options& options, std::uint32_t first, std::uint32_t end, const ComponentList& out,
                            const LabelView* map, cudaStream_t stream, StageTimer* timer);

// Once the host knows `counts`: writes the counts and the first `n_out` kept components to `out`,
// and the label map when `map` is given. Queued only, as above.
void compact(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
             const CompactionWork& work, const Options& options, const FrameCounts& counts, std::uint32_t n_out,
             const ComponentList& out, const LabelView* map, cudaStream_t stream, StageTimer* timer);

// CUB temporary storage the compaction needs for up to `max_components` components.
std::size_t compact_temp_bytes(std::size_t max_components);

}  // namespace ccl::cuda
