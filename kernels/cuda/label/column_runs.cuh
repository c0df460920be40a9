// Kang et al.'s column-runs labeling: one thread per column links each vertical run to its top
// pixel, log2(w) rounds of pairwise merges join adjacent column groups across their common
// boundary (union by minimum), and a relabel pass writes every foreground pixel's root. Afterwards
// `labels` holds, at every foreground pixel, the raster index of its component's first pixel
// (the contract of label/optimized_uf.cuh, in its strongest form).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

template <int Connectivity>
void label_column_runs(const DeviceMask& mask, std::uint32_t* labels, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
