// FLSL+CD feature analysis (Lemaitre et al.): full-row runs, one thread per run, features merged
// per component within the warp (conflict detection) before one atomic per component per warp.
// Also holds the link step: each run's start is pointed straight at its root, and roots are
// ranked in raster order, which numbers the components 1..N as the contract wants.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "device_mask.cuh"
#include "scratch.cuh"

namespace ccl::cuda {

class StageTimer;

// After labeling: fills scratch.row_offset (n_components at [height]) and scratch.stats.
void analyze_flsl_cd(const DeviceMask& mask, Scratch& scratch, cudaStream_t stream, StageTimer* timer);

// CUB temporary storage the analysis needs for frames of up to `height` rows.
std::size_t analyze_temp_bytes(int height);

}  // namespace ccl::cuda
