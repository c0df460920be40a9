// Where the foreground tile kernel reads a pixel's mask bit from: plane 0 against the threshold,
// plane 0 through the Sigma-Delta model or the adaptive one, or a 0/1 mask plane or a bit plane an
// earlier pass wrote (a bit plane is read a word at a time, foreground_tiles.cu, never by pixel()
// or quad()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "foreground/sigma_delta.cuh"

namespace ccl::cuda {

// MaskPlane: an earlier pass's 0/1 bytes; BitPlane: its words (mask_words_per_row words a row, `stride` bytes).
enum class MaskSourceKind : std::uint8_t { Threshold, Motion, Adaptive, MaskPlane, BitPlane };

// Adaptive's per-stream state of one frame in device memory: F, R and the light sums, and with
// Options::chroma the chroma model's (U_M, U) and (V_M, V) sums (foreground/chroma_pass.cuh).
struct AdaptiveStatus {
  unsigned long long foreground;
  int relearn;
  LightSums light;
  LightSums chroma_u, chroma_v;
};

// What one pixel gave, every kind: its mask bit and, where the kind keeps them (Motion: M, V;
// Adaptive: M, V, C), the model's new bytes.
struct PixelOutcome {
  bool foreground = false;
  std::uint8_t m = 0, v = 0, c = 0;
};

// The model's planes of one update: read the previous frame's, write this frame's (two copies,
// so blocks that recompute a neighbour's mask in their halo never read a value already updated).
struct SigmaDeltaPlanes {
  const std::uint8_t* m_in = nullptr;
  const std::uint8_t* v_in = nullptr;
  std::uint8_t* m_out = nullptr;
  std::uint8_t* v_out = nullptr;
  std::ptrdiff_t pitch = 0;  // bytes between rows of every model plane
  bool first = false;        // the frame after a reset: initialise, mask 0
  // Adaptive only: C read and written, the frame's index since the reset, the previous frame's
  // status (read), this frame's (zeroed by the previous frame, added to by every block) and the
  // next frame's (zeroed by this frame's kernel).
  const std::uint8_t* c_in = nullptr;
  std::uint8_t* c_out = nullptr;
  unsigned long long frame_index = 0;
  int absorb_frames = 0;
  const AdaptiveStatus* status_in = nullptr;
  AdaptiveStatus* status_out = nullptr;
  AdaptiveStatus* status_next = nullptr;
};

// The bytes one pixel's mask bit depends on: I (or the earlier pass's mask byte), and the model's
// M, V and C where the kind keeps them (0 otherwise).
struct PixelInputs {
  std::uint8_t in = 0, m = 0, v = 0, c = 0;
};

// The same bytes of four neighbouring pixels, one word a plane: byte k is pixel x + k.
struct QuadInputs {
  std::uint32_t in = 0, m = 0, v = 0, c = 0;
};

// What four neighbouring pixels gave: bit k of `bits` pixel x + k's mask bit; the model's new
// bytes (where the kind keeps them) as words, byte k pixel x + k.
struct QuadOutcome {
  std::uint32_t bits = 0, m = 0, v = 0, c = 0;
};

__device__ inline int byte_at(std::uint32_t word, int k) { return int(word >> (8 * k) & 255u); }

struct MaskSource {
  MaskSourceKind kind;
  const std::uint8_t* data;  // plane 0 (Threshold, Motion), the mask plane (MaskPlane) or the bit plane
  std::ptrdiff_t stride;     // bytes
  int width, height;
  std::uint8_t threshold;  // Threshold
  int motion_factor;       // Motion
  SigmaDeltaPlanes model;  // Motion

  // Motion and Adaptive keep a model (M and V; Adaptive also C): they read and write its planes.
  __device__ bool keeps_model() const { return kind == MaskSourceKind::Motion || kind == MaskSourceKind::Adaptive; }

  // In-frame pixel (x, y)'s inputs, through the read-only cache (no thread of the pass writes
  // them), so that a warp can have several words' reads in flight before it uses any.
  __device__ PixelInputs read(int x, int y) const {
    PixelInputs p;
    p.in = __ldg(data + std::ptrdiff_t(y) * stride + x);
    if (keeps_model() && !model.first) {
      const std::ptrdiff_t i = std::ptrdiff_t(y) * model.pitch + x;
      p.m = __ldg(model.m_in + i);
      p.v = __ldg(model.v_in + i);
      if (kind == MaskSourceKind::Adaptive) p.c = __ldg(model.c_in + i);
    }
    return p;
  }

  // Adaptive's update of one pixel from its inputs; `relearn`: R > 0 this frame, with the previous frame's `fit`.
  __device__ AdaptivePixel adaptive_pixel(bool relearn, const LightFit& fit, int in, int m, int v, int c) const {
    if (model.first)
      return {std::uint8_t(in), kMotionMinDeviation, 0, false};  // M = I, V = floor, C = 0, no foreground
    if (relearn) return {std::uint8_t(apply_light(fit, m)), std::uint8_t(v), 0, false};  // M follows the light, V kept
    return adaptive_step(in, m, v, c, motion_factor, model.absorb_frames,
                         model.frame_index % kForegroundUpdatePeriod == 0);
  }

  // The kind's rule for one in-frame pixel from its inputs (the one rule of both paths below);
  // `relearn` and `fit` only matter to Adaptive.
  __device__ PixelOutcome outcome(bool relearn, const LightFit& fit, int in, int m, int v, int c) const {
    if (kind == MaskSourceKind::Threshold) return {in > threshold};
    if (kind == MaskSourceKind::MaskPlane) return {in != 0};
    if (kind == MaskSourceKind::Motion) {
      const SigmaDeltaPixel p = sigma_delta_step(in, m, v, motion_factor, model.first);
      return {p.foreground, p.m, p.v};
    }
    const AdaptivePixel p = adaptive_pixel(relearn, fit, in, m, v, c);
    return {p.foreground, p.m, p.v, p.c};
  }

  // In-frame pixel (x, y) from its inputs; `owner`: this thread's block is the one that writes the
  // pixel's model update (every pixel has exactly one owner, halo copies only read).
  __device__ PixelOutcome pixel(int x, int y, bool owner, bool relearn, const LightFit& fit,
                                const PixelInputs& got) const {
    const PixelOutcome o = outcome(relearn, fit, got.in, got.m, got.v, got.c);
    if (owner && keeps_model()) {
      const std::ptrdiff_t i = std::ptrdiff_t(y) * model.pitch + x;
      model.m_out[i] = o.m;
      model.v_out[i] = o.v;
      if (kind == MaskSourceKind::Adaptive) model.c_out[i] = o.c;
    }
    return o;
  }

  // Whether read_quad() and write_quad() may serve the whole frame: every plane the kind reads or
  // writes has 4-aligned rows and the width is a multiple of 4 (a quad is in the frame or out of
  // it). The same in every thread.
  __device__ bool quad_reads() const {
    std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(data) | std::uintptr_t(stride) | std::uintptr_t(width);
    if (keeps_model())
      bits |= reinterpret_cast<std::uintptr_t>(model.m_in) | reinterpret_cast<std::uintptr_t>(model.v_in) |
              reinterpret_cast<std::uintptr_t>(model.m_out) | reinterpret_cast<std::uintptr_t>(model.v_out) |
              std::uintptr_t(model.pitch);
    if (kind == MaskSourceKind::Adaptive)
      bits |= reinterpret_cast<std::uintptr_t>(model.c_in) | reinterpret_cast<std::uintptr_t>(model.c_out);
    return (bits & 3u) == 0;
  }

  // Pixels (x..x + 3, y)'s inputs, one load a plane (quad_reads(), x a multiple of 4, in the frame).
  __device__ QuadInputs read_quad(int x, int y) const {
    QuadInputs q;
    q.in = __ldg(reinterpret_cast<const std::uint32_t*>(data + std::ptrdiff_t(y) * stride + x));
    if (keeps_model() && !model.first) {
      const std::ptrdiff_t i = std::ptrdiff_t(y) * model.pitch + x;
      q.m = __ldg(reinterpret_cast<const std::uint32_t*>(model.m_in + i));
      q.v = __ldg(reinterpret_cast<const std::uint32_t*>(model.v_in + i));
      if (kind == MaskSourceKind::Adaptive) q.c = __ldg(reinterpret_cast<const std::uint32_t*>(model.c_in + i));
    }
    return q;
  }

  // Their mask bits and model updates, every kind; Adaptive's owned pixels add to `owned` (a
  // callable taking foreground, I and the new M).
  template <typename Owned>
  __device__ QuadOutcome quad(const QuadInputs& got, bool owner, bool relearn, const LightFit& fit,
                              Owned&& owned) const {
    QuadOutcome out;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int in = byte_at(got.in, k);
      const PixelOutcome p = outcome(relearn, fit, in, byte_at(got.m, k), byte_at(got.v, k), byte_at(got.c, k));
      if (keeps_model())
        out.m |= std::uint32_t(p.m) << (8 * k), out.v |= std::uint32_t(p.v) << (8 * k),
            out.c |= std::uint32_t(p.c) << (8 * k);
      if (kind == MaskSourceKind::Adaptive && owner) owned(p.foreground, unsigned(in), unsigned(p.m));
      out.bits |= std::uint32_t(p.foreground) << k;
    }
    return out;
  }

  // Writes an owned quad's model update (x a multiple of 4).
  __device__ void write_quad(int x, int y, const QuadOutcome& q) const {
    if (!keeps_model()) return;
    const std::ptrdiff_t i = std::ptrdiff_t(y) * model.pitch + x;
    *reinterpret_cast<std::uint32_t*>(model.m_out + i) = q.m;
    *reinterpret_cast<std::uint32_t*>(model.v_out + i) = q.v;
    if (kind == MaskSourceKind::Adaptive) *reinterpret_cast<std::uint32_t*>(model.c_out + i) = q.c;
  }

  // Adaptive's R for this frame, from the previous frame's status (the same in every thread).
  __device__ int relearn_frames(std::uint64_t pixels) const {
    if (kind != MaskSourceKind::Adaptive || model.first) return 0;
    return next_relearn_frames(model.status_in->relearn, model.status_in->foreground, pixels);
  }
  __device__ LightFit light_fit(std::uint64_t pixels) const {
    return model.first ? LightFit{} : fit_light(model.status_in->light, pixels);
  }
};

}  // namespace ccl::cuda
