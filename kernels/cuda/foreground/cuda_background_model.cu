#include "foreground/cuda_background_model.cuh"

#include <memory>
#include <string>

#include "ccl/cuda_analyzer.hpp"
#include "host/cuda_check.hpp"
#include "host/scratch.cuh"

namespace ccl {

std::shared_ptr<BackgroundModel> make_cuda_background_model() { return std::make_shared<cuda::CudaBackgroundModel>(); }

}  // namespace ccl

namespace ccl::cuda {

CudaBackgroundModel::~CudaBackgroundModel() {
  if (updated_) {
    cudaEventSynchronize(updated_);  // no update may still write the planes freed below
    cudaEventDestroy(updated_);
  }
  if (planes_) cudaFree(planes_);
  (void)cudaGetLastError();
}

SigmaDeltaPlanes CudaBackgroundModel::begin_update(int width, int height, cudaStream_t stream) {
  if (!updated_)
    check(cudaEventCreateWithFlags(&updated_, cudaEventDisableTiming), "cudaEventCreate (background model)");
  if (recorded_) check(cudaStreamWaitEvent(stream, updated_, 0), "cudaStreamWaitEvent (background model)");
  if (width != width_ || height != height_) {
    const std::size_t plane = (std::size_t(width) * height + 255) / 256 * 256;
    if (4 * plane > bytes_) {
      if (recorded_) check(cudaEventSynchronize(updated_), "cudaEventSynchronize (background model)");
      void* grown = device_alloc(
          4 * plane, "the background model of a " + std::to_string(width) + "x" + std::to_string(height) + " frame");
      if (planes_) cudaFree(planes_);
      planes_ = static_cast<std::uint8_t*>(grown);
      bytes_ = 4 * plane;
    }
    plane_bytes_ = plane;
    width_ = width;
    height_ = height;
    reset_pending_ = true;  // a frame of another size starts the model afresh
    frames_seen_ = 0;
  }
  const int read = written_, write = 1 - written_;
  SigmaDeltaPlanes p;
  p.m_in = planes_ + std::size_t(2 * read) * plane_bytes_;
  p.v_in = p.m_in + plane_bytes_;
  p.m_out = planes_ + std::size_t(2 * write) * plane_bytes_;
  p.v_out = p.m_out + plane_bytes_;
  p.pitch = width;
  p.first = reset_pending_;
  return p;
}

void CudaBackgroundModel::end_update(cudaStream_t stream) {
  check(cudaEventRecord(updated_, stream), "cudaEventRecord (background model)");
  recorded_ = true;
  written_ = 1 - written_;
  reset_pending_ = false;
  ++frames_seen_;
}

}  // namespace ccl::cuda
