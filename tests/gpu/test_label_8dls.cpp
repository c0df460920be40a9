// algorithm=8dls and algorithm=m8dls (Soh et al.'s directional label selection): random frames,
// every adversarial shape (spiral included) and a 2048x2048 spiral; CUDA == CPU (== oracle,
// label map included, except on the large spiral).
#include <random>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::Size;

constexpr ccl::Algorithm kAlgorithms[] = {ccl::Algorithm::EightDLS, ccl::Algorithm::M8DLS};

ccl::Options options_for(ccl::Algorithm algorithm, int connectivity) {
  ccl::Options o;
  o.algorithm = algorithm;
  o.connectivity = connectivity;
  return o;
}

void random_sweep(const Size* sizes, std::size_t n_sizes, int density_step, const int* gs, std::size_t n_gs) {
  std::mt19937 rng(8008);
  std::uint32_t seed = 5000;
  for (ccl::Algorithm algorithm : kAlgorithms) {
    gpu_test::sweep_algorithm(algorithm, sizes, n_sizes, gs, n_gs, density_step, rng, seed);
    if (::testing::Test::HasFailure()) return;
  }
}

void all_shapes(const Size* sizes, std::size_t n_sizes) {
  for (ccl::Algorithm algorithm : kAlgorithms)
    for (std::size_t s = 0; s < n_sizes; ++s)
      for (int pad : {0, 5})
        for (const frames::Frame& f : frames::adversarial(sizes[s].w, sizes[s].h, pad))
          for (int connectivity : {4, 8}) {
            harness().expect_agree(f, options_for(algorithm, connectivity), true);
            if (::testing::Test::HasFailure()) return;
          }
}

TEST(Label8dls, Random) {
  if (gpu_test::quick()) {
    const Size sizes[] = {{1, 40}, {40, 1}, {33, 33}, {67, 35}};
    const int gs[] = {1, 4};
    random_sweep(sizes, std::size(sizes), 25, gs, std::size(gs));
    return;
  }
  const Size sizes[] = {{1, 200}, {200, 1}, {33, 33}, {127, 129}, {255, 129}};
  const int gs[] = {1, 2, 4, 16};
  random_sweep(sizes, std::size(sizes), 10, gs, std::size(gs));
}

TEST(Label8dls, Shapes) {
  if (gpu_test::quick()) {
    const Size sizes[] = {{1, 1}, {2, 2}, {1, 37}, {37, 1}, {33, 33}, {67, 35}};
    all_shapes(sizes, std::size(sizes));
    return;
  }
  const Size sizes[] = {{1, 1}, {2, 2}, {3, 3}, {1, 97}, {97, 1}, {33, 33}, {64, 64},
                        {129, 65}, {127, 127}, {257, 255}, {385, 191}};
  all_shapes(sizes, std::size(sizes));
}

TEST(Label8dls, LargeSpiral) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  const frames::Frame f = frames::spiral(2048, 2048);
  for (ccl::Algorithm algorithm : kAlgorithms)
    for (int connectivity : {4, 8}) harness().expect_agree(f, options_for(algorithm, connectivity), false);
}

}  // namespace
