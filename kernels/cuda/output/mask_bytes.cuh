// The mask that is labelled, as bytes a person can look at (ccl::MaskView): 255 where the frame's
// labellers see foreground, 0 elsewhere.
#pragma once

#include <cuda_runtime.h>

#include "ccl/types.hpp"
#include "primitives/device_mask.cuh"

namespace ccl::cuda {

class StageTimer;

// `mask` is what the frame is labelled from (plane 0 and the threshold, or the foreground stage's
// plane and 0). Queued only; `out` may be the plane `mask` reads (each pixel is read, then written).
void write_mask_bytes(const DeviceMask& mask, const MaskView& out, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
