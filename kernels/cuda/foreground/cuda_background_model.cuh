// The CUDA BackgroundModel: the planes M and V in device memory, twice (the previous frame's, read,
// and this frame's, written), Adaptive's C three times, its per-frame status four times, and
// Options::chroma's planes (U_M, V_M, V_c) twice as M and V, in one allocation sized on the first
// frame and reused.
// Updates are ordered through events, so analyzers on different streams that submit in frame order
// update in frame order. With chroma a frame's colour pass may run beside the next frame's luma
// pass: it reads C and the status as frame n - 1 left them and M as frame n wrote it, which frame
// n + 1 leaves alone (its C and status go to other copies); frame n + 2's luma pass waits for it.
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
  // Once the update's kernel is queued on `stream` (with chroma: the luma pass): the next update
  // waits for it and reads its planes.
  void end_update(cudaStream_t stream);
  // Around the colour pass of the frame whose end_update() came last: it waits for the previous
  // frame's colour pass (the chroma model), and the update after next waits for it.
  void begin_colour(cudaStream_t stream);
  void end_colour(cudaStream_t stream);
  void delay_colour_passes(unsigned microseconds) { colour_delay_us_ = microseconds; }  // for tests
  // Between begin_update() and end_update(), for Adaptive: Options::chroma's planes, or none where
  // the frame has no chroma (`present` false), which drops them: the next frame with chroma starts
  // them afresh, as does the first after a reset.
  ChromaModelPlanes chroma_update(bool present);
  std::size_t device_bytes() const { return bytes_; }

 private:
  // Frame n writes slot n, reads n - 1's, zeroes n + 1's; n - 1's colour pass may still read n - 2's.
  static constexpr int kStatusSlots = 4;
  static constexpr int kCountPlanes = 3;  // C: frame n reads n % 3, writes (n + 1) % 3; its colour pass reads n % 3
  static std::size_t status_bytes();      // the slots, rounded up so the chroma planes start aligned
  static constexpr int kChromaPlanes = 3;  // U_M, V_M, V_c
  // M0, V0, M1, V1, C0, C1, C2, each plane_bytes_, kStatusSlots AdaptiveStatus (status_bytes()), then the
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
  cudaEvent_t coloured_[2] = {nullptr, nullptr};  // recorded after frame n's colour pass, in n % 2
  bool coloured_recorded_[2] = {false, false};
  unsigned colour_delay_us_ = 0;
  void wait_colour(int slot, cudaStream_t stream);
  void synchronize_all();  // no update or colour pass still running
};

}  // namespace ccl::cuda
