// The CPU backend's shadow test for Foreground::Adaptive (Options::shadow, ccl/foreground.hpp):
// foreground pixels darker than the background by a band, with its chroma and its texture, become
// background. Runs after adaptive_step, reading only this frame's I, M and the chroma model.
#pragma once

#include <cstdint>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl::cpu {

// The chroma model, (width+1)/2 x (height+1)/2 bytes each, no padding.
struct ChromaPlanes {
  std::uint8_t* u;
  std::uint8_t* v;
};

// The frame after a reset: U_M = U, V_M = V.
void chroma_start(const ImageView& image, const ChromaPlanes& planes);

// Clears the mask (0/1, width bytes a row) where a foreground pixel is a shadow; the model (M, V,
// C) is left as adaptive_step wrote it. Returns the pixels cleared.
std::uint64_t suppress_shadows(const ImageView& image, const ShadowRule& rule, const std::uint8_t* mean,
                               const ChromaPlanes& chroma, std::uint8_t* mask);

// U_M, V_M one step towards the frame's U, V where all four pixels of the sample have C == 0.
void chroma_step(const ImageView& image, const std::uint8_t* count, const ChromaPlanes& planes);

}  // namespace ccl::cpu
