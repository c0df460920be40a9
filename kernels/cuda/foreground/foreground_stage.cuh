// The foreground stage on the device: plane 0 -> the 0/1 mask plane the labellers read, through
// the threshold or a background model, then opening, closing and shrinking (ccl/foreground.hpp).
// One tile pass while the filters' halo fits the tile buffer (2 (open + close) + shrink <= 30), else
// more, each taking the next filters that fit, alternating between the mask and spare planes. With
// chroma=true the luma pass, the colour pass and the texture test work on bit planes (kept in the
// mask plane) and a tile pass reading the bits runs the filters.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl::cuda {

class CudaBackgroundModel;

// Bytes between rows of a mask plane for a frame `width` wide: whole 16-byte rows, so the
// labellers' vector reads apply.
inline std::ptrdiff_t mask_pitch(int width) { return (std::ptrdiff_t(width) + 15) / 16 * 16; }

// Bytes of one mask plane that holds every frame of up to `pixels` pixels and `height` rows.
inline std::size_t mask_plane_bytes(std::size_t pixels, int height) {
  return (pixels + 15 * std::size_t(height) + 255) / 256 * 256;
}

struct ForegroundPlanes {
  std::uint8_t* mask;   // the stage's output, mask_pitch(width) a row
  std::uint8_t* spare;  // a pass's output when the stage takes two or more (chroma=true's filter pass, or a second one)
};

// Queues the stage for `image` (device memory) on `stream`; the mask lands in planes.mask or, after
// an even number of passes, planes.spare: the returned view says where.
// Motion needs `model` and updates it (waiting first for its previous update, on any stream).
// The returned view is the mask, to be labelled with threshold 0.
ImageView queue_foreground_stage(const ImageView& image, const Options& options, CudaBackgroundModel* model,
                                 const ForegroundPlanes& planes, cudaStream_t stream);

}  // namespace ccl::cuda
