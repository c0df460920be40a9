// Adversarial shapes (spiral, combs, checkerboard, stairs, corners, lines, rings, empty, full) at
// sizes that hit every tile-edge case: 1xN, Nx1, primes, tile multiples and their neighbours.
#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::Size;

void all_shapes(const Size* sizes, std::size_t n, const int* pads, std::size_t n_pads) {
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t p = 0; p < n_pads; ++p)
      for (const frames::Frame& f : frames::adversarial(sizes[s].w, sizes[s].h, pads[p]))
        for (int connectivity : {4, 8})
          for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
            ccl::Options o;
            o.connectivity = connectivity;
            o.order = order;
            harness().expect_agree(f, o, true);
            if (::testing::Test::HasFailure()) return;
          }
}

TEST(Shapes, TileEdges) {
  const Size sizes[] = {{1, 1},    {1, 2},    {2, 1},     {2, 2},     {3, 3},     {1, 97},   {97, 1},    {1, 1000},
                        {1000, 1}, {31, 31},  {32, 32},   {33, 33},   {63, 65},   {64, 64},  {65, 63},   {127, 127},
                        {128, 128}, {129, 129}, {96, 33}, {257, 31},  {509, 127}, {1024, 3}, {3, 1024},
                        {123, 129}, {255, 63},  {256, 64}, {257, 65}, {385, 191}};
  const Size quick_sizes[] = {{1, 1}, {2, 2}, {1, 37}, {37, 1}, {33, 33}, {64, 64}, {67, 35}, {123, 65}};
  const int pads[] = {0, 5};
  if (gpu_test::quick())
    all_shapes(quick_sizes, std::size(quick_sizes), pads, 2);
  else
    all_shapes(sizes, std::size(sizes), pads, 2);
}

TEST(Shapes, Large) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  const Size sizes[] = {{1000, 1000}, {2048, 2048}, {1, 65535}, {65535, 1}};
  const int pads[] = {3};
  all_shapes(sizes, std::size(sizes), pads, 1);
}

TEST(Shapes, Thresholds) {
  const frames::Frame f = frames::random(150, 90, 70, 2, 77, 3, true);
  for (int t : {0, 1, 100, 128, 254, 255})
    for (int connectivity : {4, 8}) {
      ccl::Options o;
      o.connectivity = connectivity;
      o.threshold = std::uint8_t(t);
      harness().expect_agree(f, o, true);
    }
}

}  // namespace
