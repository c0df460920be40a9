// The binarized frame as kernels see it, and the warp lane masks the run and merge kernels share.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ccl::cuda {

constexpr unsigned kFullWarp = 0xffffffffu;

// Bit i of the result: byte i of `word` > the byte threshold (`threshold4` holds it in all bytes).
__device__ inline unsigned byte_bits(unsigned word, unsigned threshold4) {
  const unsigned above = __vcmpgtu4(word, threshold4) & 0x80808080u;  // top bit of each byte above
  return (above * 0x00204081u) >> 28;  // gathers bits 7, 15, 23, 31 into 28..31 without carries
}

// A device 8-bit plane plus the threshold, so every kernel fuses binarization into its read.
struct DeviceMask {
  const std::uint8_t* data;
  int width;
  int height;
  std::ptrdiff_t stride;  // bytes
  std::uint8_t threshold;

  __device__ bool foreground(int x, int y) const { return data[std::ptrdiff_t(y) * stride + x] > threshold; }
  // Whether every row starts on a 16-byte boundary, so 16 pixels at a multiple of 16 are one load.
  __device__ bool vector_rows() const {
    return ((reinterpret_cast<std::uintptr_t>(data) | std::uintptr_t(stride)) & 15u) == 0;
  }
  // Foreground of pixels x..x+15 of row y (x a multiple of 16) as bits 0..15; pixels at or past
  // the width read as background. `vector` = vector_rows(), hoisted by the caller.
  __device__ unsigned foreground_bits16(int x, int y, bool vector) const {
    const std::uint8_t* p = data + std::ptrdiff_t(y) * stride + x;
    if (vector && x + 16 <= width) {
      const uint4 v = *reinterpret_cast<const uint4*>(p);
      const unsigned t = threshold * 0x01010101u;
      return byte_bits(v.x, t) | byte_bits(v.y, t) << 4 | byte_bits(v.z, t) << 8 | byte_bits(v.w, t) << 12;
    }
    if (x >= width) return 0u;  // the lanes past a row's end, every row: skip the loop below
    unsigned bits = 0;
#pragma unroll
    for (int i = 0; i < 16; ++i)
      if (x + i < width && p[i] > threshold) bits |= 1u << i;
    return bits;
  }
  // Raster index of a pixel; 65535 x 65535 still fits in 32 bits.
  __device__ std::uint32_t index(int x, int y) const { return std::uint32_t(y) * std::uint32_t(width) + std::uint32_t(x); }
};

__device__ inline unsigned lanes_below(int lane) { return (1u << lane) - 1u; }
__device__ inline unsigned lanes_above(int lane) { return lane == 31 ? 0u : ~0u << (lane + 1); }
__device__ inline int lane_id() { return int(threadIdx.x & 31u); }

// Warp-wide: the sum of v over the 32 lanes, in every lane.
__device__ inline std::uint32_t warp_sum(std::uint32_t v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullWarp, v, offset);
  return v;
}

// Warp-wide: the sum of v over lanes 0..lane, correct in the first `Lanes` lanes (a power of two).
template <int Lanes = 32>
__device__ inline std::uint32_t warp_inclusive_sum(std::uint32_t v) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < Lanes; d *= 2) {
    const std::uint32_t below = __shfl_up_sync(kFullWarp, v, d);
    if (lane >= d) v += below;
  }
  return v;
}

}  // namespace ccl::cuda
