// Options::chroma on the device (ccl/foreground.hpp, steps 1-6): one kernel after Adaptive's luma
// tile pass, which then runs without filters, a thread per 2x2 block: start or relearn, or absorb
// (with C as the previous frame left it: the luma pass wrote the other copy), changed blocks, gap
// fill, shadows and learning. The chroma model is one copy in place: a thread reads and writes its
// own block only.
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
  int width = 0, height = 0;
  bool start = false;  // the model's first frame, or the first with chroma: U_M = U, V_M = V, V_c = floor
};

// What the chroma kernel reads and writes of one frame.
struct ChromaFrame {
  ChromaView chroma;          // the frame's U and V, device memory
  const std::uint8_t* luma;   // plane 0, device memory
  std::ptrdiff_t luma_stride;
  int width, height;          // pixels
  int absorb_frames;
  ChromaModelPlanes model;
  SigmaDeltaPlanes luma_model;  // the luma update's: C before (absorb) and after it, M after it, statuses
};

// After the luma tile pass, on its stream: `luma_mask` (its 0/1 output) with colour's gaps filled
// and shadows cleared, into `out` (both `pitch` bytes a row); the model learns and adds its sums to
// the frame's status.
void queue_chroma_pass(const ChromaFrame& frame, const std::uint8_t* luma_mask, std::uint8_t* out, std::ptrdiff_t pitch,
                       cudaStream_t stream);

}  // namespace ccl::cuda
