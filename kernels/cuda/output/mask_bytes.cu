#include "output/mask_bytes.cuh"

#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"

namespace ccl::cuda {
namespace {

constexpr int kMaskBytesWidth = 64, kMaskBytesRows = 4;  // a block: 64 pixels of 4 rows

__global__ void __launch_bounds__(kMaskBytesWidth* kMaskBytesRows) MaskBytesKernel(DeviceMask mask, MaskView out) {
  const int x = int(blockIdx.x) * kMaskBytesWidth + int(threadIdx.x);
  const int y = int(blockIdx.y) * kMaskBytesRows + int(threadIdx.y);
  if (x >= mask.width || y >= mask.height) return;
  out.data[std::ptrdiff_t(y) * out.stride + x] = mask.foreground(x, y) ? kMaskForeground : kMaskBackground;
}

}  // namespace

void write_mask_bytes(const DeviceMask& mask, const MaskView& out, cudaStream_t stream, StageTimer* timer) {
  const dim3 block(kMaskBytesWidth, kMaskBytesRows);
  const dim3 grid((mask.width + kMaskBytesWidth - 1) / kMaskBytesWidth,
                  (mask.height + kMaskBytesRows - 1) / kMaskBytesRows);
  MaskBytesKernel<<<grid, block, 0, stream>>>(mask, out);
  check_launch("MaskBytesKernel");
  mark(timer, "MaskBytesKernel", stream);
}

}  // namespace ccl::cuda
