// algorithm=column-runs (Kang) and algorithm=raster-segments (Imura) against the CPU backend and
// the flood-fill oracle (label map included): random frames (density 0..100 % in 10 % steps,
// g = 1, 2, 4, 16) at sizes with non-power-of-two widths and partial column groups, padded
// strides, gray levels and thresholds, both connectivities; every adversarial shape at a few
// sizes; and one 2048x2048 random frame per algorithm against the CPU backend.
#include <random>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::Size;

const ccl::Algorithm kAlgorithms[] = {ccl::Algorithm::ColumnRuns, ccl::Algorithm::RasterSegments};

void sweep(ccl::Algorithm algorithm, const Size* sizes, std::size_t n_sizes, const int* gs, std::size_t n_gs,
           int density_step) {
  std::mt19937 rng(4321 + int(algorithm));
  std::uint32_t seed = 500;
  SCOPED_TRACE(std::string("algorithm=") + ccl::to_string(algorithm));
  gpu_test::sweep_algorithm(algorithm, sizes, n_sizes, gs, n_gs, density_step, rng, seed);
}

void shapes(ccl::Algorithm algorithm, const Size* sizes, std::size_t n_sizes) {
  const int pads[] = {0, 3};
  for (std::size_t s = 0; s < n_sizes; ++s)
    for (int pad : pads)
      for (const frames::Frame& f : frames::adversarial(sizes[s].w, sizes[s].h, pad))
        for (int connectivity : {4, 8}) {
          ccl::Options o;
          o.algorithm = algorithm;
          o.connectivity = connectivity;
          SCOPED_TRACE(std::string("algorithm=") + ccl::to_string(algorithm));
          harness().expect_agree(f, o, true);
          if (::testing::Test::HasFailure()) return;
        }
}

TEST(ColumnRaster, Random) {
  const Size sizes[] = {{1, 200}, {200, 1}, {33, 33}, {127, 129}, {255, 129}, {1000, 3}};
  const Size quick_sizes[] = {{1, 40}, {40, 1}, {33, 33}, {67, 35}};
  const int gs[] = {1, 2, 4, 16};
  const int quick_gs[] = {1, 4};
  for (ccl::Algorithm algorithm : kAlgorithms) {
    if (gpu_test::quick())
      sweep(algorithm, quick_sizes, std::size(quick_sizes), quick_gs, std::size(quick_gs), 25);
    else
      sweep(algorithm, sizes, std::size(sizes), gs, std::size(gs), 10);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(ColumnRaster, Shapes) {
  const Size sizes[] = {{1, 1},   {2, 2},    {1, 97},   {97, 1},   {3, 3},     {31, 33},
                        {64, 64}, {65, 63},  {129, 67}, {256, 31}, {257, 129}, {1000, 5}};
  const Size quick_sizes[] = {{1, 1}, {1, 17}, {17, 1}, {33, 33}, {67, 35}};
  for (ccl::Algorithm algorithm : kAlgorithms) {
    if (gpu_test::quick())
      shapes(algorithm, quick_sizes, std::size(quick_sizes));
    else
      shapes(algorithm, sizes, std::size(sizes));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(ColumnRaster, Large2048) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  for (ccl::Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(std::string("algorithm=") + ccl::to_string(algorithm));
    ccl::Options eight;
    eight.algorithm = algorithm;
    harness().expect_agree(frames::random(2048, 2048, 55, 1, 31), eight, false);
    ccl::Options four;
    four.algorithm = algorithm;
    four.connectivity = 4;
    four.order = ccl::Order::Area;
    harness().expect_agree(frames::random(2047, 2049, 60, 2, 32, 3), four, false);
  }
}

}  // namespace
