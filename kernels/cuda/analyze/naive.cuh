// The naive feature analysis (the reference point of Lemaitre et al.): one thread per foreground
// pixel, one atomic update per pixel per feature into its component's statistics. Slow where
// components are large (every pixel of a component hits the same addresses); kept to measure
// what the run-based analyses save, and as a second, independent way to the same statistics.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"
#include "primitives/row_block_scan.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// Same contract as analyze_flsl_cd (see analyze/flsl_cd.cuh); `scan` ranks the roots across row blocks.
void analyze_naive(const DeviceMask& mask, std::uint32_t* labels, const RowBlockScan& scan, const AnalysisOutput& out,
                   cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
