// Imura et al.'s raster-segment labeling on the GPU: per-pixel start/end flags and a per-row
// prefix sum (warp ballots plus a block scan) extract each row's segments, each segment unites
// with the segments of the row above that it touches (Imura's 4/8 overlap conditions) by
// union-find with union by minimum over segment ids, and every foreground pixel then gets the
// raster index of its root segment's first pixel. Segment ids are y * ceil(width / 2) + rank in
// the row, so they grow in raster order: the root (smallest id) is the component's first segment
// and its first pixel the component's first pixel. Afterwards `labels` holds, at every foreground
// pixel, that raster index (the contract of label/optimized_uf.cuh, in its strongest form).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "primitives/device_mask.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// `segments` is its work: the runs of every row (slots_per_row(width) slots a row).
template <int Connectivity>
void label_raster_segments(const DeviceMask& mask, std::uint32_t* labels, const SegmentsView& segments,
                           cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
