// Device scratch of the CUDA pipeline, sized once for the largest frame so no frame allocates; the
// segment arrays only some variants use live in a second allocation, made when one first asks.
// Scratch owns the allocations; the stages get the typed views carved out of them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "analyze/flsl_otf.cuh"
#include "analyze/root_stats.cuh"
#include "ccl/types.hpp"
#include "foreground/foreground_stage.cuh"
#include "output/compact.cuh"
#include "primitives/row_block_scan.cuh"
#include "primitives/views.cuh"

namespace ccl::cuda {

// Slots all rows of frames of up to `pixels` pixels and `height` rows take: height * ceil(width / 2) at most.
inline std::size_t half_row_slots(std::size_t pixels, int height) { return (pixels + std::size_t(height) + 1) / 2; }

// The segment arrays a frame's algorithm and analysis use; each level holds the one before, so
// the arrays a scratch holds only ever grow.
enum class SegmentArrays : std::uint8_t {
  None,          // optimized-uf, 8dls, m8dls, column-runs with flsl-cd, flsl, naive
  Segments,      // segment_bounds, segment_parent, segment_count: raster-segments
  WithFeatures,  // those and run_features: flsl-otf
};

struct Scratch {
  std::size_t max_pixels = 0;
  int max_height = 0;
  std::size_t max_components = 0;  // a checkerboard in 4-connectivity: half the pixels

  std::uint32_t* labels = nullptr;      // union-find parent per pixel (width * height, dense)
  std::uint32_t* root_rank = nullptr;   // at each root pixel: its rank among the roots of its row
  std::uint32_t* row_offset = nullptr;  // components whose root is in an earlier row; [height] = n_components
                                        // (flsl-cd, flsl: the row's own roots until the gather)
  RowBlockScan row_block_scan{};        // naive, flsl-otf: the ranking's state, zeroed by clear_frame_state,
                                        // clean after each frame
  std::uint32_t* row_block_roots = nullptr;  // flsl-cd and flsl: roots per block of kRowWarps rows, for the gather
  RootStats root_stats{};               // flsl-cd and flsl: half_row_slots() slots, zero between frames
  ComponentStatsArrays stats{};
  std::uint32_t* order = nullptr;       // component (raster rank) at each position of the chosen order
  std::uint32_t* sort_keys = nullptr;   // sorted areas, then reused as the final label per component
  std::uint32_t* ranks = nullptr;       // 0..n-1 for the sort, then the ranks that pass the area filter
  std::uint32_t* n_selected = nullptr;
  unsigned* label_changed = nullptr;  // iterative labelings (8DLS): set by a pass that lowered a label
  FrameCounts* counts = nullptr;
  Component* out = nullptr;             // long lists of kept components, copied to the host after the gather
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;

  void* arena = nullptr;
  std::size_t arena_bytes = 0;

  // raster-segments labeling, then the flsl-otf analysis's runs: slots_per_row(width) segment slots a
  // row, half_row_slots(max_pixels, max_height) in all; null until a frame needs them (segments_held)
  std::uint16_t* segment_bounds = nullptr;  // first and last x of each segment
  std::uint32_t* segment_parent = nullptr;  // union-find parent per segment
  std::uint32_t* segment_count = nullptr;   // segments per row (height)
  RunFeatures* run_features = nullptr;  // flsl-otf: per segment slot
  SegmentArrays segments_held = SegmentArrays::None;
  void* segment_arena = nullptr;  // always sized for max_pixels and max_height
  std::size_t segment_arena_bytes = 0;

  // The foreground stage's mask plane and its spare, mask_plane_bytes(max_pixels, max_height)
  // each, in a third allocation; null until options first ask for the stage.
  std::uint8_t* foreground_mask = nullptr;
  std::uint8_t* foreground_spare = nullptr;
  void* foreground_arena = nullptr;
  std::size_t foreground_arena_bytes = 0;

  AnalysisOutput analysis() const { return AnalysisOutput{root_rank, row_offset, stats, counts}; }
  RootSlotsView root_slots() const { return RootSlotsView{root_stats, row_block_roots}; }
  SegmentsView segments() const { return SegmentsView{segment_bounds, segment_parent, segment_count}; }
  OtfWork otf_work() const { return OtfWork{row_block_scan, segments(), run_features}; }
  ForegroundPlanes foreground() const { return ForegroundPlanes{foreground_mask, foreground_spare}; }
  CompactionWork compaction() const { return CompactionWork{order, sort_keys, ranks, n_selected, cub_temp, cub_temp_bytes}; }
};

// cudaMalloc that throws Error(OutOfMemory) "out of device memory: <what> needs N bytes" when the
// device is full, Error(DeviceFailure) on any other failure.
void* device_alloc(std::size_t bytes, const std::string& what);

// Allocates scratch for frames of up to `pixels` pixels and `height` rows: one cudaMalloc for the
// arrays every frame uses, a second for the segment arrays `segments` asks for or the scratch
// being replaced holds, a third for the foreground planes when `foreground` or the old scratch held them; throws Error(OutOfMemory) naming `frame` (the size that asked) and the bytes
// asked for. On failure `scratch` is left as it was, still usable for the frames it was sized for.
void allocate_scratch(Scratch& scratch, std::size_t pixels, int height, SegmentArrays segments, bool foreground,
                      const std::string& frame);
// Adds the segment arrays `segments` asks for, sized for the frames the scratch is sized for;
// nothing when it holds them already. Same errors; on failure the old segment arrays stay.
void allocate_segments(Scratch& scratch, SegmentArrays segments, const std::string& frame);
// Adds the foreground stage's planes, sized for the frames the scratch is sized for; nothing when
// it holds them already. Same errors; on failure the scratch is as it was.
void allocate_foreground(Scratch& scratch, const std::string& frame);
// Frees every allocation.
void free_scratch(Scratch& scratch) noexcept;
// Bytes of row_block_scan (state and status words, contiguous).
std::size_t scan_state_bytes(const Scratch& scratch);
// Queues the zeroing of what frames leave zeroed for the next (the ranking's state, the root
// slots): after allocate_scratch, and after a frame that may have stopped half way.
void clear_frame_state(const Scratch& scratch, cudaStream_t stream);

}  // namespace ccl::cuda
