// Turns CUDA runtime failures into ccl::Error so callers see one error type with a readable cause.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "ccl/types.hpp"

namespace ccl::cuda {

// Throws Error(DeviceFailure) naming `what` and the CUDA error; clears sticky-free errors.
inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // a non-sticky error must not resurface at the next check
  throw Error(Error::Kind::DeviceFailure,
              std::string(what) + " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")",
              cudaGetErrorString(status));
}

// Checks the launch configuration of the kernel just launched (execution errors surface at the sync).
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace ccl::cuda
