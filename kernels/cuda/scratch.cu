#include "scratch.cuh"

#include "compact.cuh"
#include "cuda_check.hpp"

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
  s.row_roots = c.take<std::uint32_t>(std::size_t(height));
  s.row_offset = c.take<std::uint32_t>(std::size_t(height) + 1);
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
  const std::size_t segments = (pixels + std::size_t(height) + 1) / 2;  // ceil(width / 2) a row
  s.segment_bounds = c.take<std::uint16_t>(2 * segments);
  s.segment_parent = c.take<std::uint32_t>(segments);
  s.segment_count = c.take<std::uint32_t>(std::size_t(height));
  s.run_features = c.take<ProvisionalFeatures>(segments);
  char* results = c.take<char>(sizeof(FrameCounts) + components * sizeof(Component));
  s.counts = reinterpret_cast<FrameCounts*>(results);
  s.out = results ? reinterpret_cast<Component*>(results + sizeof(FrameCounts)) : nullptr;
  s.cub_temp = c.take<char>(s.cub_temp_bytes);
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

void allocate_scratch(Scratch& s, std::size_t pixels, int height, const std::string& frame) {
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
  free_scratch(s);
  s = grown;
}

void free_scratch(Scratch& s) noexcept {
  if (s.arena) cudaFree(s.arena);
  s = Scratch{};
}

}  // namespace ccl::cuda
