// The gathers that follow add_features_at_roots (analyze/flsl_cd.cuh): the statistics at the root
// slots (analyze/root_stats.cuh) become components in raster order, and the slots are zeroed for the next
// frame. One block per row block of add_features_at_roots: from the counts of roots it left per row
// and per row block, each block ranks its own roots and writes its rows' offsets.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "analyze/root_stats.cuh"
#include "primitives/device_mask.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// Into out.stats, by rank (what the other analyses leave, for the compaction); also out.row_offset
// and out.counts.
void gather_roots_into_stats(const DeviceMask& mask, const RootSlotsView& slots, const AnalysisOutput& out,
                             cudaStream_t stream, StageTimer* timer);

// Into component lists, for raster order without an area filter: out.row_offset and out.counts as
// above and to host.counts, and the kept components (the first max_objects) to host.components[j]
// for j < on_host, to rest[j] beyond (rest: room for every component the frame may keep).
void gather_roots_into_lists(const DeviceMask& mask, const RootSlotsView& slots, const AnalysisOutput& out,
                             std::uint32_t max_objects, std::uint32_t on_host, const ComponentList& host,
                             Component* rest, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
