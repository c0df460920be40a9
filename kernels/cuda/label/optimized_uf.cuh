// Chen et al.'s optimized union-find labeling: local merge per tile in shared memory, then unions
// across tile borders only. Afterwards `labels` holds a parent chain, ending at the raster index of
// the component's first pixel, at every tile-local run start (a foreground pixel whose left
// neighbour is background or in another tile) and every foreground pixel on a tile border; the
// other entries are left untouched, so a pixel resolves through the start of its run.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

constexpr int kTileWidth = 128;  // four 32-bit foreground words a row, loaded 16 bytes at a time
constexpr int kTileHeight = 64;

void label_optimized_uf(const DeviceMask& mask, int connectivity, std::uint32_t* labels, cudaStream_t stream,
                        StageTimer* timer);

// Whether this binary holds code the current device can run (cudaSuccess) or why not.
cudaError_t probe_kernel_image();

}  // namespace ccl::cuda
