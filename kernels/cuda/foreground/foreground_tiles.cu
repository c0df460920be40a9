#include "foreground/foreground_tiles.cuh"

#include "foreground/square_filter_bits.cuh"
#include "host/cuda_check.hpp"

namespace ccl::cuda {
namespace {

constexpr int kWordsPerRow = kForegroundTileWords + 2;  // one halo word each side
constexpr int kMaxRows = kForegroundTileHeight + 2 * kForegroundMaxHalo;

__global__ void __launch_bounds__(kForegroundThreads)
    foreground_tiles_kernel(MaskSource source, int open_radius, int close_radius, std::uint8_t* out,
                            std::ptrdiff_t out_pitch) {
  __shared__ std::uint32_t words[kMaxRows * kWordsPerRow];
  __shared__ std::uint32_t scratch[kMaxRows * kWordsPerRow];
  const int halo = 2 * (open_radius + close_radius);
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
    const bool bit = in_frame && source.bit(x, y, owner);
    const std::uint32_t word = __ballot_sync(0xffffffffu, bit);
    if (lane == 0) words[i] = word;
  }
  __syncthreads();
  // Opening (erode, dilate) then closing (dilate, erode).
  const int radii[4] = {open_radius, open_radius, close_radius, close_radius};
  const bool erodes[4] = {true, false, false, true};
  for (int f = 0; f < 4; ++f)
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

void queue_foreground_tiles(const MaskSource& source, int open_radius, int close_radius, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream) {
  if (open_radius < 0 || close_radius < 0 || 2 * (open_radius + close_radius) > kForegroundMaxHalo)
    throw Error(Error::Kind::InvalidArgument, "foreground tile halo larger than its buffer");
  const dim3 grid((source.width + kForegroundTileWidth - 1) / kForegroundTileWidth,
                  (source.height + kForegroundTileHeight - 1) / kForegroundTileHeight);
  foreground_tiles_kernel<<<grid, kForegroundThreads, 0, stream>>>(source, open_radius, close_radius, out, out_pitch);
  check_launch("foreground_tiles_kernel");
}

}  // namespace ccl::cuda
