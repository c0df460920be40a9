#include "foreground/foreground_tiles.cuh"

#include "foreground/square_filter_bits.cuh"
#include "host/cuda_check.hpp"

namespace ccl::cuda {
namespace {

constexpr int kWordsPerRow = kForegroundTileWords + 2;  // one halo word each side
constexpr int kMaxRows = kForegroundTileHeight + 2 * kForegroundMaxHalo;

__global__ void __launch_bounds__(kForegroundThreads)
    foreground_tiles_kernel(MaskSource source, TileFilters filters, std::uint8_t* out, std::ptrdiff_t out_pitch) {
  __shared__ std::uint32_t words[kMaxRows * kWordsPerRow];
  __shared__ std::uint32_t scratch[kMaxRows * kWordsPerRow];
  __shared__ unsigned int block_foreground;  // Adaptive: this block's owned foreground pixels
  const int halo = filters.halo();
  const int relearn_frames = source.relearn_frames(std::uint64_t(source.width) * std::uint64_t(source.height));
  const bool relearn = relearn_frames > 0;
  if (threadIdx.x == 0) block_foreground = 0;
  __syncthreads();
  const int out_x0 = int(blockIdx.x) * kForegroundTileWidth, out_y0 = int(blockIdx.y) * kForegroundTileHeight;
  const BitTile tile{words,         scratch,      kWordsPerRow, kForegroundTileHeight + 2 * halo,
                     out_x0 - 32,   out_y0 - halo, source.width, source.height};
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32, warps = kForegroundThreads / 32;
  // A warp per word: each lane one pixel, the ballot is the word.
  for (int i = warp; i < tile.rows * kWordsPerRow; i += warps) {
    const int row = i / kWordsPerRow, j = i - row * kWordsPerRow;
    const int x = tile.x0 + 32 * j + lane, y = tile.y0 + row;
    const bool in_frame = x >= 0 && y >= 0 && x < source.width && y < source.height;
    // Only the block whose output covers the pixel updates its model; halo copies just read.
    const bool owner = j >= 1 && j <= kForegroundTileWords && row >= halo && row < halo + kForegroundTileHeight;
    const bool bit = in_frame && source.bit(x, y, owner, relearn);
    const std::uint32_t word = __ballot_sync(0xffffffffu, bit);
    if (lane == 0) {
      words[i] = word;
      if (source.kind == MaskSourceKind::Adaptive && owner && word != 0u) atomicAdd(&block_foreground, unsigned(__popc(word)));
    }
  }
  __syncthreads();
  if (source.kind == MaskSourceKind::Adaptive && threadIdx.x == 0) {
    if (block_foreground != 0u) atomicAdd(&source.model.status_out->foreground, block_foreground);
    if (blockIdx.x == 0 && blockIdx.y == 0) source.model.status_out->relearn = relearn_frames;
  }
  // Opening (erode, dilate), closing (dilate, erode), shrink (erode).
  const int radii[5] = {filters.open_radius, filters.open_radius, filters.close_radius, filters.close_radius,
                        filters.shrink_radius};
  const bool erodes[5] = {true, false, false, true, true};
  for (int f = 0; f < 5; ++f)
    if (radii[f] > 0) square_filter_bits(tile, radii[f], erodes[f]);
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
