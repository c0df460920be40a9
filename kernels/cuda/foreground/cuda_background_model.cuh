// The CUDA BackgroundModel: the planes M and V (and Adaptive's C) in device memory, twice (the
// previous frame's, read, and this frame's, written), with Adaptive's per-frame status thrice and
// Options::chroma's planes (U_M, V_M, V_c) twice the same way, in one allocation sized on the
// first frame and reused.
// Updates are ordered through one event, so analyzers on different streams that submit in frame
// order update in frame order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/foreground.hpp"
#include "foreground/chroma_pass.cuh"
#include "foreground/mask_source.cuh"

namespace ccl::cuda {

class CudaBackgroundModel final : public BackgroundModel {
 public:
  CudaBackgroundModel() = default;
  ~CudaBackgroundModel() override;  // the CUDA context of the updates must be current
  CudaBackgroundModel(const CudaBackgroundModel&) = delete;
  CudaBackgroundModel& operator=(const CudaBackgroundModel&) = delete;

  const char* backend_name() const override { return "cuda"; }
  void reset() override {
    reset_pending_ = true;
    frames_seen_ = 0;
  }
  std::uint64_t frames_seen() const override { return frames_seen_; }

  // Makes `stream` wait for the previous update (on whichever stream it ran), sizes the planes for
  // a width x height frame (another size reallocates if needed and resets; so does a frame of the
  // other model mode, Motion or Adaptive, whose planes differ), and returns the planes
  // this update reads and writes (and, after a reset, zeroes Adaptive's status on `stream`). Throws
  // Error(OutOfMemory) naming the size, Error(DeviceFailure).
  SigmaDeltaPlanes begin_update(int width, int height, Foreground mode, cudaStream_t stream);
  // Once the update's kernel is queued on `stream`: the next update waits for it and reads its planes.
  void end_update(cudaStream_t stream);
  // Between the two, for Adaptive: Options::chroma's planes, or none where the frame has no chroma
  // (`present` false), which drops them: the next frame with chroma starts them afresh, as does the
  // first after a reset.
  ChromaModelPlanes chroma_update(bool present);
  std::size_t device_bytes() const { return bytes_; }

 private:
  static constexpr int kStatusSlots = 3;  // the previous frame's status, this frame's, the next one's
  static std::size_t status_bytes();      // the slots, rounded up so the chroma planes start aligned
  static constexpr int kChromaPlanes = 3;  // U_M, V_M, V_c
  // M0, V0, C0, M1, V1, C1, each plane_bytes_, kStatusSlots AdaptiveStatus (status_bytes()), then the
  // chroma planes U_M0, V_M0, V_c0, U_M1, V_M1, V_c1 (copy n read when written_ is n), each chroma_plane_bytes_.
  std::uint8_t* planes_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t plane_bytes_ = 0, chroma_plane_bytes_ = 0;
  bool chroma_live_ = false;     // the chroma planes hold a model (since a frame that started them)
  bool chroma_pending_ = false;  // this update's chroma pass: chroma_live_ once end_update() saw it queued
  int width_ = 0, height_ = 0;
  int written_ = 0;  // which copy (0 or 1) the last update wrote
  Foreground mode_ = Foreground::Motion;
  bool reset_pending_ = true;
  std::uint64_t frames_seen_ = 0;
  cudaEvent_t updated_ = nullptr;  // recorded after each update
  bool recorded_ = false;
};

}  // namespace ccl::cuda
