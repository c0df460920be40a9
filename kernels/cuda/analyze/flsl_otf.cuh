// FLSL+OTF feature analysis (Lemaitre et al., Algorithm 2): every full-row run starts as its own
// provisional label holding its own features; runs of neighbouring rows that touch are merged by
// union-find, and each merge moves the features of the label that stops being a root into the one
// that stays (atomicExch, then atomic add/min/max), so features are accumulated while components
// are still being put together, spread over many labels instead of each component's final entry.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "analyze/root_stats.cuh"
#include "primitives/device_mask.cuh"
#include "primitives/row_block_scan.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// The work of flsl-otf: the ranking's scan, the runs as provisional labels (the segment arrays,
// which no one needs once labeling is done) and their features.
struct OtfWork {
  RowBlockScan scan;
  SegmentsView runs;
  RunFeatures* features;  // per segment slot
};

// Same contract as analyze_flsl_cd (see analyze/flsl_cd.cuh). The run merges find the touching
// runs themselves (the labeling only numbers the components), so they need the connectivity.
template <int Connectivity>
void analyze_flsl_otf(const DeviceMask& mask, std::uint32_t* labels, const OtfWork& work, const AnalysisOutput& out,
                      cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
