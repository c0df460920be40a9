#include "foreground/cuda_background_model.cuh"

#include <memory>
#include <string>

#include "ccl/cuda_analyzer.hpp"
#include "host/cuda_check.hpp"
#include "host/scratch.cuh"

namespace ccl {

std::shared_ptr<BackgroundModel> make_cuda_background_model() { return std::make_shared<cuda::CudaBackgroundModel>(); }

void delay_colour_passes(BackgroundModel& model, unsigned microseconds) {
  auto* cuda = dynamic_cast<cuda::CudaBackgroundModel*>(&model);
  if (!cuda) throw Error(Error::Kind::InvalidArgument, "delay_colour_passes: not a CUDA background model");
  cuda->delay_colour_passes(microseconds);
}

}  // namespace ccl

namespace ccl::cuda {
namespace {

std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// One thread that sleeps about `microseconds` (__nanosleep's own length is approximate).
__global__ void sleep_kernel(unsigned microseconds) {
  for (unsigned i = 0; i < microseconds; ++i) __nanosleep(1000);
}

}  // namespace

std::size_t CudaBackgroundModel::status_bytes() { return round_up_256(kStatusSlots * sizeof(AdaptiveStatus)); }

CudaBackgroundModel::~CudaBackgroundModel() {
  for (cudaEvent_t e : {updated_, coloured_[0], coloured_[1]})
    if (e) {
      cudaEventSynchronize(e);  // no update or colour pass may still use the planes freed below
      cudaEventDestroy(e);
    }
  if (planes_) cudaFree(planes_);
  (void)cudaGetLastError();
}

void CudaBackgroundModel::synchronize_all() {
  if (recorded_) check(cudaEventSynchronize(updated_), "cudaEventSynchronize (background model)");
  for (int k = 0; k < 2; ++k)
    if (coloured_recorded_[k]) check(cudaEventSynchronize(coloured_[k]), "cudaEventSynchronize (colour pass)");
}

void CudaBackgroundModel::wait_colour(int slot, cudaStream_t stream) {
  if (coloured_recorded_[slot])
    check(cudaStreamWaitEvent(stream, coloured_[slot], 0), "cudaStreamWaitEvent (colour pass)");
}

SigmaDeltaPlanes CudaBackgroundModel::begin_update(int width, int height, Foreground mode, cudaStream_t stream) {
  if (!updated_)
    check(cudaEventCreateWithFlags(&updated_, cudaEventDisableTiming), "cudaEventCreate (background model)");
  if (recorded_) check(cudaStreamWaitEvent(stream, updated_, 0), "cudaStreamWaitEvent (background model)");
  if (width != width_ || height != height_) {
    const std::size_t plane = round_up_256(std::size_t(width) * height);
    const std::size_t chroma_plane = round_up_256(std::size_t((width + 1) / 2) * ((height + 1) / 2));
    const std::size_t needed = (4 + kCountPlanes) * plane + status_bytes() + 2 * kChromaPlanes * chroma_plane;
    if (needed > bytes_) {
      synchronize_all();
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
  // Frame n - 2's colour pass read the M, C and status copies this update writes; n - 1's reads none.
  // After a reset the copies' numbering starts again: every earlier colour pass first.
  if (reset_pending_) wait_colour(1 - int(frames_seen_ % 2), stream);
  wait_colour(int(frames_seen_ % 2), stream);
  const int read = written_, write = 1 - written_;
  SigmaDeltaPlanes p;
  const std::uint64_t n = frames_seen_;
  p.m_in = planes_ + std::size_t(2 * read) * plane_bytes_;
  p.v_in = p.m_in + plane_bytes_;
  p.m_out = planes_ + std::size_t(2 * write) * plane_bytes_;
  p.v_out = p.m_out + plane_bytes_;
  p.c_in = planes_ + std::size_t(4 + n % kCountPlanes) * plane_bytes_;
  p.c_out = planes_ + std::size_t(4 + (n + 1) % kCountPlanes) * plane_bytes_;
  p.pitch = width;
  p.first = reset_pending_;
  p.frame_index = n;
  // Frame n writes slot n % 4 (zeroed by frame n - 1's kernel), reads n - 1's, zeroes n + 1's:
  // no memset on the stream per frame, only at a reset.
  auto* status = reinterpret_cast<AdaptiveStatus*>(planes_ + (4 + kCountPlanes) * plane_bytes_);  // 256-aligned
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
  std::uint8_t* base = planes_ + (4 + kCountPlanes) * plane_bytes_ + status_bytes();
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

// The colour pass of frame n = frames_seen_ - 1 (its end_update() came last); n - 1's is in the other slot.
void CudaBackgroundModel::begin_colour(cudaStream_t stream) {
  wait_colour(int(frames_seen_ % 2), stream);
  if (colour_delay_us_ == 0) return;
  sleep_kernel<<<1, 1, 0, stream>>>(colour_delay_us_);
  check_launch("sleep_kernel");
}

void CudaBackgroundModel::end_colour(cudaStream_t stream) {
  const int slot = int((frames_seen_ - 1) % 2);
  if (!coloured_[slot])
    check(cudaEventCreateWithFlags(&coloured_[slot], cudaEventDisableTiming), "cudaEventCreate (colour pass)");
  check(cudaEventRecord(coloured_[slot], stream), "cudaEventRecord (colour pass)");
  coloured_recorded_[slot] = true;
}

}  // namespace ccl::cuda
