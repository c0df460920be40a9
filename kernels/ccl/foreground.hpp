// The foreground stage: how plane 0 becomes the binary mask the labellers read. Every backend
// computes it with the same integer arithmetic, so masks and results are byte-identical.
//
// Foreground::Threshold: fg = I > threshold (the original contract).
// Foreground::Motion, the Sigma-Delta background estimation of Manzanera and Richefeu, per pixel,
// with M (background) and V (deviation) bytes kept across frames in a BackgroundModel:
//   first frame after a reset:  M = I, V = kMotionMinDeviation, fg = 0
//   every later frame:          M += sign(I - M)                  (after this, D = |I - M|)
//                               if D != 0: V += sign(min(N * D, 255) - V)
//                               V = clamp(V, kMotionMinDeviation, kMotionMaxDeviation)
//                               fg = D >= V
//   N = Options::motion_factor. M is updated before D is taken, V before fg is decided (paper order).
// Then, in either mode: opening (erode, then dilate) with a (2 open_radius + 1)^2 square, then
// closing (dilate, then erode) with a (2 close_radius + 1)^2 square. The square is clipped at the
// frame's edges: pixels outside the frame take no part (OpenCV's default border for morphology).
#pragma once

#include <cstdint>
#include <memory>

namespace ccl {

constexpr std::uint8_t kMotionMinDeviation = 2;    // V's floor: a still pixel needs D >= 2 to be foreground
constexpr std::uint8_t kMotionMaxDeviation = 255;  // V's ceiling

// The per-pixel state of Foreground::Motion for one stream. Analyzers that label frames of one
// stream share one model (the element's frames in flight do), and must be submitted in frame
// order: each frame's update sees the previous frame's. The model sizes itself on the first frame
// after a reset; a frame of another size resets it.
class BackgroundModel {
 public:
  virtual ~BackgroundModel() = default;
  virtual const char* backend_name() const = 0;
  // The next frame starts the model afresh (caps change, flush, DISCONT).
  virtual void reset() = 0;
  // Frames the model has seen since the last reset (the first one initialises it).
  virtual std::uint64_t frames_seen() const = 0;
};

// Host memory; for the CPU backend. make_cuda_background_model() is in ccl/cuda_analyzer.hpp.
std::shared_ptr<BackgroundModel> make_cpu_background_model();

}  // namespace ccl
