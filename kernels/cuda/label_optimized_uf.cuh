// Chen et al.'s optimized union-find labeling: local merge per tile in shared memory, then unions
// across tile borders only. Afterwards every foreground pixel's parent chain in `labels` ends at
// the raster index of its component's first pixel; background entries are left untouched.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

constexpr int kTileWidth = 32;   // one warp per tile row, so a row's foreground is one ballot
constexpr int kTileHeight = 32;

void label_optimized_uf(const DeviceMask& mask, int connectivity, std::uint32_t* labels, cudaStream_t stream,
                        StageTimer* timer);

// Whether this binary holds code the current device can run (cudaSuccess) or why not.
cudaError_t probe_kernel_image();

}  // namespace ccl::cuda
