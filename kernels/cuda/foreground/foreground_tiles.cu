#include "foreground/foreground_tiles.cuh"

#include "foreground/square_filter_shared.cuh"
#include "host/cuda_check.hpp"

namespace ccl::cuda {
namespace {

__global__ void __launch_bounds__(kForegroundThreads)
    foreground_tiles_kernel(MaskSource source, int open_radius, int close_radius, std::uint8_t* out,
                            std::ptrdiff_t out_pitch) {
  __shared__ std::uint8_t cells[kForegroundBufferSide * kForegroundBufferSide];
  __shared__ std::uint8_t scratch[kForegroundBufferSide * kForegroundBufferSide];
  const int halo = 2 * (open_radius + close_radius);
  const int side = kForegroundTile + 2 * halo;
  const SharedTile tile{cells,
                        scratch,
                        side,
                        side,
                        int(blockIdx.x) * kForegroundTile - halo,
                        int(blockIdx.y) * kForegroundTile - halo,
                        source.width,
                        source.height};
  const int n = side * side;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int c = i % side, r = i / side;
    const int x = tile.x0 + c, y = tile.y0 + r;
    const bool in_frame = x >= 0 && y >= 0 && x < source.width && y < source.height;
    // The interior is this block's own tile: only there does a motion source update the model.
    const bool owner = c >= halo && r >= halo && c < halo + kForegroundTile && r < halo + kForegroundTile;
    cells[i] = in_frame ? source.bit(x, y, owner) : 0;  // outside the frame: never read
  }
  __syncthreads();
  // Opening (erode, dilate) then closing (dilate, erode); each filter works inside the last one's margin.
  const int radii[4] = {open_radius, open_radius, close_radius, close_radius};
  const bool erodes[4] = {true, false, false, true};
  int margin = 0;
  for (int f = 0; f < 4; ++f) {
    if (radii[f] == 0) continue;
    square_filter_shared(tile, margin, radii[f], erodes[f]);
    margin += radii[f];
  }
  for (int i = threadIdx.x; i < kForegroundTile * kForegroundTile; i += blockDim.x) {
    const int c = i % kForegroundTile, r = i / kForegroundTile;
    const int x = tile.x0 + halo + c, y = tile.y0 + halo + r;
    if (x < source.width && y < source.height)
      out[std::ptrdiff_t(y) * out_pitch + x] = cells[(r + halo) * side + c + halo];
  }
}

}  // namespace

void queue_foreground_tiles(const MaskSource& source, int open_radius, int close_radius, std::uint8_t* out,
                            std::ptrdiff_t out_pitch, cudaStream_t stream) {
  if (open_radius < 0 || close_radius < 0 || 2 * (open_radius + close_radius) > kForegroundMaxHalo)
    throw Error(Error::Kind::InvalidArgument, "foreground tile halo larger than its buffer");
  const dim3 grid((source.width + kForegroundTile - 1) / kForegroundTile,
                  (source.height + kForegroundTile - 1) / kForegroundTile);
  foreground_tiles_kernel<<<grid, kForegroundThreads, 0, stream>>>(source, open_radius, close_radius, out, out_pitch);
  check_launch("foreground_tiles_kernel");
}

}  // namespace ccl::cuda
