// The device's copy bandwidth, measured by every GPU benchmark in the same run as its figures so
// each figure can be given as a fraction of the bandwidth floor (cost model in docs/algorithms.md).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "ccl/types.hpp"

namespace bench {

// Throws ccl::Error(DeviceFailure) naming `what` and the CUDA error.
inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  throw ccl::Error(ccl::Error::Kind::DeviceFailure, std::string(what) + " failed: " + cudaGetErrorString(status),
                   cudaGetErrorString(status));
}

// Device-to-device copy bandwidth in bytes moved (read + write) per second, best of 10.
inline double copy_bandwidth(std::size_t bytes) {
  void *src = nullptr, *dst = nullptr;
  check(cudaMalloc(&src, bytes), "cudaMalloc");
  check(cudaMalloc(&dst, bytes), "cudaMalloc");
  check(cudaMemset(src, 1, bytes), "cudaMemset");
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  float best = 1e30f;
  for (int i = 0; i < 11; ++i) {
    check(cudaEventRecord(a), "cudaEventRecord");
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    check(cudaEventRecord(b), "cudaEventRecord");
    check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    if (i > 0) best = std::min(best, ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * double(bytes) / (best * 1e-3);
}

}  // namespace bench
