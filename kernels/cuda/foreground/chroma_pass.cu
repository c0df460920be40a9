#include "foreground/chroma_pass.cuh"

#include "ccl/chroma_rules.hpp"
#include "host/cuda_check.hpp"
#include "primitives/pair_sums.cuh"

namespace ccl::cuda {
namespace {

constexpr int kRowsOfBlocks = 8;  // a thread block is 32 x 8 chroma blocks: a warp is one row of 32

enum class ChromaTurn { Start, Relearn, Step };

// What the frame does to the chroma model, the same in every thread: the luma pass's R (it wrote
// it to the frame's status) decides relearning.
__device__ ChromaTurn chroma_turn(const ChromaFrame& f) {
  if (f.model.start) return ChromaTurn::Start;
  return f.luma_model.status_out->relearn > 0 ? ChromaTurn::Relearn : ChromaTurn::Step;
}

// Calls f(x, y) for each pixel of block (cx, cy) inside the frame.
template <typename F>
__device__ void for_block_pixels(const ChromaFrame& frame, int cx, int cy, F f) {
  for (int y = 2 * cy; y < 2 * cy + 2 && y < frame.height; ++y)
    for (int x = 2 * cx; x < 2 * cx + 2 && x < frame.width; ++x) f(x, y);
}

// The thread block's (U_M, U) and (V_M, V) pairs into the frame's status; every thread calls it.
__device__ void add_block_sums(const PairSums& u, const PairSums& v, AdaptiveStatus* status) {
  __shared__ LightSums block_u, block_v;
  const bool first = threadIdx.x == 0 && threadIdx.y == 0;
  if (first) block_u = block_v = LightSums{};
  __syncthreads();
  u.add_warp_to(block_u, int(threadIdx.x));
  v.add_warp_to(block_v, int(threadIdx.x));
  __syncthreads();
  if (!first) return;
  add_light(status->chroma_u, block_u);
  add_light(status->chroma_v, block_v);
}

constexpr int kTileWidth = 2 * 32, kTileHeight = 2 * kRowsOfBlocks;  // a thread block's pixels

// The luma mask around a thread block's pixels as bits, kChromaReach beyond them on every side:
// bit b of word j of row r is pixel (x0 - kChromaReach + 32 j + b, y0 - kChromaReach + r), 0
// outside the frame (the CPU's scans stop at the edge: the same gaps).
struct MaskBits {
  static constexpr int kWords = 3;  // 64 + 2 * 6 = 76 bits a row
  static constexpr int kRows = kTileHeight + 2 * kChromaReach;
  std::uint32_t words[kRows][kWords];

  // Whole block (a warp is a row of 32 threads); the caller synchronises before reading.
  __device__ void load(const std::uint8_t* mask, std::ptrdiff_t pitch, int x0, int y0, int width, int height) {
    for (int i = int(threadIdx.y); i < kRows * kWords; i += int(blockDim.y)) {
      const int r = i / kWords, j = i % kWords;
      const int x = x0 - kChromaReach + 32 * j + int(threadIdx.x), y = y0 - kChromaReach + r;
      const bool bit = x >= 0 && y >= 0 && x < width && y < height && mask[std::ptrdiff_t(y) * pitch + x] != 0;
      const std::uint32_t word = __ballot_sync(0xffffffffu, bit);
      if (threadIdx.x == 0) words[r][j] = word;
    }
  }
  __device__ bool at(int r, int p) const { return (words[r][p / 32] >> (p % 32)) & 1u; }

  // Step 4's G of frame pixel (x, y): on the mask, or mask within the reach on both sides.
  __device__ bool gap(int x, int y, int x0, int y0) const {
    const int p = x - x0 + kChromaReach, r = y - y0 + kChromaReach;
    const int first = p - kChromaReach, j = first / 32;  // j <= 1: word j + 1 exists
    const std::uint64_t row = ((std::uint64_t(words[r][j + 1]) << 32) | words[r][j]) >> (first % 32);
    constexpr std::uint64_t kReach = (1u << kChromaReach) - 1u;  // bits 0..5 left, 6 the pixel, 7..12 right
    if ((row >> kChromaReach) & 1u) return true;
    if ((row & kReach) && ((row >> (kChromaReach + 1)) & kReach)) return true;
    bool up = false, down = false;
    for (int k = 1; k <= kChromaReach; ++k) up |= at(r - k, p), down |= at(r + k, p);
    return up && down;
  }
};

// I or M around a thread block's pixels, kShadowRadius beyond them, for the shadows' windows; 0
// outside the frame (the window is clipped there).
struct ByteTile {
  static constexpr int kWidth = kTileWidth + 2 * kShadowRadius, kHeight = kTileHeight + 2 * kShadowRadius;
  std::uint8_t bytes[kWidth * kHeight];

  // Whole block; the caller synchronises before reading.
  __device__ void load(const std::uint8_t* plane, std::ptrdiff_t pitch, int x0, int y0, int width, int height) {
    const int threads = int(blockDim.x * blockDim.y);
    for (int i = int(threadIdx.y * blockDim.x + threadIdx.x); i < kWidth * kHeight; i += threads) {
      const int x = x0 - kShadowRadius + i % kWidth, y = y0 - kShadowRadius + i / kWidth;
      bytes[i] = x >= 0 && y >= 0 && x < width && y < height ? plane[std::ptrdiff_t(y) * pitch + x] : 0;
    }
  }
  __device__ int at(int x, int y, int x0, int y0) const {
    return bytes[(y - y0 + kShadowRadius) * kWidth + x - x0 + kShadowRadius];
  }
};

// A start or relearning frame's block: U_M, V_M (and V_c) set; the mask passes through.
__device__ void start_or_relearn_block(const ChromaFrame& f, ChromaTurn turn, int cx, int cy, const std::uint8_t* mask,
                                       std::uint8_t* out, std::ptrdiff_t pitch, PairSums& sums_u, PairSums& sums_v) {
  const std::size_t at = std::size_t(cy) * f.model.width + cx;
  const int u = chroma_sample(f.chroma.u, f.chroma, cx, cy), v = chroma_sample(f.chroma.v, f.chroma, cx, cy);
  std::uint8_t& mean_u = f.model.u[at];
  std::uint8_t& mean_v = f.model.v[at];
  if (turn == ChromaTurn::Start) {
    mean_u = std::uint8_t(u), mean_v = std::uint8_t(v), f.model.deviation[at] = kChromaMinDeviation;
  } else {  // the previous frame's sums, as the luma's light fit
    const std::uint64_t blocks = std::uint64_t(f.model.width) * std::uint64_t(f.model.height);
    mean_u = std::uint8_t(apply_light(fit_light(f.luma_model.status_in->chroma_u, blocks), mean_u));
    mean_v = std::uint8_t(apply_light(fit_light(f.luma_model.status_in->chroma_v, blocks), mean_v));
  }
  sums_u.add(unsigned(u), mean_u);
  sums_v.add(unsigned(v), mean_v);
  for_block_pixels(f, cx, cy, [&](int x, int y) { out[std::ptrdiff_t(y) * pitch + x] = mask[std::ptrdiff_t(y) * pitch + x]; });
}

// What a thread block of a step frame reads around its pixels, in shared memory.
struct StepTiles {
  MaskBits mask;        // the luma mask, for the gaps
  ByteTile in, mean;    // I and M, for the shadows' windows (loaded only when `colour`)
  bool colour;          // the previous frame's chroma background has colour: the shadow test runs
  int x0, y0;           // the block's first pixel
};

// Steps 1, 2, 4, 5 and 6 of a block, after the luma's step 3.
__device__ void step_block(const ChromaFrame& f, const StepTiles& t, int cx, int cy, std::uint8_t* out,
                           std::ptrdiff_t pitch, PairSums& sums_u, PairSums& sums_v) {
  const SigmaDeltaPlanes& luma = f.luma_model;
  const std::size_t at = std::size_t(cy) * f.model.width + cx;
  const int u = chroma_sample(f.chroma.u, f.chroma, cx, cy), v = chroma_sample(f.chroma.v, f.chroma, cx, cy);
  bool absorbed = false;  // 1: C as the previous frame left it (the luma pass wrote C to the other copy)
  for_block_pixels(f, cx, cy, [&](int x, int y) { absorbed |= luma.c_in[std::ptrdiff_t(y) * luma.pitch + x] >= f.absorb_frames; });
  const int mean_u = absorbed ? u : f.model.u[at], mean_v = absorbed ? v : f.model.v[at];
  const bool changed = chroma_changed(u, v, mean_u, mean_v, f.model.deviation[at]);  // 2
  auto in = [&](int x, int y) { return t.in.at(x, y, t.x0, t.y0); };
  auto background = [&](int x, int y) { return t.mean.at(x, y, t.x0, t.y0); };
  bool foreground = false, in_gap = false;
  for_block_pixels(f, cx, cy, [&](int x, int y) {
    const bool luma_fg = t.mask.at(y - t.y0 + kChromaReach, x - t.x0 + kChromaReach);
    const bool gap = t.mask.gap(x, y, t.x0, t.y0);
    bool fg = luma_fg || (changed && gap);  // 4
    if (fg && t.colour && shadow_light(in(x, y), background(x, y)) && shadow_colour(u, v, mean_u, mean_v) &&
        shadow_texture(x, y, f.width, f.height, in, background))  // 5
      fg = false;
    out[std::ptrdiff_t(y) * pitch + x] = std::uint8_t(fg);
    foreground |= luma.c_out[std::ptrdiff_t(y) * luma.pitch + x] != 0;
    in_gap |= gap;
  });
  std::uint8_t learnt_u = std::uint8_t(mean_u), learnt_v = std::uint8_t(mean_v);  // 6
  const bool slow_turn = luma.frame_index % kForegroundUpdatePeriod == 0;
  chroma_learn(learnt_u, learnt_v, f.model.deviation[at], u, v, !foreground && (!in_gap || slow_turn));
  f.model.u[at] = learnt_u;
  f.model.v[at] = learnt_v;
  sums_u.add(unsigned(u), learnt_u);
  sums_v.add(unsigned(v), learnt_v);
}

// Steps 1 to 6 but the luma's (3), a thread per 2x2 block; a start or relearning frame's mask passes through.
__global__ void __launch_bounds__(32 * kRowsOfBlocks)
    chroma_kernel(ChromaFrame f, const std::uint8_t* mask, std::uint8_t* out, std::ptrdiff_t pitch) {
  const ChromaTurn turn = chroma_turn(f);  // the same in the whole grid: every thread reaches the barriers
  const int cx = int(blockIdx.x * blockDim.x + threadIdx.x), cy = int(blockIdx.y * blockDim.y + threadIdx.y);
  const bool inside = cx < f.model.width && cy < f.model.height;
  PairSums sums_u, sums_v;
  if (turn == ChromaTurn::Step) {
    __shared__ StepTiles tiles;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      const std::uint64_t blocks = std::uint64_t(f.model.width) * std::uint64_t(f.model.height);
      tiles.colour = has_colour(f.luma_model.status_in->chroma_u, f.luma_model.status_in->chroma_v, blocks);
      tiles.x0 = int(blockIdx.x) * kTileWidth, tiles.y0 = int(blockIdx.y) * kTileHeight;
    }
    __syncthreads();
    tiles.mask.load(mask, pitch, tiles.x0, tiles.y0, f.width, f.height);
    if (tiles.colour) {
      tiles.in.load(f.luma, f.luma_stride, tiles.x0, tiles.y0, f.width, f.height);
      tiles.mean.load(f.luma_model.m_out, f.luma_model.pitch, tiles.x0, tiles.y0, f.width, f.height);
    }
    __syncthreads();
    if (inside) step_block(f, tiles, cx, cy, out, pitch, sums_u, sums_v);
  } else if (inside) {
    start_or_relearn_block(f, turn, cx, cy, mask, out, pitch, sums_u, sums_v);
  }
  add_block_sums(sums_u, sums_v, f.luma_model.status_out);
}

dim3 block_grid(const ChromaFrame& f) {
  return dim3((f.model.width + 31) / 32, (f.model.height + kRowsOfBlocks - 1) / kRowsOfBlocks);
}

}  // namespace

void queue_chroma_pass(const ChromaFrame& frame, const std::uint8_t* luma_mask, std::uint8_t* out, std::ptrdiff_t pitch,
                       cudaStream_t stream) {
  chroma_kernel<<<block_grid(frame), dim3(32, kRowsOfBlocks), 0, stream>>>(frame, luma_mask, out, pitch);
  check_launch("chroma_kernel");
}

}  // namespace ccl::cuda
