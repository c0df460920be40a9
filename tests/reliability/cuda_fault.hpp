// CUDA faults for the reliability tests, injected by a kernel (cuda_fault.cu, built by nvcc).
#pragma once

#include <string>

namespace relcheck {

// Runs a kernel that executes __trap() in the CUDA context current on this thread. That leaves a
// sticky error in the context: every later CUDA call there fails. Returns cudaGetErrorString of
// such a later call (what the element should report), or "" when the context still works.
std::string trap_in_current_context();

}  // namespace relcheck
