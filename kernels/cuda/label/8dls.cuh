// Soh et al.'s 8-directional label selection (8DLS) and its modification (M8DLS): multi-pass
// minimum-label selection along the runs through each pixel, with hooking and path compression so
// long components (spirals) need few passes. Afterwards every foreground pixel of `labels` holds the
// raster index of its component's first pixel (the contract of label/optimized_uf.cuh, exceeded).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

// `modified` selects M8DLS: from the second pass on, pixels whose label is still its own root
// ("the smallest so far" in the paper) are skipped. Throws Error(DeviceFailure) if the passes do
// not converge within a generous cap (they always should: every pass that changes anything lowers
// some label). `changed_flag` is one word of scratch device memory (no allocation per frame).
template <int Connectivity>
void label_8dls(const DeviceMask& mask, std::uint32_t* labels, bool modified, unsigned* changed_flag,
                cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
