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
namespace {

std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

std::size_t CudaBackgroundModel::status_bytes() { return round_up_256(kStatusSlots * sizeof(AdaptiveStatus)); }

CudaBackgroundModel::~CudaBackgroundModel() {
  if (updated_) {
    cudaEventSynchronize(updated_);  // no update may still write the planes freed below
    cudaEventDestroy(updated_);
  }
  if (planes_) cudaFree(planes_);
  (void)cudaGetLastError();
}

SigmaDeltaPlanes CudaBackgroundModel::begin_update(int width, int height, Foreground mode, cudaStream_t stream) {
  if (!updated_)
    check(cudaEventCreateWithFlags(&updated_, cudaEventDisableTiming), "cudaEventCreate (background model)");
  if (recorded_) check(cudaStreamWaitEvent(stream, updated_, 0), "cudaStreamWaitEvent (background model)");
  if (width != width_ || height != height_) {
    const std::size_t plane = round_up_256(std::size_t(width) * height);
    const std::size_t chroma_plane = round_up_256(std::size_t((width + 1) / 2) * ((height + 1) / 2));
    const std::size_t needed = 6 * plane + status_bytes() + 2 * kChromaPlanes * chroma_plane;
    if (needed > bytes_) {
      if (recorded_) check(cudaEventSynchronize(updated_), "cudaEventSynchronize (background model)");
      void* grown = device_alloc(
          needed, "the background model of a " + std::to_string(width) + "x" + std::to_string(height) + " frame");
      if (planes_) cudaFree(planes_);
      planes_ = static_cast<std::uint8_t*>(grown);
      bytes_ = needed;
    }
    plane_bytes_ = plane;
    chroma_plane_bytes_ = chroma_plane;
    width_ = width;
    height_ = height;
    reset_pending_ = true;  // a frame of another size starts the model afresh
    frames_seen_ = 0;
  }
  if (mode != mode_) {
    mode_ = mode;
    reset_pending_ = true;
    frames_seen_ = 0;
  }
  const int read = written_, write = 1 - written_;
  SigmaDeltaPlanes p;
  p.m_in = planes_ + std::size_t(3 * read) * plane_bytes_;
  p.v_in = p.m_in + plane_bytes_;
  p.c_in = p.v_in + plane_bytes_;
  p.m_out = planes_ + std::size_t(3 * write) * plane_bytes_;
  p.v_out = p.m_out + plane_bytes_;
  p.c_out = p.v_out + plane_bytes_;
  p.pitch = width;
  p.first = reset_pending_;
  p.frame_index = frames_seen_;
  // Frame n writes slot n % 3 (zeroed by frame n - 1's kernel), reads n - 1's, zeroes n + 1's:
  // no memset on the stream per frame, only at a reset.
  auto* status = reinterpret_cast<AdaptiveStatus*>(planes_ + 6 * plane_bytes_);  // 256-byte aligned
  const std::uint64_t n = frames_seen_;
  p.status_in = status + (n + kStatusSlots - 1) % kStatusSlots;
  p.status_out = status + n % kStatusSlots;
  p.status_next = status + (n + 1) % kStatusSlots;
  if (reset_pending_)
    check(cudaMemsetAsync(status, 0, kStatusSlots * sizeof(AdaptiveStatus), stream),
          "cudaMemsetAsync (background model)");
  return p;
}

ChromaModelPlanes CudaBackgroundModel::chroma_update(bool present) {
  ChromaModelPlanes c;
  if (!present) {
    chroma_live_ = chroma_pending_ = false;
    return c;
  }
  std::uint8_t* base = planes_ + 6 * plane_bytes_ + status_bytes();
  std::uint8_t* read = base + std::size_t(kChromaPlanes * written_) * chroma_plane_bytes_;
  std::uint8_t* write = base + std::size_t(kChromaPlanes * (1 - written_)) * chroma_plane_bytes_;
  c.u_in = read, c.v_in = read + chroma_plane_bytes_, c.deviation_in = read + 2 * chroma_plane_bytes_;
  c.u = write, c.v = write + chroma_plane_bytes_, c.deviation = write + 2 * chroma_plane_bytes_;
  c.width = (width_ + 1) / 2;
  c.height = (height_ + 1) / 2;
  c.start = reset_pending_ || !chroma_live_;
  chroma_pending_ = true;
  return c;
}

void CudaBackgroundModel::end_update(cudaStream_t stream) {
  check(cudaEventRecord(updated_, stream), "cudaEventRecord (background model)");
  recorded_ = true;
  chroma_live_ = chroma_pending_;  // a frame of another mode (no chroma pass) drops the planes
  chroma_pending_ = false;
  written_ = 1 - written_;
  reset_pending_ = false;
  ++frames_seen_;
}

}  // namespace ccl::cuda
