// Programmatic dependent launch (compute capability 9.0+): a kernel launched this way may be
// scheduled while the kernel before it in the stream is still finishing, and its blocks start by
// waiting for that kernel's results (wait_for_previous_kernel). What is gained is the gap between
// the two, a few microseconds a kernel, which matters when a frame is a chain of short kernels.
// On older devices the launch is an ordinary one and the wait does nothing.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace ccl::cuda {

// The first statement of a kernel launched with launch_dependent(): nothing before it may read or
// write memory the previous kernel touches.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Whether launch_dependent() asks for the overlap on the current device (9.0+, and not switched
// off). The switch is for benchmarks comparing both; graphs captured before keep what they had.
bool dependent_launches();
void set_dependent_launches(bool on);

// kernel<<<grid, block, 0, stream>>>(args...), allowed to overlap the previous kernel's tail.
template <typename... Params, typename... Args>
cudaError_t launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute overlap[1];
  overlap[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.stream = stream;
  config.attrs = overlap;
  config.numAttrs = dependent_launches() ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace ccl::cuda
