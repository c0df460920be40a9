// The foreground stage's kernel: a 64x64 tile of the mask plus a halo is built in shared memory from
// its source (threshold, Sigma-Delta, or an earlier pass's mask plane), opened and closed there, and
// its interior written as a 0/1 byte plane. The halo is the sum of the radii of the four filters,
// so one pass does mask + open + close while 2 (open + close) <= kForegroundMaxHalo.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "foreground/mask_source.cuh"

namespace ccl::cuda {

constexpr int kForegroundTile = 64;                           // output pixels per tile side
constexpr int kForegroundMaxHalo = 2 * kMaxMorphologyRadius;  // an opening (or closing) of the largest radius
constexpr int kForegroundBufferSide = kForegroundTile + 2 * kForegroundMaxHalo;  // 124: two buffers = 30 KiB
constexpr int kForegroundThreads = 512;  // 64 over 32: the fastest of 32/256, 64/256, 64/512 at 1080p (H100)

// Queues the mask of `source`, opened with open_radius then closed with close_radius, into `out`
// (0/1 bytes, `out_pitch` bytes a row, source.width x source.height). Requires
// 2 * (open_radius + close_radius) <= kForegroundMaxHalo. Motion sources write the model's
// out planes, each pixel once. Throws Error(DeviceFailure) when the launch fails.
void queue_foreground_tiles(const MaskSource& source, int open_radius, int close_radius, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream);

}  // namespace ccl::cuda
