#include "foreground/foreground_tiles.cuh"

#include "foreground/tile_filters.cuh"
#include "host/cuda_check.hpp"
#include "primitives/pair_sums.cuh"

namespace ccl::cuda {
namespace {

constexpr int kWordsPerRow = kForegroundTileWords + 2;  // one halo word each side
constexpr int kMaxRows = kForegroundTileHeight + 2 * kForegroundMaxHalo;
static_assert(kForegroundTileWords % 4 == 0, "a filterless tile row is whole quads of four words");

// One lane's owned pixels of Adaptive: foreground count and light sums, kept in registers over the
// tile loop and added to the block's once (a lane sees at most 60 pixels a pixel a lane, 96 rows x
// 10 words / 16 warps, and 72 four a lane, 18 quads: far from overflowing the 32-bit sums).
struct OwnedSums {
  unsigned foreground = 0;
  PairSums light;

  __device__ void add(bool fg, unsigned in, unsigned mean) {
    foreground += fg ? 1u : 0u;
    light.add(in, mean);
  }
  __device__ void add_to(unsigned& block_foreground, WarpSlots<kForegroundThreads / 32>& block_light, int warp,
                         int lane) const {
    const unsigned f = warp_sum(foreground);
    if (lane == 0) atomicAdd(&block_foreground, f);
    block_light.put(light, warp, lane);
  }
};

// Which of a tile's words a pass computes, and for which pixels it writes the model.
struct TileWords {
  int halo;      // the filters' rows each side
  bool relearn;  // Adaptive: R > 0 this frame, with the previous frame's fit
  LightFit fit;

  // Without filters nothing reads the halo words (a fifth of the tile): only the output's.
  __device__ int first_word() const { return halo > 0 ? 0 : 1; }
  __device__ int columns() const { return halo > 0 ? kWordsPerRow : kForegroundTileWords; }  // from first_word() on
  __device__ int end_word() const { return first_word() + columns(); }

  // Only the block whose output covers a pixel updates its model.
  __device__ bool owns(int row, int j) const {
    return j >= 1 && j <= kForegroundTileWords && row >= halo && row < halo + kForegroundTileHeight;
  }
  __device__ int row_of_word(int i) const {  // constant divisors
    return halo > 0 ? i / kWordsPerRow : i / kForegroundTileWords;
  }
  __device__ int row_of_quad(int q) const {
    return halo > 0 ? q / ((kWordsPerRow + 3) / 4) : q / (kForegroundTileWords / 4);
  }
};

// The tile's words where source.quad_reads(): a warp per four words of a row, each lane four
// pixels, one 32-bit load and store a plane for four pixels. Lanes 8 w .. 8 w + 7 hold word w's
// nibbles, or-ed into lane 8 w. Two quads' reads in flight: eight words', as the pixel path's four
// words batch but with half the registers.
__device__ void quad_words(const MaskSource& source, const BitTile& tile, const TileWords& tw, OwnedSums& owned) {
  constexpr int kBatch = 2;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kForegroundThreads / 32;
  const int quads_per_row = (tw.columns() + 3) / 4;
  const int tile_quads = tile.rows * quads_per_row;
  for (int first = warp; first < tile_quads; first += kBatch * warps) {
    QuadInputs got[kBatch];
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      const int q = first + k * warps, row = tw.row_of_quad(q);
      const int j = tw.first_word() + 4 * (q - row * quads_per_row) + lane / 8;
      const int x = tile.x0 + 32 * j + 4 * (lane % 8), y = tile.y0 + row;
      if (q < tile_quads && j < tw.end_word() && x >= 0 && y >= 0 && x < source.width && y < source.height)
        got[k] = source.read_quad(x, y);
    }
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      const int q = first + k * warps, row = tw.row_of_quad(q);
      const int j = tw.first_word() + 4 * (q - row * quads_per_row) + lane / 8;
      if (q >= tile_quads) break;  // the same in the warp
      const int x = tile.x0 + 32 * j + 4 * (lane % 8), y = tile.y0 + row;
      const bool in_frame = j < tw.end_word() && x >= 0 && y >= 0 && x < source.width && y < source.height;
      const bool owner = tw.owns(row, j);
      std::uint32_t bits = 0;
      if (in_frame) {
        const QuadOutcome o = source.quad(got[k], owner, tw.relearn, tw.fit,
                                          [&](bool fg, unsigned in, unsigned m) { owned.add(fg, in, m); });
        if (owner) source.write_quad(x, y, o);
        bits = o.bits << (4 * (lane % 8));
      }
      bits |= __shfl_xor_sync(0xffffffffu, bits, 1);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 2);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 4);
      if (lane % 8 == 0 && j < tw.end_word()) tile.words[row * kWordsPerRow + j] = bits;
    }
  }
}

// The tile's words otherwise: a warp per word, each lane one pixel, the ballot is the word. kBatch
// words' reads are issued before any is used, so their round trips to memory overlap.
__device__ void pixel_words(const MaskSource& source, const BitTile& tile, const TileWords& tw, OwnedSums& owned) {
  constexpr int kBatch = 4;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kForegroundThreads / 32;
  const bool adaptive = source.kind == MaskSourceKind::Adaptive;
  const int tile_words = tile.rows * tw.columns();
  for (int first = warp; first < tile_words; first += kBatch * warps) {
    PixelInputs got[kBatch];
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      const int i = first + k * warps, row = tw.row_of_word(i), j = tw.first_word() + i - row * tw.columns();
      const int x = tile.x0 + 32 * j + lane, y = tile.y0 + row;
      if (i < tile_words && x >= 0 && y >= 0 && x < source.width && y < source.height) got[k] = source.read(x, y);
    }
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
      const int i = first + k * warps, row = tw.row_of_word(i), j = tw.first_word() + i - row * tw.columns();
      if (i >= tile_words) break;  // the same in the warp
      const int x = tile.x0 + 32 * j + lane, y = tile.y0 + row;
      const bool in_frame = x >= 0 && y >= 0 && x < source.width && y < source.height;
      const bool owner = tw.owns(row, j);
      bool bit = false;
      if (in_frame) {
        const PixelOutcome p = source.pixel(x, y, owner, tw.relearn, tw.fit, got[k]);
        bit = p.foreground;
        if (adaptive && owner) owned.add(p.foreground, got[k].in, p.m);
      }
      const std::uint32_t word = __ballot_sync(0xffffffffu, bit);
      if (lane == 0) tile.words[row * kWordsPerRow + j] = word;
    }
  }
}

// The tile's words from a BitPlane source, a thread per word (0 outside the frame; the source's
// pixels beyond the width are 0).
__device__ void plane_words(const MaskSource& source, const BitTile& tile) {
  const int words_per_row = mask_words_per_row(source.width);
  for (int i = int(threadIdx.x); i < tile.rows * kWordsPerRow; i += kForegroundThreads) {
    const int row = i / kWordsPerRow, w = tile.x0 / 32 + i - row * kWordsPerRow, y = tile.y0 + row;
    std::uint32_t word = 0;
    if (w >= 0 && w < words_per_row && y >= 0 && y < source.height)
      word = __ldg(reinterpret_cast<const std::uint32_t*>(source.data + std::ptrdiff_t(y) * source.stride) + w);
    tile.words[i] = word;
  }
}

// Two blocks an SM (64 registers): the batched reads above measured faster than four blocks of
// single reads (BENCHMARKS.md, 2026-11-27).
__global__ void __launch_bounds__(kForegroundThreads, 2)
    foreground_tiles_kernel(MaskSource source, TileFilters filters, std::uint8_t* out, std::ptrdiff_t out_pitch,
                            std::uint32_t* out_bits, int out_words_per_row) {
  __shared__ std::uint32_t words[kMaxRows * kWordsPerRow];
  __shared__ std::uint32_t scratch[kMaxRows * kWordsPerRow];
  __shared__ unsigned int block_foreground;                   // Adaptive: this block's owned foreground pixels
  __shared__ WarpSlots<kForegroundThreads / 32> block_light;  // Adaptive: ... and their light sums
  const int halo = filters.halo();
  const bool adaptive = source.kind == MaskSourceKind::Adaptive;
  const std::uint64_t pixels = std::uint64_t(source.width) * std::uint64_t(source.height);
  const int relearn_frames = source.relearn_frames(pixels);
  const bool relearn = relearn_frames > 0;
  if (threadIdx.x == 0) {
    block_foreground = 0;
    if (adaptive && blockIdx.x == 0 && blockIdx.y == 0) *source.model.status_next = AdaptiveStatus{};
  }
  __syncthreads();
  const int out_x0 = int(blockIdx.x) * kForegroundTileWidth, out_y0 = int(blockIdx.y) * kForegroundTileHeight;
  const BitTile tile{words,       scratch,       kWordsPerRow, kForegroundTileHeight + 2 * halo,
                     out_x0 - 32, out_y0 - halo, source.width, source.height};
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const TileWords tw{halo, relearn, adaptive && relearn ? source.light_fit(pixels) : LightFit{}};
  OwnedSums owned;
  if (source.kind == MaskSourceKind::BitPlane)
    plane_words(source, tile);
  else if (source.quad_reads())
    quad_words(source, tile, tw, owned);
  else
    pixel_words(source, tile, tw, owned);
  if (adaptive) owned.add_to(block_foreground, block_light, warp, lane);
  __syncthreads();
  if (adaptive && threadIdx.x == 0) {
    AdaptiveStatus* status = source.model.status_out;
    if (block_foreground != 0u) atomicAdd(&status->foreground, block_foreground);
    add_light(status->light, block_light.total());
    if (blockIdx.x == 0 && blockIdx.y == 0) status->relearn = relearn_frames;
  }
  run_tile_filters(tile, filters);
  if (out_bits)
    write_tile_words(tile, halo, out_x0, out_y0, out_bits, out_words_per_row);
  else
    write_tile_bytes(tile, halo, out_x0, out_y0, out, out_pitch);
}

dim3 tile_grid(const MaskSource& source) {
  return dim3((source.width + kForegroundTileWidth - 1) / kForegroundTileWidth,
              (source.height + kForegroundTileHeight - 1) / kForegroundTileHeight);
}

}  // namespace

void queue_foreground_tiles(const MaskSource& source, const TileFilters& filters, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream) {
  if (!filters.fits(kForegroundMaxHalo))
    throw Error(Error::Kind::InvalidArgument, "foreground tile halo larger than its buffer");
  foreground_tiles_kernel<<<tile_grid(source), kForegroundThreads, 0, stream>>>(source, filters, out, out_pitch,
                                                                                nullptr, 0);
  check_launch("foreground_tiles_kernel");
}

void queue_foreground_tile_bits(const MaskSource& source, std::uint32_t* out, cudaStream_t stream) {
  foreground_tiles_kernel<<<tile_grid(source), kForegroundThreads, 0, stream>>>(source, TileFilters{}, nullptr, 0, out,
                                                                                mask_words_per_row(source.width));
  check_launch("foreground_tiles_kernel");
}

}  // namespace ccl::cuda
