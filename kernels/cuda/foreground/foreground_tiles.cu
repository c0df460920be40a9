#include "foreground/foreground_tiles.cuh"

#include "foreground/square_filter_bits.cuh"
#include "host/cuda_check.hpp"
#include "primitives/pair_sums.cuh"

namespace ccl::cuda {
namespace {

constexpr int kWordsPerRow = kForegroundTileWords + 2;  // one halo word each side
constexpr int kMaxRows = kForegroundTileHeight + 2 * kForegroundMaxHalo;

// One lane's owned pixels of Adaptive: foreground count and light sums, kept in registers over the
// tile loop and added to the block's once (a lane sees at most 92 * 10 / 16 pixels).
struct OwnedSums {
  unsigned foreground = 0;
  PairSums light;

  __device__ void add(bool fg, unsigned in, unsigned mean) {
    foreground += fg ? 1u : 0u;
    light.add(in, mean);
  }
  __device__ void add_to(unsigned& block_foreground, LightSums& block_light, int lane) const {
    const unsigned f = warp_sum(foreground);
    if (lane == 0) atomicAdd(&block_foreground, f);
    light.add_warp_to(block_light, lane);
  }
};

__global__ void __launch_bounds__(kForegroundThreads)
    foreground_tiles_kernel(MaskSource source, TileFilters filters, std::uint8_t* out, std::ptrdiff_t out_pitch) {
  __shared__ std::uint32_t words[kMaxRows * kWordsPerRow];
  __shared__ std::uint32_t scratch[kMaxRows * kWordsPerRow];
  __shared__ unsigned int block_foreground;  // Adaptive: this block's owned foreground pixels
  __shared__ LightSums block_light;          // Adaptive: ... and their light sums
  const int halo = filters.halo();
  const bool adaptive = source.kind == MaskSourceKind::Adaptive;
  const std::uint64_t pixels = std::uint64_t(source.width) * std::uint64_t(source.height);
  const int relearn_frames = source.relearn_frames(pixels);
  const bool relearn = relearn_frames > 0;
  const LightFit fit = adaptive && relearn ? source.light_fit(pixels) : LightFit{};
  if (threadIdx.x == 0) {
    block_foreground = 0;
    block_light = LightSums{};
    if (adaptive && blockIdx.x == 0 && blockIdx.y == 0) *source.model.status_next = AdaptiveStatus{};
  }
  __syncthreads();
  const int out_x0 = int(blockIdx.x) * kForegroundTileWidth, out_y0 = int(blockIdx.y) * kForegroundTileHeight;
  const BitTile tile{words,         scratch,      kWordsPerRow, kForegroundTileHeight + 2 * halo,
                     out_x0 - 32,   out_y0 - halo, source.width, source.height};
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kForegroundThreads / 32;
  OwnedSums owned;
  // A warp per word: each lane one pixel, the ballot is the word.
  for (int i = warp; i < tile.rows * kWordsPerRow; i += warps) {
    const int row = i / kWordsPerRow, j = i - row * kWordsPerRow;
    const int x = tile.x0 + 32 * j + lane, y = tile.y0 + row;
    const bool in_frame = x >= 0 && y >= 0 && x < source.width && y < source.height;
    // Only the block whose output covers the pixel updates its model; halo copies just read.
    const bool owner = j >= 1 && j <= kForegroundTileWords && row >= halo && row < halo + kForegroundTileHeight;
    bool bit = false;
    if (adaptive) {
      if (in_frame) {
        const AdaptiveOutcome p = source.adaptive(x, y, owner, relearn, fit);
        bit = p.foreground;
        if (owner) owned.add(p.foreground, p.in, p.m);
      }
    } else {
      bit = in_frame && source.bit(x, y, owner);
    }
    const std::uint32_t word = __ballot_sync(0xffffffffu, bit);
    if (lane == 0) words[i] = word;
  }
  if (adaptive) owned.add_to(block_foreground, block_light, lane);
  __syncthreads();
  if (adaptive && threadIdx.x == 0) {
    AdaptiveStatus* status = source.model.status_out;
    if (block_foreground != 0u) atomicAdd(&status->foreground, block_foreground);
    add_light(status->light, block_light);
    if (blockIdx.x == 0 && blockIdx.y == 0) status->relearn = relearn_frames;
  }
  // Opening (erode, dilate), closing (dilate, erode), shrink (erode); neighbours of one kind as one
  // filter of the summed radius (exact for squares clipped to the frame): open 1, close 2, shrink 1
  // is erode 1, dilate 3, erode 3.
  const int radii[5] = {filters.open_radius, filters.open_radius, filters.close_radius, filters.close_radius,
                        filters.shrink_radius};
  const bool erodes[5] = {true, false, false, true, true};
  int pending = 0;
  bool pending_erodes = false;
  for (int f = 0; f < 5; ++f) {
    if (radii[f] == 0) continue;
    if (pending > 0 && erodes[f] != pending_erodes) {
      square_filter_bits(tile, pending, pending_erodes);
      pending = 0;
    }
    pending += radii[f];
    pending_erodes = erodes[f];
  }
  if (pending > 0) square_filter_bits(tile, pending, pending_erodes);
  // The interior as bytes: a warp per word, a lane per pixel (32 consecutive bytes per store).
  for (int i = warp; i < kForegroundTileHeight * kForegroundTileWords; i += warps) {
    const int r = i / kForegroundTileWords, j = i - r * kForegroundTileWords;
    const int x = out_x0 + 32 * j + lane, y = out_y0 + r;
    if (x < source.width && y < source.height)
      out[std::ptrdiff_t(y) * out_pitch + x] = std::uint8_t((words[(r + halo) * kWordsPerRow + j + 1] >> lane) & 1u);
  }
}

}  // namespace

void queue_foreground_tiles(const MaskSource& source, const TileFilters& filters, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream) {
  if (filters.open_radius < 0 || filters.close_radius < 0 || filters.shrink_radius < 0 ||
      filters.halo() > kForegroundMaxHalo)
    throw Error(Error::Kind::InvalidArgument, "foreground tile halo larger than its buffer");
  const dim3 grid((source.width + kForegroundTileWidth - 1) / kForegroundTileWidth,
                  (source.height + kForegroundTileHeight - 1) / kForegroundTileHeight);
  foreground_tiles_kernel<<<grid, kForegroundThreads, 0, stream>>>(source, filters, out, out_pitch);
  check_launch("foreground_tiles_kernel");
}

}  // namespace ccl::cuda
