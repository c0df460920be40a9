// Device scratch of the CUDA pipeline, sized once for the largest frame so no frame allocates.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "ccl/types.hpp"

namespace ccl::cuda {

// Statistics per component, indexed by the component's rank in raster order (structure of
// arrays so each atomic touches one array).
struct ComponentStats {
  std::uint32_t* area;
  std::uint32_t* left;
  std::uint32_t* right;
  std::uint32_t* top;
  std::uint32_t* bottom;
  unsigned long long* sum_x;
  unsigned long long* sum_y;
};

// Features of one provisional label of the flsl-otf analysis (a full-row run and whatever merged
// into it); `top` is left out: the label that survives is the component's first run.
struct ProvisionalFeatures {
  std::uint32_t area, left, right, bottom;
  unsigned long long sum_x, sum_y;
};

// What the host reads back of a frame, right before the kept components (Scratch::out), so both
// come back in one copy.
struct FrameCounts {
  std::uint32_t n_components;  // before filtering
  std::uint32_t n_in_range;    // with min_area <= area <= max_area
};
static_assert(sizeof(FrameCounts) % alignof(Component) == 0, "the component list follows the counts");

struct Scratch {
  std::size_t max_pixels = 0;
  int max_height = 0;
  std::size_t max_components = 0;  // a checkerboard in 4-connectivity: half the pixels

  std::uint32_t* labels = nullptr;      // union-find parent per pixel (width * height, dense)
  std::uint32_t* root_rank = nullptr;   // at each root pixel: its rank among the roots of its row
  std::uint32_t* row_roots = nullptr;   // roots per row (height)
  std::uint32_t* row_offset = nullptr;  // exclusive prefix sum of row_roots; [height] = n_components
  ComponentStats stats{};
  std::uint32_t* order = nullptr;       // component (raster rank) at each position of the chosen order
  std::uint32_t* sort_keys = nullptr;   // sorted areas, then reused as the final label per component
  std::uint32_t* ranks = nullptr;       // 0..n-1 for the sort, then the ranks that pass the area filter
  std::uint32_t* n_selected = nullptr;
  unsigned* label_changed = nullptr;  // iterative labelings (8DLS): set by a pass that lowered a label
  // raster-segments labeling, then the flsl-otf analysis's runs: ceil(width / 2) segment slots a
  // row, (pixels + height + 1) / 2 in all
  std::uint16_t* segment_bounds = nullptr;  // first and last x of each segment
  std::uint32_t* segment_parent = nullptr;  // union-find parent per segment
  std::uint32_t* segment_count = nullptr;   // segments per row (height)
  ProvisionalFeatures* run_features = nullptr;  // flsl-otf: per segment slot
  FrameCounts* counts = nullptr;
  Component* out = nullptr;             // the kept components, in the chosen order, right after counts
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;

  void* arena = nullptr;
  std::size_t arena_bytes = 0;
};

// cudaMalloc that throws Error(OutOfMemory) "out of device memory: <what> needs N bytes" when the
// device is full, Error(DeviceFailure) on any other failure.
void* device_alloc(std::size_t bytes, const std::string& what);

// Allocates scratch for frames of up to `pixels` pixels and `height` rows (one cudaMalloc);
// throws Error(OutOfMemory) naming `frame` (the size that asked) and the bytes asked for. On
// failure `scratch` is left as it was, still usable for the frames it was sized for.
void allocate_scratch(Scratch& scratch, std::size_t pixels, int height, const std::string& frame);
void free_scratch(Scratch& scratch) noexcept;

}  // namespace ccl::cuda
