#include "cuda_fault.hpp"

#include <cuda_runtime.h>

namespace relcheck {
namespace {

__global__ void TrapKernel() { __trap(); }

}  // namespace

std::string trap_in_current_context() {
  TrapKernel<<<1, 1>>>();
  const cudaError_t trapped = cudaDeviceSynchronize();
  void* probe = nullptr;
  const cudaError_t later = cudaMalloc(&probe, 256);
  if (later == cudaSuccess) cudaFree(probe);
  (void)cudaGetLastError();  // the thread's last error must not surface in the test's next CUDA call
  return trapped != cudaSuccess && later != cudaSuccess ? cudaGetErrorString(later) : "";
}

}  // namespace relcheck
