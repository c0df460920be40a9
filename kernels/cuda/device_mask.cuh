// The binarized frame as kernels see it, and the warp lane masks the run and merge kernels share.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ccl::cuda {

constexpr unsigned kFullWarp = 0xffffffffu;

// A device 8-bit plane plus the threshold, so every kernel fuses binarization into its read.
struct DeviceMask {
  const std::uint8_t* data;
  int width;
  int height;
  std::ptrdiff_t stride;  // bytes
  std::uint8_t threshold;

  __device__ bool foreground(int x, int y) const { return data[std::ptrdiff_t(y) * stride + x] > threshold; }
  // Raster index of a pixel; 65535 x 65535 still fits in 32 bits.
  __device__ std::uint32_t index(int x, int y) const { return std::uint32_t(y) * std::uint32_t(width) + std::uint32_t(x); }
};

__device__ inline unsigned lanes_below(int lane) { return (1u << lane) - 1u; }
__device__ inline unsigned lanes_above(int lane) { return lane == 31 ? 0u : ~0u << (lane + 1); }
__device__ inline int lane_id() { return int(threadIdx.x & 31u); }

}  // namespace ccl::cuda
