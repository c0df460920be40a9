// The CPU backend's foreground stage (ccl/foreground.hpp): plane 0 -> a 0/1 byte mask, width bytes
// per row, no padding. Same integer arithmetic as every backend, so masks are byte-identical.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/types.hpp"

namespace ccl::cpu {

// mask = image > threshold.
void threshold_mask(const ImageView& image, std::uint8_t threshold, std::uint8_t* mask);

// The first frame after a reset: M = I, V = kMotionMinDeviation, no foreground.
void sigma_delta_start(const ImageView& image, std::uint8_t* m, std::uint8_t* v, std::uint8_t* mask);
// Every later frame: updates M and V (width*height each, no padding) and writes the mask.
void sigma_delta_step(const ImageView& image, int factor, std::uint8_t* m, std::uint8_t* v, std::uint8_t* mask);

// Binary opening and closing with a (2r+1)^2 square clipped at the frame's edges. Separable
// sliding-window counts, so each pass costs O(pixels) whatever the radius; the scratch is kept
// between frames so only a larger frame allocates.
class SquareMorphology {
 public:
  // In place on `mask` (width*height 0/1 bytes); radius 0 leaves it as it is.
  void open(std::uint8_t* mask, int width, int height, int radius);
  void close(std::uint8_t* mask, int width, int height, int radius);
  void shrink(std::uint8_t* mask, int width, int height, int radius);  // erosion alone

 private:
  // Erosion (every pixel of the window set) or dilation (any pixel set), in place.
  void filter(std::uint8_t* mask, int width, int height, int radius, bool erode);

  std::vector<std::uint8_t> rows_;    // the horizontal pass's output
  std::vector<std::uint16_t> count_;  // per column: set pixels of the vertical window (<= 31)
};

}  // namespace ccl::cpu
