// Options::chroma on the device (ccl/foreground.hpp, steps 1-6), around Adaptive's luma tile pass,
// which then runs without filters: one kernel before it (start, relearn, or absorb and the changed
// blocks) and one after (gap fill, shadows, learning), a thread per 2x2 block. The chroma model is
// one copy in place: every step reads and writes its own block only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "foreground/mask_source.cuh"

namespace ccl::cuda {

// The chroma model, one byte per 2x2 block each, `width` blocks a row (the pitch) by `height`.
struct ChromaModelPlanes {
  std::uint8_t* u = nullptr;          // U_M
  std::uint8_t* v = nullptr;          // V_M
  std::uint8_t* deviation = nullptr;  // V_c
  std::uint8_t* changed = nullptr;    // step 2's K, from the kernel before the luma pass to the one after
  int width = 0, height = 0;
  bool start = false;  // the model's first frame, or the first with chroma: U_M = U, V_M = V, V_c = floor
};

// What the chroma kernels read and write of one frame.
struct ChromaFrame {
  ChromaView chroma;          // the frame's U and V, device memory
  const std::uint8_t* luma;   // plane 0, device memory
  std::ptrdiff_t luma_stride;
  int width, height;          // pixels
  int absorb_frames;
  ChromaModelPlanes model;
  SigmaDeltaPlanes luma_model;  // the luma update's: C before (absorb) and after it, M after it, statuses
};

// Before the luma tile pass, on the same stream.
void queue_chroma_before_luma(const ChromaFrame& frame, cudaStream_t stream);
// After it: `luma_mask` (its 0/1 output) with colour's gaps filled and shadows cleared, into `out`
// (both `pitch` bytes a row); the model learns and adds its sums to the frame's status.
void queue_chroma_after_luma(const ChromaFrame& frame, const std::uint8_t* luma_mask, std::uint8_t* out,
                             std::ptrdiff_t pitch, cudaStream_t stream);

}  // namespace ccl::cuda
