#include "foreground/chroma_pass.cuh"

#include "ccl/chroma_rules.hpp"
#include "foreground/tile_filters.cuh"
#include "host/cuda_check.hpp"
#include "primitives/dependent_launch.cuh"
#include "primitives/pair_sums.cuh"

namespace ccl::cuda {
namespace {

// A thread block writes 128 x 64 pixels; its bit rows have one halo word each side, as the luma
// pass's. A 1080p frame's 255 blocks run at once on a 132-SM GPU (256 x 32 tiles left a second wave),
// and the colour rows are 1.25x the output's where 32 rows made them 1.5x. A warp takes 32 chroma
// blocks of a block row: two words of two rows.
constexpr int kTileWords = 4, kTileWidth = 32 * kTileWords, kTileHeight = 64;
constexpr int kThreads = 512;
constexpr int kWordsPerRow = kTileWords + 2;
constexpr int kInnerChunks = kTileWords / 2;  // a block row's output words, two a warp
constexpr int kMaxRows = kTileHeight + 2 * (kChromaMaxFilterHalo + 1);  // the colour rows
constexpr int kMaxLumaRows = kMaxRows + 2 * kChromaReach;               // and the gaps' reach

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

// Where a thread block's bit rows lie: bit i of word j of colour row r is frame pixel (x0 + 32 j +
// i, y0 + r); luma row r is colour row r - kChromaReach.
struct ColourTile {
  int out_x0, out_y0;  // the output's first pixel
  int halo;            // colour rows beyond the output on each side: the filters', rounded up to a block
  int x0, y0;
  int rows;  // colour rows
  __device__ bool owns(int cx, int cy) const {  // the block whose model this thread block writes
    return cx >= out_x0 / 2 && cx < (out_x0 + kTileWidth) / 2 && cy >= out_y0 / 2 && cy < (out_y0 + kTileHeight) / 2;
  }
};

// Step 4's G for word j of luma row r: on the mask, or mask within kChromaReach on both sides along
// the row or the column. Bits outside the frame are 0 in `luma` (the CPU's scans stop at the edge:
// the same gaps); words beyond the buffer count as 0, which only the halo word's far pixels see.
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

// A byte of a plane no thread writes during the kernel.
__device__ int load(const std::uint8_t* p) { return __ldg(p); }

// Bits of one 2x2 block's pixels (its mask, gaps or shadows): two rows as 2-bit pairs, bit 0 the left pixel.
struct BlockBits {
  std::uint32_t top, bottom;
};

// The block whose top-left pixel is bit `shift` of word j of row r of a tile plane (kWordsPerRow words a row).
__device__ BlockBits block_bits(const std::uint32_t* plane, int r, int j, int shift) {
  return {(plane[r * kWordsPerRow + j] >> shift) & 3u, (plane[(r + 1) * kWordsPerRow + j] >> shift) & 3u};
}

// Start or relearn: U_M, V_M (and V_c) set by the block's owner; the mask passes through.
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
// picture has colour). Only the owner learns.
__device__ void step_block(const ChromaFrame& f, bool colour, bool owner, int cx, int cy, BlockBits gaps,
                           BlockBits& mask, BlockBits& shadows, PairSums& sums_u, PairSums& sums_v) {
  const SigmaDeltaPlanes& luma = f.luma_model;
  const std::size_t at = std::size_t(cy) * f.model.width + cx;
  const int x = 2 * cx, y = 2 * cy;
  const bool right = x + 1 < f.width, below = y + 1 < f.height;  // the block's other pixels in the frame
  // Every read first, through the read-only cache and with no branch between them: one round trip
  // to memory (the light test's reads, which only a pixel on the mask needs, included: behind a
  // branch they were a second).
  const int u = load(chroma_sample_at(f.chroma.u, f.chroma, cx, cy));
  const int v = load(chroma_sample_at(f.chroma.v, f.chroma, cx, cy));
  const std::uint8_t* c = luma.c_in + std::ptrdiff_t(y) * luma.pitch + x;  // C as the previous frame left it
  const std::ptrdiff_t dx = right ? 1 : 0, dy = below ? luma.pitch : 0;  // the block's pixels, repeated at the edge
  const int c_max = max(max(load(c), load(c + dx)), max(load(c + dy), load(c + dy + dx)));
  const int model_u = load(f.model.u_in + at), model_v = load(f.model.v_in + at);
  const std::uint8_t* in = f.luma + std::ptrdiff_t(y) * f.luma_stride + x;
  const std::uint8_t* background = luma.m_out + std::ptrdiff_t(y) * luma.pitch + x;
  const std::ptrdiff_t in_dy = below ? f.luma_stride : 0;
  const std::uint32_t lit =  // bit k: pixel k (row-major) passes step 5's light test
      std::uint32_t(shadow_light(load(in), load(background))) |
      std::uint32_t(shadow_light(load(in + dx), load(background + dx))) << 1 |
      std::uint32_t(shadow_light(load(in + in_dy), load(background + dy))) << 2 |
      std::uint32_t(shadow_light(load(in + in_dy + dx), load(background + dy + dx))) << 3;
  std::uint8_t deviation = std::uint8_t(load(f.model.deviation_in + at));
  const bool absorbed = c_max >= f.absorb_frames;
  const int mean_u = absorbed ? u : model_u, mean_v = absorbed ? v : model_v;  // 1
  const BlockBits luma_mask = mask;
  if (chroma_changed(u, v, mean_u, mean_v, deviation)) mask.top |= gaps.top, mask.bottom |= gaps.bottom;  // 2, 4
  if (colour && shadow_colour(u, v, mean_u, mean_v))  // 5's colour and light
    shadows = {mask.top & lit, mask.bottom & lit >> 2};
  if (!owner) return;
  std::uint8_t learnt_u = std::uint8_t(mean_u), learnt_v = std::uint8_t(mean_v);  // 6
  const bool foreground = (luma_mask.top | luma_mask.bottom) != 0;  // C after the luma pass != 0
  const bool in_gap = (gaps.top | gaps.bottom) != 0;
  const bool slow_turn = luma.frame_index % kForegroundUpdatePeriod == 0;
  chroma_learn(learnt_u, learnt_v, deviation, u, v, !foreground && (!in_gap || slow_turn));
  f.model.u[at] = learnt_u, f.model.v[at] = learnt_v, f.model.deviation[at] = deviation;
  sums_u.add(unsigned(u), learnt_u);
  sums_v.add(unsigned(v), learnt_v);
}

// Row of a texture window: the 8 bytes from `p` on (byte k at bits 8k), read as the two aligned
// words that hold them. Both words lie in p's row where the row's start and stride are 4-aligned
// and p + 4 is still in the row.
__device__ std::uint64_t window_row(const std::uint8_t* p) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const auto* word = reinterpret_cast<const std::uint32_t*>(at & ~std::uintptr_t(3));
  const std::uint64_t both = std::uint64_t(__ldg(word)) | std::uint64_t(__ldg(word + 1)) << 32;
  return both >> (8 * (at & 3));
}

// Step 5's texture test of frame pixel (x, y), through the read-only cache (the windows of
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
                         std::uintptr_t(in_stride) | std::uintptr_t(mean_pitch)) & 3u) == 0;
  if (!aligned || x < r || y < r || x + r >= f.width || y + r >= f.height)
    return shadow_texture(
        x, y, f.width, f.height, [&](int px, int py) { return load(in + py * in_stride + px); },
        [&](int px, int py) { return load(mean + py * mean_pitch + px); });
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

// A warp's pixels waiting for the texture test, so that its lanes test 32 at once rather than the
// few of a word: entry = word index << 5 | bit. Every lane of the warp calls every member.
struct ShadowQueue {
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
  // Tests up to 32 queued pixels, clears the shadows from `words`, keeps the rest queued.
  __device__ void test(const ChromaFrame& f, const ColourTile& t, std::uint32_t* words) {
    const int lane = int(threadIdx.x) % 32, tested = count < 32 ? count : 32;
    if (lane < tested) {
      const int entry = entries[lane], i = entry >> 5, bit = entry & 31;
      if (textured_as_shadow(f, t.x0 + 32 * (i % kWordsPerRow) + bit, t.y0 + i / kWordsPerRow))
        atomicAnd(&words[i], ~(1u << bit));  // lanes may share a word
    }
    __syncwarp();
    const std::uint16_t rest = lane + 32 < count ? entries[lane + 32] : std::uint16_t(0);
    __syncwarp();
    if (lane + 32 < count) entries[lane] = rest;
    count -= tested;
    __syncwarp();
  }
};

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
    chroma_tiles_kernel(ChromaFrame f, TileFilters filters, const std::uint32_t* luma_mask, std::uint8_t* out,
                        std::ptrdiff_t pitch) {
  __shared__ std::uint32_t luma[kMaxLumaRows * kWordsPerRow];  // the luma pass's mask
  __shared__ std::uint32_t words[kMaxRows * kWordsPerRow];     // the mask after colour, then filtered
  __shared__ std::uint32_t scratch[kMaxRows * kWordsPerRow];   // the gaps, then the filters' row pass
  __shared__ std::uint32_t shadows[kMaxRows * kWordsPerRow];   // pixels whose shadow tests run
  __shared__ std::uint16_t shadow_queues[kThreads / 32][64];
  __shared__ WarpSlots<kThreads / 32> block_u, block_v;
  __shared__ bool colour;  // the frame's picture has colour: the shadow tests run
  wait_for_previous_kernel();  // the luma pass's mask and status
  const ChromaTurn turn = chroma_turn(f);  // the same in the whole grid
  ColourTile t;
  t.out_x0 = int(blockIdx.x) * kTileWidth, t.out_y0 = int(blockIdx.y) * kTileHeight;
  t.halo = (filters.halo() + 1) / 2 * 2;
  t.x0 = t.out_x0 - 32, t.y0 = t.out_y0 - t.halo, t.rows = kTileHeight + 2 * t.halo;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kThreads / 32;
  if (warp == 0) {  // one warp's 64-bit divisions, not every warp's
    const std::uint64_t blocks = std::uint64_t(f.model.width) * std::uint64_t(f.model.height);
    const bool has = turn == ChromaTurn::Step && frame_has_colour(*f.luma_model.status_in, blocks);
    if (lane == 0) colour = has;
  }
  // The luma mask's words, 0 outside the frame.
  const int luma_rows = t.rows + 2 * kChromaReach, luma_words_per_row = mask_words_per_row(f.width);
  for (int i = int(threadIdx.x); i < luma_rows * kWordsPerRow; i += kThreads) {
    const int r = i / kWordsPerRow, w = t.x0 / 32 + i - r * kWordsPerRow, y = t.y0 - kChromaReach + r;
    luma[i] = w >= 0 && y >= 0 && w < luma_words_per_row && y < f.height
                  ? luma_mask[std::ptrdiff_t(y) * luma_words_per_row + w]
                  : 0u;
  }
  __syncthreads();
  // The gaps; the halo words start as the luma mask, which colour adds to below.
  for (int i = int(threadIdx.x); i < t.rows * kWordsPerRow; i += kThreads) {
    const int r = i / kWordsPerRow, j = i - r * kWordsPerRow;
    if (turn == ChromaTurn::Step) scratch[i] = gap_word(luma, r + kChromaReach, j);
    if (j == 0 || j == kWordsPerRow - 1) words[i] = luma[i + kChromaReach * kWordsPerRow], shadows[i] = 0u;
  }
  __syncthreads();
  PairSums sums_u, sums_v;
  bool any_shadows = false;
  // The output words: a warp per 32 blocks of a block row, lane l has bits 2 (l % 16), +1 of word j
  // of two rows.
  for (int i = warp; i < t.rows / 2 * kInnerChunks; i += warps) {
    const int block_row = i / kInnerChunks, chunk = i - block_row * kInnerChunks;
    const int r = 2 * block_row, j = 1 + 2 * chunk + lane / 16, shift = 2 * (lane % 16);
    const int cx = t.out_x0 / 2 + 32 * chunk + lane, cy = t.y0 / 2 + block_row;
    BlockBits mask = block_bits(luma, r + kChromaReach, j, shift), maybe_shadows{0u, 0u};
    const bool in_model = cx >= 0 && cy >= 0 && cx < f.model.width && cy < f.model.height;
    if (in_model && turn == ChromaTurn::Step) {
      const BlockBits gaps = block_bits(scratch, r, j, shift);
      const bool owner = t.owns(cx, cy);
      if (owner || gaps.top | gaps.bottom)  // else a neighbour's block with nothing to fill: colour changes nothing
        step_block(f, colour, owner, cx, cy, gaps, mask, maybe_shadows, sums_u, sums_v);
    } else if (in_model && t.owns(cx, cy)) {
      start_or_relearn_block(f, turn, cx, cy, sums_u, sums_v);
    }
    std::uint32_t got[8];  // the mask's top and bottom words, then the shadows'
    ballot_block_words<4>(mask.top | mask.bottom << 2 | maybe_shadows.top << 4 | maybe_shadows.bottom << 6, got);
    if (lane == 0) {
      const int at = r * kWordsPerRow + 1 + 2 * chunk;
      const int below = at + kWordsPerRow;
      words[at] = got[0], words[at + 1] = got[1], words[below] = got[2], words[below + 1] = got[3];
      shadows[at] = got[4], shadows[at + 1] = got[5], shadows[below] = got[6], shadows[below + 1] = got[7];
    }
    any_shadows |= (got[4] | got[5] | got[6] | got[7]) != 0u;
  }
  // The halo words' blocks within the filters' reach, t.halo / 2 each side of a block row, packed
  // 32 to a warp (as 16-block chunks they left most lanes idle): colour only fills gaps there, no
  // block is owned, and each lane ors its bits in.
  const int side_blocks = t.halo / 2, halo_blocks = t.rows / 2 * 2 * side_blocks;
  if (turn == ChromaTurn::Step)
    for (int first = 32 * warp; first < halo_blocks; first += kThreads) {
      const int k = first + lane, per_row = 2 * side_blocks;
      if (k >= halo_blocks) break;
      const int block_row = k / per_row, m = k - block_row * per_row, right = m >= side_blocks;
      const int b = right ? m - side_blocks : 16 - side_blocks + m;  // the block in its word
      const int r = 2 * block_row, j = right ? kWordsPerRow - 1 : 0, shift = 2 * b;
      const int cx = t.x0 / 2 + 16 * j + b, cy = t.y0 / 2 + block_row;
      const BlockBits gaps = block_bits(scratch, r, j, shift);
      if (!(gaps.top | gaps.bottom) || cx < 0 || cy < 0 || cx >= f.model.width || cy >= f.model.height) continue;
      BlockBits mask = block_bits(luma, r + kChromaReach, j, shift), maybe_shadows{0u, 0u};
      step_block(f, colour, false, cx, cy, gaps, mask, maybe_shadows, sums_u, sums_v);
      atomicOr(&words[r * kWordsPerRow + j], mask.top << shift);
      atomicOr(&words[(r + 1) * kWordsPerRow + j], mask.bottom << shift);
      if (maybe_shadows.top | maybe_shadows.bottom) {
        atomicOr(&shadows[r * kWordsPerRow + j], maybe_shadows.top << shift);
        atomicOr(&shadows[(r + 1) * kWordsPerRow + j], maybe_shadows.bottom << shift);
        any_shadows = true;
      }
    }
  add_block_sums(sums_u, sums_v, block_u, block_v, f.luma_model.status_out);
  // Step 5's texture test, where any pixel may be a shadow: each warp reads its words (every
  // warps-th) 32 at once, a lane each, queues the pixels of those not 0 and tests them 32 at a time.
  if (__syncthreads_or(any_shadows)) {  // also: words and shadows are whole
    ShadowQueue queue{shadow_queues[warp]};
    const int all_words = t.rows * kWordsPerRow;
    for (int first = warp; first < all_words; first += 32 * warps) {
      const int mine = first + warps * lane;
      const std::uint32_t word = mine < all_words ? shadows[mine] : 0u;
      for (std::uint32_t left = __ballot_sync(0xffffffffu, word != 0u); left != 0u; left &= left - 1u) {
        const int k = __ffs(left) - 1, i = first + warps * k;
        queue.push(__shfl_sync(0xffffffffu, word, k) >> lane & 1u, std::uint16_t(i << 5 | lane));
        if (queue.count >= 32) queue.test(f, t, words);
      }
    }
    queue.test(f, t, words);
    __syncthreads();
  }
  const BitTile tile{words, scratch, kWordsPerRow, t.rows, t.x0, t.y0, f.width, f.height};
  run_tile_filters(tile, filters);
  write_tile_bytes<kTileWords, kTileHeight>(tile, t.halo, t.out_x0, t.out_y0, out, pitch);
}

}  // namespace

void queue_chroma_pass(const ChromaFrame& frame, const TileFilters& filters, const std::uint32_t* luma_mask,
                       std::uint8_t* out, std::ptrdiff_t pitch, cudaStream_t stream) {
  if (!filters.fits(kChromaMaxFilterHalo))
    throw Error(Error::Kind::InvalidArgument, "colour tile halo larger than its buffer");
  const dim3 grid((frame.width + kTileWidth - 1) / kTileWidth, (frame.height + kTileHeight - 1) / kTileHeight);
  check(launch_dependent(chroma_tiles_kernel, grid, kThreads, stream, frame, filters, luma_mask, out, pitch),
        "chroma_tiles_kernel");
}

}  // namespace ccl::cuda
