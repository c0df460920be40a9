// The CPU backend's passes for Options::chroma (ccl/foreground.hpp): the chroma background of
// Foreground::Adaptive, the colour that joins an object's parts, and the cast-shadow test.
#pragma once

#include <cstdint>

#include "ccl/chroma_rules.hpp"
#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl::cpu {

// The chroma model, one byte per 2x2 block each ((width+1)/2 x (height+1)/2, no padding).
struct ChromaPlanes {
  std::uint8_t* u;          // U_M
  std::uint8_t* v;          // V_M
  std::uint8_t* deviation;  // V_c
};

// Blocks a row and rows of blocks of `image`'s chroma.
inline int chroma_width(const ImageView& image) { return (image.width + 1) / 2; }
inline int chroma_height(const ImageView& image) { return (image.height + 1) / 2; }

// The (U_M, U) and (V_M, V) pairs' sums of a frame, for its light fit.
struct ChromaSums {
  LightSums u, v;
};

// The frame after a reset, or the first with chroma: U_M = U, V_M = V, V_c = floor.
ChromaSums chroma_start(const ImageView& image, const ChromaPlanes& planes);

// A relearning frame: U_M = fit_u(U_M), V_M = fit_v(V_M), V_c kept.
ChromaSums chroma_relearn(const ImageView& image, const LightFit& fit_u, const LightFit& fit_v,
                          const ChromaPlanes& planes);

// Before the luma step: U_M = U, V_M = V where a pixel of the block joins the background this frame
// (C >= absorb_frames); then `blocks` = 1 where the block's colour strays from its background.
void chroma_changes(const ImageView& image, const std::uint8_t* count, int absorb_frames,
                    const ChromaPlanes& planes, std::uint8_t* blocks);

// chroma_fill's work space: a byte per pixel and an int per column.
struct FillScratch {
  std::uint8_t* above;  // luma foreground within the reach above
  int* column_edge;     // the row of the nearest luma foreground seen in the column
};

// After the luma step: `between` = 1 on the luma mask and in its gaps (luma foreground within
// kChromaReach on both sides, across or along), and the mask gains the gap pixels whose block changed.
void chroma_fill(const ImageView& image, const std::uint8_t* blocks, std::uint8_t* between,
                 const FillScratch& scratch, std::uint8_t* mask);

// After the fill: the model learns (U_M, V_M where the block is background, V_c everywhere).
ChromaSums chroma_step(const ImageView& image, const std::uint8_t* count, const std::uint8_t* between,
                       bool slow_turn, const ChromaPlanes& planes);

// Clears the mask (0/1) where a foreground pixel is a cast shadow.
void suppress_shadows(const ImageView& image, const std::uint8_t* mean, const ChromaPlanes& chroma,
                               std::uint8_t* mask);

}  // namespace ccl::cpu
