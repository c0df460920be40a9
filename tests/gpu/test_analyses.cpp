// Every analysis (flsl-cd, flsl, naive, flsl-otf) gives the same statistics: random frames
// (density 0..100 % step 10, g 1, 2, 4, 16) at sizes around the 128x64 tile with padded strides,
// gray levels, thresholds, both connectivities and orders, area filters and max_objects; the
// adversarial shapes; 2048x2048 frames, a full one (the worst case of naive's atomics) among
// them; and rows and columns of the largest side. CUDA == CPU, and == oracle (label map included)
// on all but the 2048x2048 frames.
#include <random>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::random_options;
using gpu_test::Size;

const ccl::Analysis kAnalyses[] = {ccl::Analysis::FlslCd, ccl::Analysis::Flsl, ccl::Analysis::Naive,
                                   ccl::Analysis::FlslOtf};

// Every analysis on the same frame with the same options.
void agree_all(const frames::Frame& f, ccl::Options o, bool with_oracle,
               gpu_test::Upload upload = gpu_test::Upload::Device) {
  for (ccl::Analysis analysis : kAnalyses) {
    SCOPED_TRACE(std::string("analysis=") + ccl::to_string(analysis));
    o.analysis = analysis;
    harness().expect_agree(f, o, with_oracle, upload);
  }
}

void sweep(int connectivity, const Size* sizes, std::size_t n_sizes, const int* gs, std::size_t n_gs,
           int density_step) {
  std::mt19937 rng(4321 + connectivity);
  std::uint32_t seed = 7000;
  gpu_test::for_each_sweep_frame(sizes, n_sizes, gs, n_gs, density_step, seed,
                                 [&](const frames::Frame& f, std::uint32_t s) {
                                   const auto upload = s % 10 == 0 ? gpu_test::Upload::Host : gpu_test::Upload::Device;
                                   agree_all(f, random_options(rng, connectivity, s % 3 == 0), true, upload);
                                 });
}

TEST(Analyses, RandomSweep) {
  const Size sizes[] = {{1, 200}, {200, 1}, {33, 33}, {127, 129}, {255, 129}};
  const int gs[] = {1, 2, 4, 16};
  const Size quick_sizes[] = {{1, 40}, {40, 1}, {33, 33}, {130, 66}};
  const int quick_gs[] = {1, 4};
  for (int connectivity : {4, 8}) {
    if (gpu_test::quick())
      sweep(connectivity, quick_sizes, std::size(quick_sizes), quick_gs, std::size(quick_gs), 20);
    else
      sweep(connectivity, sizes, std::size(sizes), gs, std::size(gs), 10);
    if (HasFailure()) return;
  }
}

TEST(Analyses, Shapes) {
  const Size sizes[] = {{1, 1}, {2, 2}, {1, 97}, {97, 1}, {33, 33}, {127, 129}, {129, 127}, {257, 65}, {1000, 3}};
  const Size quick_sizes[] = {{1, 1}, {1, 37}, {33, 33}, {67, 35}};
  const bool q = gpu_test::quick();
  const Size* use = q ? quick_sizes : sizes;
  const std::size_t n = q ? std::size(quick_sizes) : std::size(sizes);
  for (std::size_t s = 0; s < n; ++s)
    for (int pad : {0, 5})
      for (const frames::Frame& f : frames::adversarial(use[s].w, use[s].h, pad))
        for (int connectivity : {4, 8})
          for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
            ccl::Options o;
            o.connectivity = connectivity;
            o.order = order;
            agree_all(f, o, true);
            if (HasFailure()) return;
          }
}

// One component over every pixel: every pixel of naive hits the same six addresses, and every
// run of flsl the same ones; sums reach 2048 * 2048 * 2047 / 2 (more than 32 bits).
TEST(Analyses, Frames2048) {
  const int n = gpu_test::quick() ? 512 : 2048;
  ccl::Options eight;
  ccl::Options four;
  four.connectivity = 4;
  four.order = ccl::Order::Area;
  agree_all(frames::full(n, n), eight, false);
  agree_all(frames::full(n, n, 3), four, false);
  if (gpu_test::quick()) return;
  agree_all(frames::random(n, n, 60, 1, 91), eight, false);      // percolation: one huge component
  agree_all(frames::random(n - 1, n, 40, 2, 92, 5), four, false);  // many small ones
  agree_all(frames::checkerboard(n, n), four, false);             // half the pixels are components
  agree_all(frames::spiral(n, n), eight, false);
}

// 65535 pixels in one row or one column: run positions at the top of 16 bits, kernels with a
// block row per image row 65535 blocks high, one run of every pixel of a row.
TEST(Analyses, LongestSides) {
  for (const frames::Frame& f : {frames::random(ccl::kMaxSide, 1, 50, 1, 61), frames::full(ccl::kMaxSide, 1),
                                 frames::random(1, ccl::kMaxSide, 50, 3, 62, 2), frames::full(1, ccl::kMaxSide)})
    for (int connectivity : {4, 8}) {
      ccl::Options o;
      o.connectivity = connectivity;
      agree_all(f, o, true);
      if (HasFailure()) return;
    }
}

}  // namespace
