#include "foreground/chroma_pass.cuh"

#include "ccl/chroma_rules.hpp"
#include "foreground/tile_filters.cuh"
#include "host/cuda_check.hpp"
#include "primitives/dependent_launch.cuh"
#include "primitives/pair_sums.cuh"

namespace ccl::cuda {
namespace {

// A thread block writes 128 x 64 pixels; its luma rows have one halo word each side and
// kChromaReach rows above and below, for the gaps. A 1080p frame's 255 blocks run at once on a
// 132-SM GPU (256 x 32 tiles left a second wave). A warp takes 32 chroma blocks of a block row: two
// words of two rows.
constexpr int kTileWords = 4, kTileWidth = 32 * kTileWords, kTileHeight = 64;
constexpr int kThreads = 512;
constexpr int kWordsPerRow = kTileWords + 2;
constexpr int kInnerChunks = kTileWords / 2;               // a block row's output words, two a warp
constexpr int kLumaRows = kTileHeight + 2 * kChromaReach;  // the gaps' reach

enum class ChromaTurn { Start, Relearn, Step };

// What the frame does to the chroma model, the same in every thread: the luma pass's R (it wrote
// it to the frame's status) decides relearning.
__device__ ChromaTurn chroma_turn(const ChromaFrame& f) {
  if (f.model.start) return ChromaTurn::Start;
  return f.luma_model.status_out->relearn > 0 ? ChromaTurn::Relearn : ChromaTurn::Step;
}

// has_colour of the previous frame's chroma sums, in warp 0: its four quotients a lane each, so one
// round trip and one 64-bit division rather than a chain of four of each while the block waits.
__device__ bool frame_has_colour(const AdaptiveStatus& status, std::uint64_t blocks) {
  const int lane = int(threadIdx.x) % 32;
  const LightSums& sums = lane < 2 ? status.chroma_u : status.chroma_v;
  const std::int64_t mean = lane < 4 && blocks != 0 ? q8_mean(lane % 2 ? sums.mm : sums.m, blocks) : 0;
  const auto from = [&](int l) { return __shfl_sync(0xffffffffu, mean, l); };
  const std::int64_t u_m = from(0), u_mm = from(1), v_m = from(2), v_mm = from(3);
  return blocks != 0 && has_colour_of_means(u_m, u_mm, v_m, v_mm);
}

// Where a thread block's bit rows lie: bit i of word j of row r is frame pixel (x0 + 32 j + i,
// out_y0 + r) (word 0 is the halo word left of the output); luma row r is row r - kChromaReach.
struct ColourTile {
  int out_x0, out_y0;  // the output's first pixel
  int x0;
};

// Step 4's G for word j of luma row r: on the mask, or mask within kChromaReach on both sides along
// the row or the column. Bits outside the frame are 0 in `luma` (the CPU's scans stop at the edge:
// the same gaps); words beyond the buffer would count as 0 (j is an output word: its neighbours
// are in the buffer).
__device__ std::uint32_t gap_word(const std::uint32_t* luma, int r, int j) {
  auto word = [&](int row, int col) { return col < 0 || col >= kWordsPerRow ? 0u : luma[row * kWordsPerRow + col]; };
  const std::uint32_t m = word(r, j), left = word(r, j - 1), right = word(r, j + 1);
  std::uint32_t before = 0, after = 0, up = 0, down = 0;
  for (int k = 1; k <= kChromaReach; ++k) {
    before |= (m << k) | (left >> (32 - k));  // bit i: pixel i - k
    after |= (m >> k) | (right << (32 - k));  // bit i: pixel i + k
    up |= word(r - k, j);
    down |= word(r + k, j);
  }
  return m | (before & after) | (up & down);
}

// Bits of one 2x2 block's pixels (its mask, gaps or shadows): two rows as 2-bit pairs, bit 0 the left pixel.
struct BlockBits {
  std::uint32_t top, bottom;
};

// The block whose top-left pixel is bit `shift` of word j of row r of a tile plane (kWordsPerRow words a row).
__device__ BlockBits block_bits(const std::uint32_t* plane, int r, int j, int shift) {
  return {(plane[r * kWordsPerRow + j] >> shift) & 3u, (plane[(r + 1) * kWordsPerRow + j] >> shift) & 3u};
}

// Start or relearn: U_M, V_M (and V_c) set; the mask passes through.
__device__ void start_or_relearn_block(const ChromaFrame& f, ChromaTurn turn, int cx, int cy, PairSums& sums_u,
                                       PairSums& sums_v) {
  const std::size_t at = std::size_t(cy) * f.model.width + cx;
  const int u = chroma_sample(f.chroma.u, f.chroma, cx, cy), v = chroma_sample(f.chroma.v, f.chroma, cx, cy);
  std::uint8_t mean_u = std::uint8_t(u), mean_v = std::uint8_t(v), deviation = kChromaMinDeviation;
  if (turn == ChromaTurn::Relearn) {  // the previous frame's sums, as the luma's light fit
    const std::uint64_t blocks = std::uint64_t(f.model.width) * std::uint64_t(f.model.height);
    mean_u = std::uint8_t(apply_light(fit_light(f.luma_model.status_in->chroma_u, blocks), f.model.u_in[at]));
    mean_v = std::uint8_t(apply_light(fit_light(f.luma_model.status_in->chroma_v, blocks), f.model.v_in[at]));
    deviation = f.model.deviation_in[at];
  }
  f.model.u[at] = mean_u, f.model.v[at] = mean_v, f.model.deviation[at] = deviation;
  sums_u.add(unsigned(u), mean_u);
  sums_v.add(unsigned(v), mean_v);
}

// Steps 1, 2, 4, 5 and 6 of block (cx, cy), after the luma's step 3: `mask` comes in as the luma
// mask and leaves as the block's before the shadows; `gaps` are its pixels' G; `shadows` gets the
// pixels on the mask that pass step 5's colour and light tests, for the texture test (where the
// picture has colour).
__device__ void step_block(const ChromaFrame& f, bool colour, int cx, int cy, BlockBits gaps, BlockBits& mask,
                           BlockBits& shadows, PairSums& sums_u, PairSums& sums_v) {
  const SigmaDeltaPlanes& luma = f.luma_model;
  const std::size_t at = std::size_t(cy) * f.model.width + cx;
  const int x = 2 * cx, y = 2 * cy;
  const bool right = x + 1 < f.width, below = y + 1 < f.height;  // the block's other pixels in the frame
  // Every read first, through the read-only cache and with no branch between them: one round trip
  // to memory (the light test's reads, which only a pixel on the mask needs, included: behind a
  // branch they were a second).
  const int u = read_byte(chroma_sample_at(f.chroma.u, f.chroma, cx, cy));
  const int v = read_byte(chroma_sample_at(f.chroma.v, f.chroma, cx, cy));
  const std::uint8_t* c = luma.c_in + std::ptrdiff_t(y) * luma.pitch + x;  // C as the previous frame left it
  const std::ptrdiff_t dx = right ? 1 : 0, dy = below ? luma.pitch : 0;    // the block's pixels, repeated at the edge
  const int c_max = max(max(read_byte(c), read_byte(c + dx)), max(read_byte(c + dy), read_byte(c + dy + dx)));
  const int model_u = read_byte(f.model.u_in + at), model_v = read_byte(f.model.v_in + at);
  const std::uint8_t* in = f.luma + std::ptrdiff_t(y) * f.luma_stride + x;
  const std::uint8_t* background = luma.m_out + std::ptrdiff_t(y) * luma.pitch + x;
  const std::ptrdiff_t in_dy = below ? f.luma_stride : 0;
  const std::uint32_t lit =  // bit k: pixel k (row-major) passes step 5's light test
      std::uint32_t(shadow_light(read_byte(in), read_byte(background))) |
      std::uint32_t(shadow_light(read_byte(in + dx), read_byte(background + dx))) << 1 |
      std::uint32_t(shadow_light(read_byte(in + in_dy), read_byte(background + dy))) << 2 |
      std::uint32_t(shadow_light(read_byte(in + in_dy + dx), read_byte(background + dy + dx))) << 3;
  std::uint8_t deviation = std::uint8_t(read_byte(f.model.deviation_in + at));
  const bool absorbed = c_max >= f.absorb_frames;
  const int mean_u = absorbed ? u : model_u, mean_v = absorbed ? v : model_v;  // 1
  const BlockBits luma_mask = mask;
  if (chroma_changed(u, v, mean_u, mean_v, deviation)) mask.top |= gaps.top, mask.bottom |= gaps.bottom;  // 2, 4
  if (colour && shadow_colour(u, v, mean_u, mean_v))  // 5's colour and light
    shadows = {mask.top & lit, mask.bottom & lit >> 2};
  std::uint8_t learnt_u = std::uint8_t(mean_u), learnt_v = std::uint8_t(mean_v);  // 6
  const bool foreground = (luma_mask.top | luma_mask.bottom) != 0;                // C after the luma pass != 0
  const bool in_gap = (gaps.top | gaps.bottom) != 0;
  const bool slow_turn = luma.frame_index % kForegroundUpdatePeriod == 0;
  chroma_learn(learnt_u, learnt_v, deviation, u, v, !foreground && (!in_gap || slow_turn));
  f.model.u[at] = learnt_u, f.model.v[at] = learnt_v, f.model.deviation[at] = deviation;
  sums_u.add(unsigned(u), learnt_u);
  sums_v.add(unsigned(v), learnt_v);
}

// The thread block's (U_M, U) and (V_M, V) pairs into the frame's status; every thread calls it.
__device__ void add_block_sums(const PairSums& u, const PairSums& v, WarpSlots<kThreads / 32>& block_u,
                               WarpSlots<kThreads / 32>& block_v, AdaptiveStatus* status) {
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  block_u.put(u, warp, lane);
  block_v.put(v, warp, lane);
  __syncthreads();
  if (threadIdx.x != 0) return;
  add_light(status->chroma_u, block_u.total());
  add_light(status->chroma_v, block_v.total());
}

// A warp's 32 blocks (lane l: block l, `bits` = bit b of pair p is pixel b of pair p's row) as
// two words per pair: lane l takes pixel l of each word from the lane holding it, so a ballot is
// the word. Lane 0 gets them, in `words` (word 0 and 1 of pair p at 2 p, 2 p + 1).
template <int kPairs>
__device__ void ballot_block_words(std::uint32_t bits, std::uint32_t (&words)[2 * kPairs]) {
  const int lane = int(threadIdx.x) % 32, b = lane % 2;
  const std::uint32_t first = __shfl_sync(0xffffffffu, bits, lane / 2);
  const std::uint32_t second = __shfl_sync(0xffffffffu, bits, 16 + lane / 2);
#pragma unroll
  for (int p = 0; p < kPairs; ++p) {
    words[2 * p] = __ballot_sync(0xffffffffu, (first >> (2 * p + b)) & 1u);
    words[2 * p + 1] = __ballot_sync(0xffffffffu, (second >> (2 * p + b)) & 1u);
  }
}

__global__ void __launch_bounds__(kThreads, 2)
    chroma_tiles_kernel(ChromaFrame f, const std::uint32_t* luma_mask, std::uint32_t* candidates, std::uint32_t* out) {
  __shared__ std::uint32_t luma[kLumaRows * kWordsPerRow];     // the luma pass's mask
  __shared__ std::uint32_t words[kTileHeight * kWordsPerRow];  // the mask after colour
  __shared__ std::uint32_t gaps[kTileHeight * kWordsPerRow];   // step 4's G
  __shared__ WarpSlots<kThreads / 32> block_u, block_v;
  __shared__ bool colour;                  // the frame's picture has colour: shadow candidates are marked
  wait_for_previous_kernel();              // the luma pass's mask and status
  const ChromaTurn turn = chroma_turn(f);  // the same in the whole grid
  ColourTile t;
  t.out_x0 = int(blockIdx.x) * kTileWidth, t.out_y0 = int(blockIdx.y) * kTileHeight, t.x0 = t.out_x0 - 32;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kThreads / 32;
  if (warp == 0) {  // one warp's 64-bit divisions, not every warp's
    const std::uint64_t blocks = std::uint64_t(f.model.width) * std::uint64_t(f.model.height);
    const bool has = turn == ChromaTurn::Step && frame_has_colour(*f.luma_model.status_in, blocks);
    if (lane == 0) colour = has;
  }
  // The luma mask's words, 0 outside the frame.
  const int luma_words_per_row = mask_words_per_row(f.width);
  for (int i = int(threadIdx.x); i < kLumaRows * kWordsPerRow; i += kThreads) {
    const int r = i / kWordsPerRow, w = t.x0 / 32 + i - r * kWordsPerRow, y = t.out_y0 - kChromaReach + r;
    luma[i] = w >= 0 && y >= 0 && w < luma_words_per_row && y < f.height
                  ? luma_mask[std::ptrdiff_t(y) * luma_words_per_row + w]
                  : 0u;
  }
  __syncthreads();
  if (turn == ChromaTurn::Step)
    for (int i = int(threadIdx.x); i < kTileHeight * kTileWords; i += kThreads) {
      const int r = i / kTileWords, j = 1 + i - r * kTileWords;
      gaps[r * kWordsPerRow + j] = gap_word(luma, r + kChromaReach, j);
    }
  __syncthreads();
  const BitTile tile{words, gaps, kWordsPerRow, kTileHeight, t.x0, t.out_y0, f.width, f.height};
  PairSums sums_u, sums_v;
  // A warp per 32 blocks of a block row, lane l has bits 2 (l % 16), +1 of word j of two rows.
  for (int i = warp; i < kTileHeight / 2 * kInnerChunks; i += warps) {
    const int block_row = i / kInnerChunks, chunk = i - block_row * kInnerChunks;
    const int r = 2 * block_row, j = 1 + 2 * chunk + lane / 16, shift = 2 * (lane % 16);
    const int cx = t.out_x0 / 2 + 32 * chunk + lane, cy = t.out_y0 / 2 + block_row;
    BlockBits mask = block_bits(luma, r + kChromaReach, j, shift), maybe_shadows{0u, 0u};
    const bool in_model = cx < f.model.width && cy < f.model.height;
    if (in_model && turn == ChromaTurn::Step)
      step_block(f, colour, cx, cy, block_bits(gaps, r, j, shift), mask, maybe_shadows, sums_u, sums_v);
    else if (in_model)
      start_or_relearn_block(f, turn, cx, cy, sums_u, sums_v);
    std::uint32_t got[8];  // the mask's top and bottom words, then the shadows'
    ballot_block_words<4>(mask.top | mask.bottom << 2 | maybe_shadows.top << 4 | maybe_shadows.bottom << 6, got);
    if (lane == 0) {
      const int at = r * kWordsPerRow + 1 + 2 * chunk;
      const int below = at + kWordsPerRow;
      words[at] = got[0], words[at + 1] = got[1], words[below] = got[2], words[below + 1] = got[3];
    }
    if (lane < 4) {  // the texture test's candidates: lane k has word 1 + 2 chunk + k % 2 of row r + k / 2
      const int j_k = 1 + 2 * chunk + lane % 2, w = t.x0 / 32 + j_k, y = t.out_y0 + r + lane / 2;
      const std::uint32_t word = lane == 0 ? got[4] : lane == 1 ? got[5] : lane == 2 ? got[6] : got[7];
      if (w < luma_words_per_row && y < f.height)
        candidates[std::ptrdiff_t(y) * luma_words_per_row + w] = word & tile.in_frame_columns(j_k);
    }
  }
  add_block_sums(sums_u, sums_v, block_u, block_v, f.luma_model.status_out);  // its barrier: words are whole
  write_tile_words<kTileWords, kTileHeight>(tile, 0, t.out_x0, t.out_y0, out, luma_words_per_row);
}

}  // namespace

void queue_chroma_pass(const ChromaFrame& frame, const std::uint32_t* luma_mask, std::uint32_t* candidates,
                       std::uint32_t* out, cudaStream_t stream) {
  const dim3 grid((frame.width + kTileWidth - 1) / kTileWidth, (frame.height + kTileHeight - 1) / kTileHeight);
  check(launch_dependent(chroma_tiles_kernel, grid, kThreads, stream, frame, luma_mask, candidates, out),
        "chroma_tiles_kernel");
}

}  // namespace ccl::cuda
