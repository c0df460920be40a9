// Chen et al.'s optimized union-find labeling: local merge per tile in shared memory, then unions
// across tile borders only. Afterwards `labels` holds a parent chain, ending at the raster index of
// the component's first pixel, at every tile-local run start (a foreground pixel whose left
// neighbour is background or in another tile) and every foreground pixel on a tile border; the
// other entries are left untouched, so a pixel resolves through the start of its run.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"
#include "primitives/tile_runs.cuh"

namespace ccl::cuda {

class StageTimer;

template <int Connectivity>
void label_optimized_uf(const DeviceMask& mask, std::uint32_t* labels, cudaStream_t stream, StageTimer* timer);

// Whether this binary holds code the current device can run (cudaSuccess) or why not.
cudaError_t probe_kernel_image();

}  // namespace ccl::cuda
