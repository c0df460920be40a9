// Where the foreground tile kernel reads a pixel's mask bit from: plane 0 against the threshold,
// plane 0 through the Sigma-Delta model, or a 0/1 mask plane an earlier pass wrote.
#pragma once

#include <cstddef>
#include <cstdint>

#include "foreground/sigma_delta.cuh"

namespace ccl::cuda {

enum class MaskSourceKind : std::uint8_t { Threshold, Motion, MaskPlane };

// The model's planes of one update: read the previous frame's, write this frame's (two copies,
// so blocks that recompute a neighbour's mask in their halo never read a value already updated).
struct SigmaDeltaPlanes {
  const std::uint8_t* m_in = nullptr;
  const std::uint8_t* v_in = nullptr;
  std::uint8_t* m_out = nullptr;
  std::uint8_t* v_out = nullptr;
  std::ptrdiff_t pitch = 0;  // bytes between rows of every model plane
  bool first = false;        // the frame after a reset: initialise, mask 0
};

struct MaskSource {
  MaskSourceKind kind;
  const std::uint8_t* data;  // plane 0 (Threshold, Motion) or the mask plane (MaskPlane)
  std::ptrdiff_t stride;     // bytes
  int width, height;
  std::uint8_t threshold;  // Threshold
  int motion_factor;       // Motion
  SigmaDeltaPlanes model;  // Motion

  // The mask bit of in-frame pixel (x, y); `owner`: this thread's block is the one that writes the
  // pixel's model update (every pixel has exactly one owner, halo copies only read).
  __device__ std::uint8_t bit(int x, int y, bool owner) const {
    const std::uint8_t in = data[std::ptrdiff_t(y) * stride + x];
    if (kind == MaskSourceKind::Threshold) return in > threshold ? 1 : 0;
    if (kind == MaskSourceKind::MaskPlane) return in != 0 ? 1 : 0;
    const std::ptrdiff_t i = std::ptrdiff_t(y) * model.pitch + x;
    const SigmaDeltaPixel p = model.first ? sigma_delta_step(in, 0, 0, motion_factor, true)
                                          : sigma_delta_step(in, model.m_in[i], model.v_in[i], motion_factor, false);
    if (owner) {
      model.m_out[i] = p.m;
      model.v_out[i] = p.v;
    }
    return p.foreground ? 1 : 0;
  }
};

}  // namespace ccl::cuda
