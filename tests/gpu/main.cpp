// GPU tests: skipped (exit 77, meson's skip code) where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "ccl/cuda_analyzer.hpp"
#include "gpu_harness.hpp"

namespace gpu_test {

std::size_t frames_checked = 0;

bool quick() {
  const char* v = std::getenv("CCL_GPU_TEST_QUICK");
  return v && *v && std::string(v) != "0";
}

Harness& harness() {
  static Harness h;  // one analyzer for every test: scratch reuse across frame sizes is tested too
  return h;
}

}  // namespace gpu_test

int main(int argc, char** argv) {
  std::string why;
  if (!ccl::cuda_device_usable(&why)) {
    std::printf("SKIP: no usable CUDA device: %s\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  std::printf("frames compared: %zu\n", gpu_test::frames_checked);
  return status;
}
