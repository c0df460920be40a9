// 8192x8192 and 16384x16384 frames: the oracle at 8192 on two frames, the CPU backend on all.
#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;

TEST(Large, Frames8192) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  const int n = 8192;
  harness().expect_agree(frames::random(n, n, 60, 1, 11), ccl::Options{}, true);
  ccl::Options four;
  four.connectivity = 4;
  four.order = ccl::Order::Area;
  harness().expect_agree(frames::random(n, n, 45, 1, 12, 5), four, true);
  harness().expect_agree(frames::random(n, n, 62, 4, 13), ccl::Options{}, false);
  harness().expect_agree(frames::random(n - 1, n + 1, 50, 16, 14, 1), four, false);
  harness().expect_agree(frames::full(n, n), ccl::Options{}, false);
  harness().expect_agree(frames::spiral(n, n), four, false);
  harness().expect_agree(frames::comb(n, n, true), ccl::Options{}, false);
}

TEST(Large, Frames16384) {
  if (gpu_test::quick()) GTEST_SKIP() << "quick mode";
  const int n = 16384;
  ccl::Options area;
  area.order = ccl::Order::Area;
  area.min_area = 2;
  area.max_objects = 100000;
  harness().expect_agree(frames::random(n, n, 55, 1, 21), area, false);
  ccl::Options four;
  four.connectivity = 4;
  harness().expect_agree(frames::random(n, n, 60, 4, 22), four, false);
}

}  // namespace
