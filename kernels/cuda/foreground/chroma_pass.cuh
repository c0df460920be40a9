// Options::chroma on the device (ccl/foreground.hpp, steps 1-6): one tile kernel after Adaptive's
// luma tile pass, a thread per 2x2 block: start or relearn, or absorb (with C as the previous frame
// left it), changed blocks, gap fill, the shadows' colour and light tests, and learning; the mask is
// written once as a bit plane, and the pixels left for step 5's texture test (shadow_texture.cuh)
// as another. The filters run after, as a pass of the foreground stage that reads the bits. Each block's model is read
// from one copy and written to the other, as the luma's M and V.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/types.hpp"
#include "foreground/foreground_tiles.cuh"
#include "foreground/mask_source.cuh"

namespace ccl::cuda {

// A byte of a plane no thread writes while the colour and texture kernels run (the read-only cache).
__device__ inline int read_byte(const std::uint8_t* p) { return __ldg(p); }

// The chroma model, one byte per 2x2 block each, `width` blocks a row (the pitch) by `height`:
// the previous frame's (read) and this frame's (written).
struct ChromaModelPlanes {
  const std::uint8_t* u_in = nullptr;          // U_M
  const std::uint8_t* v_in = nullptr;          // V_M
  const std::uint8_t* deviation_in = nullptr;  // V_c
  std::uint8_t* u = nullptr;
  std::uint8_t* v = nullptr;
  std::uint8_t* deviation = nullptr;
  int width = 0, height = 0;
  bool start = false;  // the model's first frame, or the first with chroma: U_M = U, V_M = V, V_c = floor
};

// What the chroma kernel reads and writes of one frame.
struct ChromaFrame {
  ChromaView chroma;         // the frame's U and V, device memory
  const std::uint8_t* luma;  // plane 0, device memory
  std::ptrdiff_t luma_stride;
  int width, height;  // pixels
  int absorb_frames;
  ChromaModelPlanes model;
  SigmaDeltaPlanes luma_model;  // the luma update's: C before it (absorb), M after it, the statuses
};

// After the luma tile pass, on its stream: `luma_mask` (its bit plane, mask_words_per_row words a
// row) with colour's gaps filled into `out`, and the pixels of it that passed the shadows' colour
// and light tests into `candidates` (bit planes as luma_mask); the model learns and adds its sums
// to the frame's status. Throws Error(DeviceFailure) when the launch fails.
void queue_chroma_pass(const ChromaFrame& frame, const std::uint32_t* luma_mask, std::uint32_t* candidates,
                       std::uint32_t* out, cudaStream_t stream);

}  // namespace ccl::cuda
