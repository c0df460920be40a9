// FLSL+CD feature analysis (Lemaitre et al.): full-row runs, one thread per run, features merged
// per component within the warp (conflict detection) before one atomic per component per warp.
// Also holds the link step: each run's start is pointed straight at its root, and roots are
// ranked in raster order, which numbers the components 1..N as the contract wants; flsl-cd and
// flsl do both in the same pass as the features.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "analyze/root_stats.cuh"
#include "primitives/device_mask.cuh"
#include "primitives/row_block_scan.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

class StageTimer;

// Every analysis takes the mask and the labels (whose run starts the link step points at their
// roots), its own work view, and fills `out` (see primitives/views.cuh).

// Two kernels: the features added at the roots (add_features_at_roots) and gathered into
// out.stats (analyze/gather_roots.cuh).
void analyze_flsl_cd(const DeviceMask& mask, std::uint32_t* labels, const RootSlotsView& slots,
                     const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer);

// Plain FLSL (analysis=flsl): the same runs, one atomic per run per feature, no conflict detection.
void analyze_flsl(const DeviceMask& mask, std::uint32_t* labels, const RootSlotsView& slots,
                  const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer);

// The first kernel of both, by itself: each run start linked to its root, each root ranked among
// the roots of its row (out.root_rank), the roots counted per row (in out.row_offset) and per row
// block (slots.row_block_roots), and the features added up at the roots (slots.stats). One of the
// gathers of analyze/gather_roots.cuh must follow: it turns the counts into row offsets and
// out.counts, and leaves the root slots zeroed for the next frame.
void add_features_at_roots(const DeviceMask& mask, std::uint32_t* labels, bool conflict_detection,
                           const RootSlotsView& slots, const AnalysisOutput& out, cudaStream_t stream,
                           StageTimer* timer);

// The steps the naive and flsl-otf analyses start with: each run start linked to its root, roots
// ranked (out.root_rank, out.row_offset, out.counts, with `scan` across the row blocks), and every
// statistic but `top` readied (area 0, left 0xffffffff, right/bottom/sums 0); `top` is left to
// whoever sees the root pixel.
void link_and_rank_roots(const DeviceMask& mask, std::uint32_t* labels, const RowBlockScan& scan,
                         const AnalysisOutput& out, cudaStream_t stream, StageTimer* timer);

}  // namespace ccl::cuda
