#include "foreground/shadow_texture.cuh"

#include "ccl/chroma_rules.hpp"
#include "foreground/foreground_tiles.cuh"
#include "host/cuda_check.hpp"
#include "primitives/dependent_launch.cuh"

namespace ccl::cuda {
namespace {

constexpr int kThreads = 256;

// Row of a texture window: the 8 bytes from `p` on (byte k at bits 8k), read as the two aligned
// words that hold them. Both words lie in p's row where the row's start and stride are 4-aligned
// and p + 4 is still in the row.
__device__ std::uint64_t window_row(const std::uint8_t* p) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const auto* word = reinterpret_cast<const std::uint32_t*>(at & ~std::uintptr_t(3));
  const std::uint64_t both = std::uint64_t(__ldg(word)) | std::uint64_t(__ldg(word + 1)) << 32;
  return both >> (8 * (at & 3));
}

// The texture test of frame pixel (x, y), through the read-only cache (the windows of
// neighbouring pixels overlap). Inside the frame's border each window row comes as two words and
// the residual's sum stops once it is over the bound (it only grows: the same answer); on the
// border, or on rows not 4-aligned, by the shared rule's clipped loops.
__device__ bool textured_as_shadow(const ChromaFrame& f, int x, int y) {
  const std::uint8_t* in = f.luma;
  const std::uint8_t* mean = f.luma_model.m_out;
  const std::ptrdiff_t in_stride = f.luma_stride, mean_pitch = f.luma_model.pitch;
  constexpr int r = kShadowRadius, side = 2 * r + 1;
  static_assert(side == 5, "a window row: the 8 bytes of window_row, its sum by one dp4a and a fifth byte");
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(mean) |
                         std::uintptr_t(in_stride) | std::uintptr_t(mean_pitch)) &
                        3u) == 0;
  if (!aligned || x < r || y < r || x + r >= f.width || y + r >= f.height)
    return shadow_texture(
        x, y, f.width, f.height, [&](int px, int py) { return read_byte(in + py * in_stride + px); },
        [&](int px, int py) { return read_byte(mean + py * mean_pitch + px); });
  const std::uint8_t* in_corner = in + (y - r) * in_stride + (x - r);
  const std::uint8_t* mean_corner = mean + (y - r) * mean_pitch + (x - r);
  std::uint64_t in_rows[side], mean_rows[side];
  std::uint32_t si = 0, sm = 0;
  constexpr std::uint32_t kOnes = 0x01010101u;  // dp4a with it: the sum of a word's four bytes
#pragma unroll
  for (int dy = 0; dy < side; ++dy) {
    in_rows[dy] = window_row(in_corner + dy * in_stride);
    mean_rows[dy] = window_row(mean_corner + dy * mean_pitch);
  }
#pragma unroll
  for (int dy = 0; dy < side; ++dy) {
    si = __dp4a(std::uint32_t(in_rows[dy]), kOnes, si + std::uint32_t(in_rows[dy] >> 32 & 255u));
    sm = __dp4a(std::uint32_t(mean_rows[dy]), kOnes, sm + std::uint32_t(mean_rows[dy] >> 32 & 255u));
  }
  constexpr int n = side * side;
  const std::int32_t bound = kShadowTexture * n * std::int32_t(sm);
  std::int32_t e = 0;
#pragma unroll
  for (int dy = 0; dy < side; ++dy) {
#pragma unroll
    for (int dx = 0; dx < side; ++dx) {
      const std::int32_t i = std::int32_t(in_rows[dy] >> (8 * dx) & 255u);
      const std::int32_t m = std::int32_t(mean_rows[dy] >> (8 * dx) & 255u);
      const std::int32_t d = i * std::int32_t(sm) - m * std::int32_t(si);
      e += d < 0 ? -d : d;
    }
    if (e > bound) return false;
  }
  return true;
}

// A warp's candidates, so that its lanes test 32 at once rather than the few of one word: entry =
// the word's lane << 5 | bit. Every lane of the warp calls every member.
struct CandidateQueue {
  std::uint16_t (&entries)[64];
  int count = 0;  // the same in every lane

  // Queues each lane's pixel where `queued`.
  __device__ void push(bool queued, std::uint16_t entry) {
    const int lane = int(threadIdx.x) % 32;
    const std::uint32_t who = __ballot_sync(0xffffffffu, queued);
    if (queued) entries[count + __popc(who & ((1u << lane) - 1u))] = entry;
    count += __popc(who);
    __syncwarp();
  }
  // Runs `test_entry` on up to 32 queued entries, a lane each, and keeps the rest queued.
  template <typename Test>
  __device__ void test(Test&& test_entry) {
    const int lane = int(threadIdx.x) % 32, tested = count < 32 ? count : 32;
    if (lane < tested) test_entry(entries[lane]);
    __syncwarp();
    const std::uint16_t rest = lane + 32 < count ? entries[lane + 32] : std::uint16_t(0);
    __syncwarp();
    if (lane + 32 < count) entries[lane] = rest;
    count -= tested;
    __syncwarp();
  }
};

// A warp per 32 words of the candidate plane, `stride` words apart (stride = ceil(words / 32), the
// warps that hold words; the last block's others idle):
// the words of a region crowded with candidates go to many warps, not a few.
__global__ void __launch_bounds__(kThreads)
    shadow_texture_kernel(ChromaFrame f, const std::uint32_t* candidates, int stride, std::uint32_t* mask) {
  __shared__ std::uint16_t queues[kThreads / 32][64];
  wait_for_previous_kernel();  // the colour pass's mask and candidates
  const int lane = int(threadIdx.x) % 32, warp_in_block = int(threadIdx.x) / 32;
  const int warp = int(blockIdx.x) * (kThreads / 32) + warp_in_block;
  const int words_per_row = mask_words_per_row(f.width), words = words_per_row * f.height;
  const int mine = warp + stride * lane;
  const std::uint32_t word = warp < stride && mine < words ? candidates[mine] : 0u;
  CandidateQueue queue{queues[warp_in_block]};
  const auto test_entry = [&](std::uint16_t entry) {
    const int i = warp + stride * (entry >> 5), y = i / words_per_row, x = 32 * (i - y * words_per_row) + (entry & 31);
    if (textured_as_shadow(f, x, y)) atomicAnd(&mask[i], ~(1u << (entry & 31)));  // lanes may share a word
  };
  for (std::uint32_t left = __ballot_sync(0xffffffffu, word != 0u); left != 0u; left &= left - 1u) {
    const int k = __ffs(left) - 1;
    queue.push(__shfl_sync(0xffffffffu, word, k) >> lane & 1u, std::uint16_t(k << 5 | lane));
    if (queue.count >= 32) queue.test(test_entry);
  }
  queue.test(test_entry);
}

}  // namespace

void queue_shadow_texture(const ChromaFrame& frame, const std::uint32_t* candidates, std::uint32_t* mask,
                          cudaStream_t stream) {
  const int words = mask_words_per_row(frame.width) * frame.height;
  if (words == 0) return;
  const int warps = (words + 31) / 32, warps_per_block = kThreads / 32;
  const int blocks = (warps + warps_per_block - 1) / warps_per_block;
  check(launch_dependent(shadow_texture_kernel, blocks, kThreads, stream, frame, candidates, warps, mask),
        "shadow_texture_kernel");
}

}  // namespace ccl::cuda
