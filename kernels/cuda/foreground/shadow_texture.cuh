// Step 5's texture test (ccl/foreground.hpp) on the device, as a kernel of its own after the colour
// pass: the colour pass marks the pixels that passed the colour and light tests in a bit plane,
// and this kernel tests them spread over the whole GPU, because they crowd into a few places (on a
// street, the tiles a grey car crosses).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "foreground/chroma_pass.cuh"

namespace ccl::cuda {

// After the colour pass, on its stream: each pixel of `candidates` that passes the texture test
// is a shadow, cleared from `mask` (bit planes, mask_words_per_row(frame.width) words a row).
// Throws Error(DeviceFailure) when the launch fails.
void queue_shadow_texture(const ChromaFrame& frame, const std::uint32_t* candidates, std::uint32_t* mask,
                          cudaStream_t stream);

}  // namespace ccl::cuda
