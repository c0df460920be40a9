// The protocol's random frames (density 0..100 % in 5 % steps, g = 1..16) at sizes around the
// 128x64 tile (and the old 32x32 one), with padded strides, gray levels and thresholds, both orders, area filters and
// max_objects; CUDA == CPU == oracle, label map included.
#include <numeric>
#include <random>
#include <vector>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::random_options;
using gpu_test::Size;

const Size kSizes[] = {{1, 200},   {200, 1},   {31, 31},   {32, 32},   {33, 33},  {37, 61},   {64, 64},   {65, 31},
                       {97, 101}, {127, 129}, {128, 96},  {160, 160}, {200, 53}, {61, 257},  {255, 129},
                       {129, 65}, {121, 70},  {256, 128}, {385, 193}};
const Size kQuickSizes[] = {{1, 40}, {33, 33}, {65, 31}, {45, 70}, {130, 66}};


void sweep(int connectivity, int density_step, int max_g, const Size* sizes, std::size_t n_sizes) {
  std::mt19937 rng(1234 + connectivity);
  std::uint32_t seed = 0;
  std::vector<int> gs(static_cast<std::size_t>(max_g));
  std::iota(gs.begin(), gs.end(), 1);
  gpu_test::for_each_sweep_frame(sizes, n_sizes, gs.data(), gs.size(), density_step, seed,
                                 [&](const frames::Frame& f, std::uint32_t s) {
                                   const auto upload = s % 10 == 0 ? gpu_test::Upload::Host : gpu_test::Upload::Device;
                                   harness().expect_agree(f, random_options(rng, connectivity, s % 3 == 0), true, upload);
                                 });
}

TEST(Random, Sweep4) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  sweep(4, 5, 16, kSizes, std::size(kSizes));
}

TEST(Random, Sweep8) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  sweep(8, 5, 16, kSizes, std::size(kSizes));
}

TEST(Random, Quick) {
  sweep(4, 20, 4, kQuickSizes, std::size(kQuickSizes));
  sweep(8, 20, 4, kQuickSizes, std::size(kQuickSizes));
}

}  // namespace
