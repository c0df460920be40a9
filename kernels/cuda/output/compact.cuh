// Compaction in the contract's order: components ranked by their first pixel (raster order), or
// sorted by area (stable, so ties stay in raster order), numbered before filtering, then the
// area filter and max_objects, gathered into a dense list.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "primitives/device_mask.cuh"
#include "host/scratch.cuh"

namespace ccl::cuda {

class StageTimer;

// Where a gather writes: the counts (null: not written) and room for every component it is asked
// to gather. Pinned host memory (reached through unified addressing) spares a frame's short list
// the copy and its wait; long lists go to the device list (Scratch::out) and are copied after, as
// the copy engine moves millions of components faster than the kernel's stores across the bus.
struct ComponentList {
  FrameCounts* counts;
  Component* components;
};

// Whether the kept components follow from the counts alone (raster order, no area filter), so
// they can be gathered before the host has read the counts.
bool keeps_without_counts(const Options& options);

// Device only: takes the components outside min_area..max_area off scratch.counts.n_in_range
// (nothing to do without an area filter).
void count_in_range(Scratch& scratch, int height, const Options& options, cudaStream_t stream, StageTimer* timer);

// When keeps_without_counts(options): writes the counts and the kept components first..end-1 to
// `out` (component j at out.components[j]), as far as the frame keeps that many (the device knows
// how many), and the label map when `labels` is given. Queued only.
void gather_in_raster_order(const DeviceMask& mask, Scratch& scratch, const Options& options, std::uint32_t first,
                            std::uint32_t end, const ComponentList& out, const LabelView* labels, cudaStream_t stream,
                            StageTimer* timer);

// The label map in raster order (label = rank + 1) from the ranks the analysis left. Queued only.
void label_map_in_raster_order(const DeviceMask& mask, const Scratch& scratch, const LabelView& labels,
                               cudaStream_t stream, StageTimer* timer);

// Once the host knows `counts`: writes the counts and the first `n_out` kept components to `out`,
// and the label map when `labels` is given. Queued only, as above.
void compact(const DeviceMask& mask, Scratch& scratch, const Options& options, const FrameCounts& counts,
             std::uint32_t n_out, const ComponentList& out, const LabelView* labels, cudaStream_t stream,
             StageTimer* timer);

// CUB temporary storage the compaction needs for up to `max_components` components.
std::size_t compact_temp_bytes(std::size_t max_components);

}  // namespace ccl::cuda
