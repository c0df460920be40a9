// The label map of the result (0 = background, 1..N = label in the chosen order), written from the
// labels and what the analysis left.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ccl/types.hpp"
#include "primitives/device_mask.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// `final_label` (null: raster order, label = rank + 1) gives each component's label by rank.
// Queued only.
void write_label_map(const DeviceMask& mask, const std::uint32_t* labels, const AnalysisOutput& analysis,
                     const std::uint32_t* final_label, const LabelView& map, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
