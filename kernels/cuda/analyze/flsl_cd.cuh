// FLSL+CD feature analysis (Lemaitre et al.): full-row runs, one thread per run, features merged
// per component within the warp (conflict detection) before one atomic per component per warp.
// Also holds the link step: each run's start is pointed straight at its root, and roots are
// ranked in raster order, which numbers the components 1..N as the contract wants; flsl-cd and
// flsl do both in the same pass as the features.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "primitives/device_mask.cuh"
#include "host/scratch.cuh"

namespace ccl::cuda {

class StageTimer;

// After labeling: fills scratch.row_offset (n_components at [height]), scratch.stats and
// scratch.counts (n_in_range = n_components, before any area filter). Two kernels: the features
// added at the roots (add_features_at_roots) and gathered into scratch.stats (analyze/gather_roots.cuh).
void analyze_flsl_cd(const DeviceMask& mask, Scratch& scratch, cudaStream_t stream, StageTimer* timer);

// Plain FLSL (analysis=flsl): the same runs, one atomic per run per feature, no conflict detection.
void analyze_flsl(const DeviceMask& mask, Scratch& scratch, cudaStream_t stream, StageTimer* timer);

// The first kernel of both, by itself: each run start linked to its root, each root ranked among
// the roots of its row (scratch.root_rank), the roots counted per row (in scratch.row_offset) and
// per row block (scratch.row_block_roots), and the features added up at the roots
// (scratch.root_stats). One of the gathers of analyze/gather_roots.cuh must follow: it turns the counts
// into row offsets and scratch.counts, and leaves the root slots zeroed for the next frame.
void add_features_at_roots(const DeviceMask& mask, Scratch& scratch, bool conflict_detection, cudaStream_t stream,
                           StageTimer* timer);

// The steps the naive and flsl-otf analyses start with: each run start linked to its root, roots
// ranked (scratch.root_rank, scratch.row_offset, scratch.counts), and every statistic but `top`
// readied (area 0, left 0xffffffff, right/bottom/sums 0); `top` is left to whoever sees the root pixel.
void link_and_rank_roots(const DeviceMask& mask, Scratch& scratch, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
