#include "host/scratch.cuh"

#include <algorithm>
#include <utility>

#include "host/cuda_check.hpp"

namespace ccl::cuda {
namespace {

// Hands out aligned slices of one allocation; a first pass with no base only adds up the sizes.
class Carver {
 public:
  explicit Carver(char* base) : base_(base) {}
  template <class T>
  T* take(std::size_t count) {
    T* p = base_ ? reinterpret_cast<T*>(base_ + used_) : nullptr;
    used_ += (count * sizeof(T) + 255) / 256 * 256;
    return p;
  }
  std::size_t used() const { return used_; }

 private:
  char* base_;
  std::size_t used_ = 0;
};

void carve(Scratch& s, Carver& c, std::size_t pixels, int height) {
  const std::size_t components = s.max_components;
  s.labels = c.take<std::uint32_t>(pixels);
  s.root_rank = c.take<std::uint32_t>(pixels);
  s.row_offset = c.take<std::uint32_t>(std::size_t(height) + 1);
  s.row_block_roots = c.take<std::uint32_t>(row_blocks(height));
  const std::size_t slots = half_row_slots(pixels, height);
  s.root_stats.area = c.take<std::uint32_t>(slots);
  s.root_stats.not_left = c.take<std::uint32_t>(slots);
  s.root_stats.right = c.take<std::uint32_t>(slots);
  s.root_stats.bottom = c.take<std::uint32_t>(slots);
  s.root_stats.sum_x = c.take<unsigned long long>(slots);
  s.root_stats.sum_y = c.take<unsigned long long>(slots);
  s.root_stats.row_root_x = c.take<std::uint16_t>(slots);
  s.stats.area = c.take<std::uint32_t>(components);
  s.stats.left = c.take<std::uint32_t>(components);
  s.stats.right = c.take<std::uint32_t>(components);
  s.stats.top = c.take<std::uint32_t>(components);
  s.stats.bottom = c.take<std::uint32_t>(components);
  s.stats.sum_x = c.take<unsigned long long>(components);
  s.stats.sum_y = c.take<unsigned long long>(components);
  s.order = c.take<std::uint32_t>(components);
  s.sort_keys = c.take<std::uint32_t>(components);
  s.ranks = c.take<std::uint32_t>(components);
  s.n_selected = c.take<std::uint32_t>(1);
  s.label_changed = c.take<unsigned>(1);
  char* scan = c.take<char>(scan_state_bytes(s));
  s.row_block_scan.state = reinterpret_cast<RowBlockScanState*>(scan);
  s.row_block_scan.status = scan ? reinterpret_cast<unsigned long long*>(scan + sizeof(RowBlockScanState)) : nullptr;
  s.counts = c.take<FrameCounts>(1);
  s.out = c.take<Component>(components);
  s.cub_temp = c.take<char>(s.cub_temp_bytes);
}

void carve_segments(Scratch& s, Carver& c, SegmentArrays segments) {
  const std::size_t height = std::size_t(s.max_height);
  const std::size_t slots = half_row_slots(s.max_pixels, s.max_height);
  s.segment_bounds = c.take<std::uint16_t>(2 * slots);
  s.segment_parent = c.take<std::uint32_t>(slots);
  s.segment_count = c.take<std::uint32_t>(height);
  s.run_features = segments == SegmentArrays::WithFeatures ? c.take<RunFeatures>(slots) : nullptr;
}

// Points `s` (max_pixels and max_height set) at a new segment arena; the caller frees any old one.
void place_segments(Scratch& s, SegmentArrays segments, const std::string& frame) {
  Carver sizing(nullptr);
  carve_segments(s, sizing, segments);
  s.segment_arena = device_alloc(sizing.used(), "the segment arrays of a " + frame + " frame");
  s.segment_arena_bytes = sizing.used();
  s.segments_held = segments;
  Carver carving(static_cast<char*>(s.segment_arena));
  carve_segments(s, carving, segments);
}

// Points `s` (max_pixels and max_height set) at a new foreground arena; the caller frees any old one.
void place_foreground(Scratch& s, const std::string& frame) {
  const std::size_t plane = mask_plane_bytes(s.max_pixels, s.max_height);
  s.foreground_arena = device_alloc(2 * plane, "the foreground mask planes of a " + frame + " frame");
  s.foreground_arena_bytes = 2 * plane;
  s.foreground_mask = static_cast<std::uint8_t*>(s.foreground_arena);
  s.foreground_spare = s.foreground_mask + plane;
}

}  // namespace

void* device_alloc(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw Error(Error::Kind::OutOfMemory,
                "out of device memory: " + what + " needs " + std::to_string(bytes) + " bytes");
  }
  check(status, ("cudaMalloc (" + what + ")").c_str());
  return p;
}

void allocate_scratch(Scratch& s, std::size_t pixels, int height, SegmentArrays segments, bool foreground,
                      const std::string& frame) {
  Scratch grown;
  grown.max_pixels = pixels;
  grown.max_height = height;
  grown.max_components = (pixels + 1) / 2;
  grown.cub_temp_bytes = compact_temp_bytes(grown.max_components);
  Carver sizing(nullptr);
  carve(grown, sizing, pixels, height);
  // The new arena first: a failed grow keeps the old scratch, which still fits the earlier frames.
  grown.arena = device_alloc(sizing.used(), "the CUDA scratch of a " + frame + " frame");
  grown.arena_bytes = sizing.used();
  Carver carving(static_cast<char*>(grown.arena));
  carve(grown, carving, pixels, height);
  segments = std::max(segments, s.segments_held);  // a pipeline that ran a variant keeps its arrays
  if (segments != SegmentArrays::None) {
    try {
      place_segments(grown, segments, frame);
    } catch (...) {
      cudaFree(grown.arena);
      throw;
    }
  }
  if (foreground || s.foreground_arena) {  // a pipeline that ran the stage keeps its planes
    try {
      place_foreground(grown, frame);
    } catch (...) {
      cudaFree(grown.arena);
      if (grown.segment_arena) cudaFree(grown.segment_arena);
      throw;
    }
  }
  free_scratch(s);
  s = grown;
}

void allocate_segments(Scratch& s, SegmentArrays segments, const std::string& frame) {
  if (segments <= s.segments_held) return;
  Scratch grown = s;  // the same arrays every frame uses; the new segment arena first
  place_segments(grown, segments, frame);
  if (s.segment_arena) cudaFree(s.segment_arena);
  s = grown;
}

void allocate_foreground(Scratch& s, const std::string& frame) {
  if (s.foreground_arena) return;
  place_foreground(s, frame);  // nothing to free: none held
}

// At most one block per row; the state is padded so the status words stay 8-byte aligned.
std::size_t scan_state_bytes(const Scratch& s) {
  static_assert(sizeof(RowBlockScanState) % 8 == 0, "status words follow the state");
  return sizeof(RowBlockScanState) + std::size_t(s.max_height) * sizeof(unsigned long long);
}

void clear_frame_state(const Scratch& s, cudaStream_t stream) {
  check(cudaMemsetAsync(s.row_block_scan.state, 0, scan_state_bytes(s), stream), "cudaMemsetAsync (ranking state)");
  const RootStats& r = s.root_stats;
  const std::size_t n = half_row_slots(s.max_pixels, s.max_height);
  for (const auto& [p, bytes] : {std::pair<void*, std::size_t>{r.area, 4 * n}, {r.not_left, 4 * n}, {r.right, 4 * n},
                                 {r.bottom, 4 * n}, {r.sum_x, 8 * n}, {r.sum_y, 8 * n}})
    check(cudaMemsetAsync(p, 0, bytes, stream), "cudaMemsetAsync (root statistics)");
}

void free_scratch(Scratch& s) noexcept {
  if (s.arena) cudaFree(s.arena);
  if (s.segment_arena) cudaFree(s.segment_arena);
  if (s.foreground_arena) cudaFree(s.foreground_arena);
  s = Scratch{};
}

}  // namespace ccl::cuda
